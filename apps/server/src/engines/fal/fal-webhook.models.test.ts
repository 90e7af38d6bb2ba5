import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFalJwksCache, verifyFalWebhook, type FalJwk } from './fal-webhook.models.js';

const pair = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' }) as FalJwk;
  return { jwk, privateKey };
};
const ours = pair();
const now = 1_800_000_000;

function signed(body: string, over: { timestamp?: number; user?: string; key?: typeof ours } = {}) {
  const timestamp = String(over.timestamp ?? now);
  const user = over.user ?? 'u1';
  const message = ['req-1', user, timestamp, createHash('sha256').update(body).digest('hex')].join('\n');
  return {
    'x-fal-webhook-request-id': 'req-1',
    'x-fal-webhook-user-id': user,
    'x-fal-webhook-timestamp': timestamp,
    'x-fal-webhook-signature': sign(null, Buffer.from(message), (over.key ?? ours).privateKey).toString(
      'hex',
    ),
  };
}
const check = (headers: Record<string, string>, body: string, keys: FalJwk[] = [pair().jwk, ours.jwk]) =>
  verifyFalWebhook({ headers, rawBody: Buffer.from(body), keys, nowSeconds: now, expectedUserId: 'u1' });

describe('verifyFalWebhook', () => {
  const body = '{"request_id":"req-1","status":"OK"}';
  it('accepts a delivery signed by any key of the JWKS', () => {
    expect(check(signed(body), body)).toEqual({ ok: true, requestId: 'req-1' });
  });
  it('refuses a tampered body, a stale or future timestamp, another user, an unknown key, a missing header', () => {
    expect(check(signed(body), body.replace('OK', 'ERROR')).ok).toBe(false);
    expect(check(signed(body, { timestamp: now - 301 }), body).ok).toBe(false);
    expect(check(signed(body, { timestamp: now + 301 }), body).ok).toBe(false);
    expect(check(signed(body, { user: 'u2' }), body).ok).toBe(false);
    expect(check(signed(body, { key: pair() }), body).ok).toBe(false);
    const { 'x-fal-webhook-signature': _dropped, ...unsigned } = signed(body);
    expect(check(unsigned, body).ok).toBe(false);
  });
  it('accepts a delivery five minutes old', () => {
    expect(check(signed(body, { timestamp: now - 300 }), body).ok).toBe(true);
  });
});

describe('createFalJwksCache', () => {
  function served() {
    let set = [ours.jwk];
    let fetches = 0;
    const fetchImpl = (async () => {
      fetches += 1;
      return new Response(JSON.stringify({ keys: set }), { status: 200 });
    }) as unknown as typeof fetch;
    let clock = Date.UTC(2026, 10, 27, 12);
    return {
      cache: createFalJwksCache('https://fal.test/jwks', fetchImpl, () => new Date(clock)),
      rotate: (jwk: FalJwk) => void (set = [jwk]),
      advance: (ms: number) => void (clock += ms),
      fetches: () => fetches,
    };
  }

  it('keeps the set a day; a refetch after an unknown key is allowed once a minute', async () => {
    const jwks = served();
    expect(await jwks.cache.keys()).toEqual([ours.jwk]);
    expect(await jwks.cache.refetched()).toBeNull();
    const rotated = pair();
    jwks.rotate(rotated.jwk);
    jwks.advance(60_000);
    expect(await jwks.cache.keys()).toEqual([ours.jwk]);
    expect(await jwks.cache.refetched()).toEqual([rotated.jwk]);
    expect(await jwks.cache.keys()).toEqual([rotated.jwk]);
    jwks.advance(59_000);
    expect(await jwks.cache.refetched()).toBeNull();
    expect(jwks.fetches()).toBe(2);
    jwks.advance(24 * 3600_000);
    await jwks.cache.keys();
    expect(jwks.fetches()).toBe(3);
  });
});
