import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createActiveUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url } from '../lib/browser.js';
import { signInWithTokens } from '../lib/session.js';

/** The transform of a tile's picture now, as the browser draws it. */
const transformOf = (move: string) => (page: Page) =>
  page.evaluate((name) => {
    const back = document.querySelector(`.camera-option--${name} .camera-option__back`)!;
    return getComputedStyle(back).transform;
  }, move);

describe('the camera-move picker at 360 px', () => {
  it('ru light and en dark: moving tiles that fit, worded in the language, the move sent with the video', async () => {
    const user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
    for (const { language, theme, orbit } of [
      { language: 'ru', theme: 'light', orbit: 'Облёт' },
      { language: 'en', theme: 'dark', orbit: 'Orbit' },
    ] as const) {
      const s = await openBrowser('phone', {
        size: { width: 360, height: 780 },
        locale: language,
        theme,
        colorScheme: theme,
      });
      try {
        const { page } = s;
        await signInWithTokens(page, user);
        await page.goto(url('/generate/video/'));
        const picker = page.getByTestId('camera-auto');
        await picker.waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        expect(await page.getByTestId('camera-orbit').textContent()).toBe(orbit);
        expect(await picker.getAttribute('aria-checked')).toBe('true');

        // Each tile plays its own move: the pan's picture is somewhere else a moment later.
        const panned = transformOf('pan_left');
        const before = await panned(page);
        await page.waitForTimeout(700);
        expect(await panned(page)).not.toBe(before);
        await page.getByTestId('camera-pan_left').click();
        expect(await page.getByTestId('camera-pan_left').getAttribute('aria-checked')).toBe('true');
        await page.getByTestId('camera-pan_left').scrollIntoViewIfNeeded();
        await saveScreenshot(page, `camera-moves-${language}-${theme}-360`, true);

        // Asked for less motion, the tiles hold still.
        await page.emulateMedia({ reducedMotion: 'reduce' });
        const still = await panned(page);
        await page.waitForTimeout(400);
        expect(await panned(page)).toBe(still);

        if (language === 'en') {
          // The chosen move goes with the request.
          await page.getByTestId('prompt').fill('waves rolling onto a beach at sunset');
          await page.getByTestId('video-duration-3').click();
          const [request] = await Promise.all([
            page.waitForRequest(
              (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/generations/',
            ),
            page.getByTestId('generate-submit').click(),
          ]);
          expect(request.postDataJSON().settings).toEqual({ camera: 'pan_left' });
        }
        expect(s.errors).toEqual([]);
      } finally {
        await s.close();
      }
    }
  }, 180_000);
});
