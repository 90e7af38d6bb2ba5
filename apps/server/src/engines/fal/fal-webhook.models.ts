import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/** A public key of fal's JWKS (`{kty: "OKP", crv: "Ed25519", x}`). */
export interface FalJwk {
  kty: string;
  crv: string;
  x: string;
  kid?: string;
}

/** Webhooks older or newer than this (seconds) are refused as replays. */
export const FAL_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The refusal that may mean fal rotated its key (the JWKS is worth fetching again). */
export const FAL_NO_KEY_VERIFIES = 'signature does not verify';

export type FalWebhookVerdict = { ok: true; requestId: string } | { ok: false; reason: string };

/**
 * fal signs a webhook with Ed25519 over `request_id \n user_id \n timestamp \n sha256_hex(raw
 * body)`, the signature hex in `X-Fal-Webhook-Signature`. Valid when every header is there, the
 * timestamp is within five minutes, the user is ours (when configured), and some key verifies it.
 */
export function verifyFalWebhook(input: {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  keys: FalJwk[];
  nowSeconds: number;
  expectedUserId: string | null;
}): FalWebhookVerdict {
  const header = (name: string) => {
    const value = input.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const requestId = header('x-fal-webhook-request-id');
  const userId = header('x-fal-webhook-user-id');
  const timestamp = header('x-fal-webhook-timestamp');
  const signature = header('x-fal-webhook-signature');
  if (!requestId || !userId || !timestamp || !signature) return { ok: false, reason: 'missing headers' };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: 'bad timestamp' };
  if (Math.abs(input.nowSeconds - Number(timestamp)) > FAL_WEBHOOK_TOLERANCE_SECONDS) {
    return { ok: false, reason: 'stale timestamp' };
  }
  if (input.expectedUserId && userId !== input.expectedUserId) return { ok: false, reason: 'other user' };
  if (!/^[0-9a-f]{128}$/i.test(signature)) return { ok: false, reason: 'bad signature' };
  const message = Buffer.from(
    [requestId, userId, timestamp, createHash('sha256').update(input.rawBody).digest('hex')].join('\n'),
    'utf8',
  );
  const signatureBytes = Buffer.from(signature, 'hex');
  const verified = input.keys.some((jwk) => {
    const key = publicKeyOf(jwk);
    return key !== null && verify(null, message, key, signatureBytes);
  });
  return verified ? { ok: true, requestId } : { ok: false, reason: FAL_NO_KEY_VERIFIES };
}

function publicKeyOf(jwk: FalJwk): KeyObject | null {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** After fal rotates its key, its JWKS is fetched again at most this often (seconds). */
export const FAL_JWKS_REFETCH_SECONDS = 60;

/**
 * fal's JWKS, fetched once a day at most (a failed fetch is retried on the next webhook). When no
 * cached key verifies a signature, fal may have rotated its key: `refetched` fetches the set again,
 * at most once a minute so that forged deliveries cannot make us hammer fal, instead of refusing
 * fal's valid webhooks until the day is over.
 */
export function createFalJwksCache(url: string, fetchImpl: typeof fetch, now: () => Date) {
  let cached: { keys: FalJwk[]; fetchedAt: number } | null = null;
  let lastAttempt = Number.NEGATIVE_INFINITY;
  async function load(): Promise<FalJwk[]> {
    lastAttempt = now().getTime();
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`fal JWKS answered ${response.status}`);
    const body = (await response.json()) as { keys?: FalJwk[] };
    cached = { keys: Array.isArray(body.keys) ? body.keys : [], fetchedAt: now().getTime() };
    return cached.keys;
  }
  return {
    async keys(): Promise<FalJwk[]> {
      if (cached && now().getTime() - cached.fetchedAt < 24 * 3600 * 1000) return cached.keys;
      return load();
    },
    /** The set fetched again, or null when it was fetched (or tried) less than a minute ago. */
    async refetched(): Promise<FalJwk[] | null> {
      if (now().getTime() - lastAttempt < FAL_JWKS_REFETCH_SECONDS * 1000) return null;
      return load();
    },
  };
}
