import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Activation and password-reset links carry `uid` and `token`, as djoser does: `uid` is the user id
 * in base64url, `token` is `<timestamp base36>-<hmac>`. The HMAC covers what the link must not
 * outlive (password hash, last login, active flag, email), so a used link stops working by itself.
 */
export type AccountLinkPurpose = 'activation' | 'password_reset';

export interface AccountLinkSubject {
  id: number;
  email: string | null;
  passwordHash: string | null;
  lastLogin: Date | null;
  isActive: boolean;
}

export function encodeUid(id: number): string {
  return Buffer.from(String(id)).toString('base64url');
}

export function decodeUid(uid: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,24}$/.test(uid)) return null;
  const text = Buffer.from(uid, 'base64url').toString('utf8');
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : null;
}

function sign(secret: string, purpose: AccountLinkPurpose, user: AccountLinkSubject, ts: number) {
  const value = [
    purpose,
    user.id,
    user.passwordHash ?? '',
    user.lastLogin ? Math.floor(user.lastLogin.getTime() / 1000) : '',
    user.isActive ? 1 : 0,
    user.email ?? '',
    ts,
  ].join('|');
  return createHmac('sha256', `${secret}:account-link:${purpose}`).update(value).digest('hex').slice(0, 32);
}

export function makeAccountToken(
  secret: string,
  purpose: AccountLinkPurpose,
  user: AccountLinkSubject,
  now: Date,
): string {
  const ts = Math.floor(now.getTime() / 1000);
  return `${ts.toString(36)}-${sign(secret, purpose, user, ts)}`;
}

export function isAccountTokenValid(
  secret: string,
  purpose: AccountLinkPurpose,
  user: AccountLinkSubject,
  token: string,
  now: Date,
  maxAgeSeconds: number,
): boolean {
  const match = /^([0-9a-z]{1,13})-([0-9a-f]{32})$/.exec(token);
  if (!match) return false;
  const ts = parseInt(match[1]!, 36);
  const age = Math.floor(now.getTime() / 1000) - ts;
  if (age < 0 || age > maxAgeSeconds) return false;
  const expected = Buffer.from(sign(secret, purpose, user, ts));
  return timingSafeEqual(expected, Buffer.from(match[2]!));
}
