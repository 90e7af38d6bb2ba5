import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { routes, ZTelegramText } from '@mirra/contracts';

/** Where Telegram delivers bot updates (registered by `npm run telegram:setup`). */
export const TELEGRAM_WEBHOOK_PATH = routes.telegram.webhook.path;
/** The updates the bot handles; Stars payments need `pre_checkout_query` once they are sold. */
export const TELEGRAM_ALLOWED_UPDATES = ['message', 'pre_checkout_query'];

/** The secret in a `t.me/<bot>?start=<key>` link: 32 random bytes, base64url (43 of the 64 allowed). */
export function generateAuthKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether a start payload has the shape of our keys. Other payloads (`ref_<code>`, a campaign tag)
 * are not failed sign-ins, so they get the welcome rather than "this link has expired".
 */
export function isAuthKeyPayload(payload: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(payload);
}

export function hashAuthKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Whether the Start that confirmed a web sign-in made the account: an account that did not exist
 * when the browser asked for the key was made by that Start (both times are the database's).
 */
export function isAccountMadeBySignIn(joinedAt: Date, keyCreatedAt: Date): boolean {
  return joinedAt.getTime() >= keyCreatedAt.getTime();
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

/** Telegram refuses any other webhook secret: 1-256 characters of A-Z, a-z, 0-9, _ and -. */
export function isWebhookSecretFormatValid(secret: string): boolean {
  return /^[A-Za-z0-9_-]{1,256}$/.test(secret);
}

/** Text Telegram hands over, without control characters (PostgreSQL refuses NUL outright). */

/** The `user` of Mini App init data (`WebAppUser`); unknown fields are kept, not refused. */
export const ZTelegramProfile = z
  .object({
    id: z.number().int().positive(),
    first_name: ZTelegramText.optional(),
    last_name: ZTelegramText.optional(),
    username: ZTelegramText.optional(),
    language_code: ZTelegramText.optional(),
    photo_url: ZTelegramText.optional(),
    allows_write_to_pm: z.boolean().optional(),
  })
  .loose();
export type TelegramProfile = z.infer<typeof ZTelegramProfile>;

export type InitDataCheck =
  | { ok: true; user: TelegramProfile | null; startParam: string | null; authDate: Date }
  | { ok: false; reason: 'invalid' | 'expired' };

/** How far ahead of the app's clock Telegram's `auth_date` may be (clocks drift; no more). */
export const INIT_DATA_CLOCK_SKEW_SECONDS = 300;

/**
 * Checks raw Mini App init data the way Telegram specifies: the hash is an HMAC-SHA-256 of every
 * other field (sorted `key=value` lines) keyed by HMAC-SHA-256("WebAppData", botToken).
 *
 * Done here rather than with the library's `validate()`: it compares the hash with `!==` (we want
 * constant time), reads the wall clock (we want the app's clock), and its `parse()` refuses data
 * without the `signature` field that clients before Bot API 8.0 do not send. The signature is
 * checked before freshness, so "expired" is only ever said of data Telegram really signed.
 * `maxAgeSeconds` 0 turns the age check off; data dated in the future is refused either way.
 */
export function checkInitData(
  raw: string,
  botToken: string,
  options: { now: Date; maxAgeSeconds: number },
): InitDataCheck {
  const params = new URLSearchParams(raw);
  const hash = params.get('hash') ?? '';
  if (!/^[0-9a-f]{64}$/i.test(hash)) return { ok: false, reason: 'invalid' };
  const dataCheckString = [...params.entries()]
    .filter(([key]) => key !== 'hash')
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
  const secretKey = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const expected = createHmac('sha256', secretKey).update(dataCheckString).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return { ok: false, reason: 'invalid' };

  const authDateText = params.get('auth_date') ?? '';
  if (!/^\d{1,12}$/.test(authDateText)) return { ok: false, reason: 'invalid' };
  const authDate = new Date(Number(authDateText) * 1000);
  // Telegram stamps the data when the Mini App opens: a date ahead of the app's clock by more than
  // clocks drift was not made by Telegram now, and would otherwise stay fresh until long after.
  if (authDate.getTime() > options.now.getTime() + INIT_DATA_CLOCK_SKEW_SECONDS * 1000) {
    return { ok: false, reason: 'invalid' };
  }
  if (
    options.maxAgeSeconds > 0 &&
    authDate.getTime() + options.maxAgeSeconds * 1000 < options.now.getTime()
  ) {
    return { ok: false, reason: 'expired' };
  }

  let user: TelegramProfile | null = null;
  const userJson = params.get('user');
  if (userJson !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(userJson);
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    const profile = ZTelegramProfile.safeParse(parsed);
    if (!profile.success) return { ok: false, reason: 'invalid' };
    user = profile.data;
  }
  return { ok: true, user, startParam: params.get('start_param') || null, authDate };
}

/**
 * The button under a bot message that opens the app. Telegram takes `web_app` buttons only with
 * https URLs and refuses links to localhost, so a development server gets no button at all.
 */
export function openAppButton(
  url: string | undefined,
  label: string,
): { text: string; web_app: { url: string } } | null {
  if (!url?.startsWith('https://')) return null;
  return { text: label, web_app: { url } };
}
