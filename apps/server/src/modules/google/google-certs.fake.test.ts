import { X509Certificate, createPublicKey } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleCertsFake, type GoogleCertsFake } from '../../fakes/google-certs.fake.js';

// The fake stands in for Google in every Google test, so its wire format is checked here once.
let fake: GoogleCertsFake;
beforeAll(async () => {
  fake = await startGoogleCertsFake({ maxAgeSeconds: 1234 });
});
afterAll(() => fake.close());

describe('the Google certs fake', () => {
  it('serves {kid: X.509 PEM} on 127.0.0.1 with a Cache-Control max-age, like oauth2/v1/certs', async () => {
    expect(new URL(fake.url)).toMatchObject({ hostname: '127.0.0.1', pathname: '/oauth2/v1/certs' });
    const response = await fetch(fake.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=1234\b/);
    const certs = (await response.json()) as Record<string, string>;
    expect(Object.keys(certs)).toEqual(fake.publishedKids());
    expect(Object.keys(certs)).toHaveLength(2);
    for (const [kid, pem] of Object.entries(certs)) {
      expect(kid).toMatch(/^[0-9a-f]{40}$/);
      const certificate = new X509Certificate(pem);
      expect(certificate.subject).toBe('CN=federated-signon.system.gserviceaccount.com');
      expect(certificate.verify(certificate.publicKey)).toBe(true);
      expect(new Date(certificate.validTo).getTime()).toBeGreaterThan(Date.now());
    }
    expect((await fetch(new URL('/oauth2/v3/certs', fake.url))).status).toBe(404);
  });

  it('can serve bare SPKI public keys instead', async () => {
    const spki = await startGoogleCertsFake({ format: 'spki' });
    try {
      const certs = (await (await fetch(spki.url)).json()) as Record<string, string>;
      for (const pem of Object.values(certs)) {
        expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
        expect(createPublicKey(pem).asymmetricKeyType).toBe('rsa');
      }
    } finally {
      await spki.close();
    }
  });

  it('signs ID tokens shaped like Google’s, with overrides and removable claims', async () => {
    const token = await fake.signIdToken({ email: 'ada@example.com', locale: undefined });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', kid: fake.publishedKids()[1], typ: 'JWT' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      iss: 'https://accounts.google.com',
      aud: fake.clientId,
      azp: fake.clientId,
      sub: expect.stringMatching(/^\d{21}$/),
      email: 'ada@example.com',
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    expect(claims).not.toHaveProperty('locale');
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('rotates like Google: a new kid is published and the oldest retired', async () => {
    const [, current] = fake.publishedKids();
    const next = await fake.rotateKeys();
    expect(fake.publishedKids()).toEqual([current, next]);
    const served = (await (await fetch(fake.url)).json()) as Record<string, string>;
    expect(Object.keys(served)).toEqual([current, next]);
  });

  it('answers with an error status while told to fail, and counts every fetch', async () => {
    const before = fake.fetchCount();
    fake.failWith(500);
    expect((await fetch(fake.url)).status).toBe(500);
    fake.failWith(null);
    expect((await fetch(fake.url)).status).toBe(200);
    expect(fake.fetchCount()).toBe(before + 2);
  });
});
