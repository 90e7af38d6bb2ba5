import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// Behind a proxy that sets the country (Cloudflare) and X-Forwarded-For.
let proxied: TestApp;
// Reached directly: no trusted proxy, no country header.
let direct: TestApp;
beforeAll(async () => {
  [proxied, direct] = await Promise.all([
    createTestApp({ env: { GEO_COUNTRY_HEADER: 'CF-IPCountry', TRUST_PROXY: 'true' } }),
    createTestApp(),
  ]);
});
afterAll(() => Promise.all([proxied.close(), direct.close()]));

const geo = (t: TestApp, options: { headers?: Record<string, string>; remoteAddress?: string } = {}) =>
  t.app.inject({ method: 'GET', url: '/api/users/geo/', ...options });

describe('GET /api/users/geo/', () => {
  it('takes the country from the trusted proxy’s header', async () => {
    const response = await geo(proxied, { headers: { 'cf-ipcountry': 'ru', 'x-forwarded-for': '8.8.8.8' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ country_iso: 'RU' });
  });

  it('looks the forwarded client address up in the shipped GeoLite2 data', async () => {
    expect((await geo(proxied, { headers: { 'x-forwarded-for': '77.88.8.8' } })).json()).toEqual({
      country_iso: 'RU',
    });
    expect((await geo(proxied, { headers: { 'x-forwarded-for': '8.8.8.8' } })).json()).toEqual({
      country_iso: 'US',
    });
    // The header says "unknown": the address decides.
    const unknown = await geo(proxied, { headers: { 'cf-ipcountry': 'XX', 'x-forwarded-for': '8.8.8.8' } });
    expect(unknown.json()).toEqual({ country_iso: 'US' });
  });

  it('answers null for localhost and private addresses', async () => {
    expect((await geo(proxied)).json()).toEqual({ country_iso: null });
    expect((await geo(direct)).json()).toEqual({ country_iso: null });
    expect((await geo(proxied, { headers: { 'x-forwarded-for': '10.0.0.7' } })).json()).toEqual({
      country_iso: null,
    });
  });

  it('without a trusted proxy, believes the connection and not what the client claims', async () => {
    const claims = { 'x-forwarded-for': '77.88.8.8', 'cf-ipcountry': 'RU' };
    expect((await geo(direct, { headers: claims })).json()).toEqual({ country_iso: null });
    expect((await geo(direct, { remoteAddress: '8.8.8.8', headers: claims })).json()).toEqual({
      country_iso: 'US',
    });
  });

  it('needs no sign-in, and a broken Authorization header does not matter', async () => {
    const response = await geo(proxied, {
      headers: { authorization: 'Bearer not-a-jwt', 'x-forwarded-for': '8.8.8.8' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ country_iso: 'US' });
  });
});
