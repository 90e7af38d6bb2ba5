import { randomBytes } from 'node:crypto';

/**
 * A saved query string's id. It travels as the Mini App start parameter `qs_<id>`, which Telegram
 * caps at 64 characters of [A-Za-z0-9_-]; ours stay at 16 at most.
 */
export const QS_ID_PATTERN = /^[A-Za-z0-9_-]{1,16}$/;
const START_PARAM_PREFIX = 'qs_';

/** 12 base64url characters: 72 random bits, unguessable, and short enough for the start parameter. */
export function generateQsId(): string {
  return randomBytes(9).toString('base64url');
}

export function isQsId(value: string): boolean {
  return QS_ID_PATTERN.test(value);
}

export function startParamFor(id: string): string {
  return `${START_PARAM_PREFIX}${id}`;
}

/**
 * The query string as stored: without the `?` a client copies along from `location.search`, so
 * the app can append it to any path. Empty when nothing but the `?` was sent.
 */
export function normaliseQueryString(raw: string): string {
  return raw.trim().replace(/^\?/, '');
}
