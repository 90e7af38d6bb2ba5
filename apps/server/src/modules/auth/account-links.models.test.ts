import { describe, expect, it } from 'vitest';
import {
  decodeUid,
  encodeUid,
  isAccountTokenValid,
  makeAccountToken,
  type AccountLinkSubject,
} from './account-links.models.js';

const secret = 'unit-test-secret';
const now = new Date('2026-05-01T12:00:00Z');
const user: AccountLinkSubject = {
  id: 42,
  email: 'a@b.co',
  passwordHash: '$argon2id$x',
  lastLogin: null,
  isActive: true,
};

describe('account link uid', () => {
  it('is the id in base64url without padding, like djoser', () => {
    expect(encodeUid(1)).toBe('MQ');
    expect(encodeUid(42)).toBe('NDI');
    expect(decodeUid('NDI')).toBe(42);
  });

  it('rejects anything that is not a positive id', () => {
    for (const uid of [
      '',
      'not base64!',
      Buffer.from('abc').toString('base64url'),
      Buffer.from('0').toString('base64url'),
      Buffer.from('-5').toString('base64url'),
    ]) {
      expect(decodeUid(uid)).toBeNull();
    }
  });
});

describe('account link token', () => {
  const token = makeAccountToken(secret, 'password_reset', user, now);

  it('is valid for its user and purpose within its lifetime', () => {
    expect(token).toMatch(/^[0-9a-z]+-[0-9a-f]{32}$/);
    expect(
      isAccountTokenValid(secret, 'password_reset', user, token, new Date(now.getTime() + 1000), 3600),
    ).toBe(true);
  });

  it('stops working once what it covers changes: password, login, active flag, email', () => {
    const changes: Partial<AccountLinkSubject>[] = [
      { passwordHash: '$argon2id$y' },
      { lastLogin: new Date() },
      { isActive: false },
      { email: 'c@d.co' },
      { id: 43 },
    ];
    for (const change of changes) {
      expect(isAccountTokenValid(secret, 'password_reset', { ...user, ...change }, token, now, 3600)).toBe(
        false,
      );
    }
  });

  it('is refused for another purpose, another secret, when expired, or when malformed', () => {
    expect(isAccountTokenValid(secret, 'activation', user, token, now, 3600)).toBe(false);
    expect(isAccountTokenValid('other', 'password_reset', user, token, now, 3600)).toBe(false);
    expect(
      isAccountTokenValid(secret, 'password_reset', user, token, new Date(now.getTime() + 3601 * 1000), 3600),
    ).toBe(false);
    expect(isAccountTokenValid(secret, 'password_reset', user, `${token}0`, now, 3600)).toBe(false);
    expect(isAccountTokenValid(secret, 'password_reset', user, 'zz', now, 3600)).toBe(false);
  });
});
