import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The secret in a `t.me/<bot>?start=<key>` link: 32 random bytes, base64url (43 of the 64 allowed). */
export function generateAuthKey(): string {
  return randomBytes(32).toString('base64url');
}

export function hashAuthKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function botStartLink(botUsername: string, payload: string): string {
  return `https://t.me/${botUsername}?start=${payload}`;
}

/** The payload of `/start <payload>` (or `/start@bot <payload>`); null for anything else. */
export function parseStartCommand(text: string | undefined): { payload: string | null } | null {
  if (!text) return null;
  const match = /^\/start(?:@\w+)?(?:\s+([A-Za-z0-9_-]{1,64}))?\s*$/.exec(text.trim());
  if (!match) return null;
  return { payload: match[1] ?? null };
}

/** Constant-time comparison of the webhook's secret-token header. */
export function isWebhookSecretValid(
  expected: string | undefined,
  given: string | string[] | undefined,
): boolean {
  if (!expected || typeof given !== 'string') return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

export interface TelegramProfile {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  photo_url?: string;
  allows_write_to_pm?: boolean;
}
