import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyFalWebhook, type FalJwk } from './fal-webhook.models.js';

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
