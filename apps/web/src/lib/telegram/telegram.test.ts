import { describe, expect, it } from 'vitest';
import { hasTelegramLaunchParams, picksOneFileAtATime, wantsTelegramDevMode } from './detect';
import {
  AFTER_REDIRECT_MARKER,
  buildQsRedirect,
  hasAfterRedirectMarker,
  parseStartParam,
  profilePath,
} from './start-param';
import { compareVersions, telegramStartupPlan } from './startup-plan';

describe('start parameters', () => {
  it.each([
    [
      'p_3f2a9c1e-aaaa-4bbb-8ccc-0123456789ab',
      { type: 'profile', token: '3f2a9c1e-aaaa-4bbb-8ccc-0123456789ab' },
    ],
    ['p_abc', { type: 'profile', token: 'abc' }],
    ['qs_k7Yd', { type: 'qs', id: 'k7Yd' }],
    ['ref_42', null],
    ['p_', null],
    ['qs_', null],
    ['', null],
    [null, null],
    ['p_bad/slash', null],
  ])('%j → %j', (value, action) => {
    expect(parseStartParam(value)).toEqual(action);
  });

  it('opens /profile/<token>/ for p_', () => {
    expect(profilePath('abc')).toBe('/profile/abc/');
  });

  it('reloads the current address with the saved query string and the after-redirect marker', () => {
    const url = buildQsRedirect(
      'https://mirra.app/generate/simple/?old=1#tgWebAppData=x',
      '?prompt=cat&mode=simple',
    );
    expect(url).toBe(
      `https://mirra.app/generate/simple/?prompt=cat&mode=simple&${AFTER_REDIRECT_MARKER}=1#tgWebAppData=x`,
    );
    expect(hasAfterRedirectMarker(new URL(url).search)).toBe(true);
    expect(hasAfterRedirectMarker('?prompt=cat')).toBe(false);
  });
});

describe('the start-up plan by Telegram version', () => {
  it('compares versions numerically', () => {
    expect(compareVersions('7.10', '7.7')).toBe(1);
    expect(compareVersions('8.0', '8')).toBe(0);
    expect(compareVersions('6.8', '6.9')).toBe(-1);
  });

  it.each([
    [
      '6.0',
      { expand: true, disableVerticalSwipes: false, requestFullscreen: false, requestWriteAccess: false },
    ],
    [
      '6.9',
      { expand: true, disableVerticalSwipes: false, requestFullscreen: false, requestWriteAccess: true },
    ],
    [
      '7.6',
      { expand: true, disableVerticalSwipes: false, requestFullscreen: false, requestWriteAccess: true },
    ],
    [
      '7.7',
      { expand: true, disableVerticalSwipes: true, requestFullscreen: false, requestWriteAccess: true },
    ],
    [
      '7.10',
      { expand: true, disableVerticalSwipes: true, requestFullscreen: false, requestWriteAccess: true },
    ],
    ['8.0', { expand: true, disableVerticalSwipes: true, requestFullscreen: true, requestWriteAccess: true }],
    ['9.1', { expand: true, disableVerticalSwipes: true, requestFullscreen: true, requestWriteAccess: true }],
  ])('%s → %j', (version, plan) => {
    expect(telegramStartupPlan(version)).toEqual(plan);
  });

  it('does not ask for write access the user already gave', () => {
    expect(telegramStartupPlan('8.0', { allowsWrite: true }).requestWriteAccess).toBe(false);
  });
});

describe('detecting a Mini App launch without the SDK', () => {
  it('sees launch parameters in the address or in the SDK’s session copy', () => {
    expect(hasTelegramLaunchParams('https://x/#tgWebAppData=a&tgWebAppVersion=8.0', null)).toBe(true);
    expect(hasTelegramLaunchParams('https://x/?tgWebAppPlatform=ios', null)).toBe(true);
    expect(hasTelegramLaunchParams('https://x/profile/', 'tgWebAppData=user%3D1&tgWebAppVersion=8.0')).toBe(
      true,
    );
    expect(hasTelegramLaunchParams('https://x/profile/?q=tgWebApp', null)).toBe(false);
  });

  it('remembers the dev mode for the tab until ?tg_dev=0', () => {
    expect(wantsTelegramDevMode('')).toBe(false);
    expect(wantsTelegramDevMode('?tg_dev=1&start_param=p_x')).toBe(true);
    expect(wantsTelegramDevMode('')).toBe(true);
    expect(wantsTelegramDevMode('?tg_dev=0')).toBe(false);
    expect(wantsTelegramDevMode('')).toBe(false);
  });
});

describe('file picking inside Telegram', () => {
  it.each([
    [true, 'android', true],
    [true, 'ios', false],
    [true, 'tdesktop', false],
    [true, null, false],
    // A browser on an Android phone picks many files at once.
    [false, 'android', false],
  ])('inside Telegram %s on %s: one file at a time is %s', (inTelegram, platform, expected) => {
    expect(picksOneFileAtATime(inTelegram, platform)).toBe(expected);
  });
});
