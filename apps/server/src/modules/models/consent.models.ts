import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { MODEL_CONSENT_LINK_DAYS } from '@mirra/contracts';

/**
 * Consent links for a model of someone else. A link's token is `<consent>.<expiry>.<signature>`:
 * the consent's uuid (base64url), the expiry in seconds since the epoch (base 36) and an
 * HMAC-SHA256 of both under a key derived from the server's secret. Nobody can make a token for
 * a consent, or move its expiry, without the secret, so the consent rows need no token column.
 * The link proves nothing about who holds it: confirming takes a live check of the face in the
 * model's photos; withdrawing (which only ever removes) takes the link alone.
 */

const SIGNING_CONTEXT = 'mirra:model-consent:v1';

export const consentLinkSeconds = MODEL_CONSENT_LINK_DAYS * 24 * 3600;

/** The signing key, apart from every other use of the secret. */
export function consentSigningKey(secret: string): Buffer {
  return createHash('sha256').update(`${SIGNING_CONTEXT}\n${secret}`).digest();
}

export function signConsentToken(key: Buffer, consentUuid: string, expiresAt: Date): string {
  const id = Buffer.from(consentUuid.replace(/-/g, ''), 'hex').toString('base64url');
  const expiry = Math.floor(expiresAt.getTime() / 1000).toString(36);
  return `${id}.${expiry}.${signature(key, id, expiry)}`;
}

/** The consent a token names and until when it confirms; null for anything not signed by us. */
export function readConsentToken(
  key: Buffer,
  token: string,
): { consentUuid: string; expiresAt: Date } | null {
  const [id, expiry, signed, ...rest] = token.split('.');
  if (!id || !expiry || !signed || rest.length > 0) return null;
  const expected = Buffer.from(signature(key, id, expiry));
  const given = Buffer.from(signed);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const hex = Buffer.from(id, 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  const seconds = parseInt(expiry, 36);
  if (!Number.isSafeInteger(seconds)) return null;
  const consentUuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { consentUuid, expiresAt: new Date(seconds * 1000) };
}

function signature(key: Buffer, id: string, expiry: string): string {
  return createHmac('sha256', key).update(`${id}.${expiry}`).digest('base64url');
}

export type ConsentStatus = 'pending' | 'confirmed' | 'withdrawn';

/** What the consent page shows: a consent whose model was deleted by its owner is `closed`. */
export function consentPageStatus(consent: {
  status: ConsentStatus;
  modelId: number | null;
}): 'pending' | 'confirmed' | 'withdrawn' | 'closed' {
  if (consent.status === 'withdrawn') return 'withdrawn';
  return consent.modelId === null ? 'closed' : consent.status;
}
