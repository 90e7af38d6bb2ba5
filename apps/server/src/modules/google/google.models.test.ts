import { describe, expect, it } from 'vitest';
import type { GoogleIdentity } from './google-verifier.js';
import { languageFromLocale, newUserFromGoogle } from './google.models.js';

const identity = (overrides: Partial<GoogleIdentity> = {}): GoogleIdentity => ({
  sub: '110169484474386276334',
  email: 'ada@example.com',
  emailVerified: true,
  givenName: 'Ada',
  familyName: 'Lovelace',
  locale: 'en',
  ...overrides,
});

describe('languageFromLocale', () => {
  it.each([
    ['ru', 'ru'],
    ['en-GB', 'en'],
    ['DE', 'de'],
    ['kk_KZ', 'kk'],
    ['pt-BR', null],
    ['', null],
    [null, null],
  ])('%j → %j', (locale, expected) => {
    expect(languageFromLocale(locale)).toBe(expected);
  });
});

describe('newUserFromGoogle', () => {
  it('makes an active account with the verified email, names and language', () => {
    expect(newUserFromGoogle(identity({ locale: 'uk' }))).toEqual({
      email: 'ada@example.com',
      googleSub: '110169484474386276334',
      isActive: true,
      firstName: 'Ada',
      lastName: 'Lovelace',
      language: 'uk',
    });
  });

  it('keeps names without control characters (PostgreSQL refuses NUL)', () => {
    const user = newUserFromGoogle(identity({ givenName: 'A\u0000da', familyName: 'Love\u001Blace\n' }));
    expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('leaves an unverified email out', () => {
    expect(newUserFromGoogle(identity({ emailVerified: false })).email).toBeNull();
  });

  it('cuts names to the 150 characters a profile allows', () => {
    const user = newUserFromGoogle(identity({ givenName: 'A'.repeat(300), familyName: 'L'.repeat(151) }));
    expect([user.firstName?.length, user.lastName?.length]).toEqual([150, 150]);
  });
});
