import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATION_MODES } from '@mirra/contracts';
import { createTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp;
let webDir: string;
const BUNDLE = Buffer.from('export const words = ' + JSON.stringify('mirra '.repeat(4000)) + ';\n');
const BUNDLE_BR = brotliCompressSync(BUNDLE);
const BUNDLE_GZ = gzipSync(BUNDLE, { level: 9 });
beforeAll(async () => {
  webDir = path.join(os.tmpdir(), `mirra-web-${process.pid}`);
  await mkdir(path.join(webDir, 'assets'), { recursive: true });
  await writeFile(
    path.join(webDir, 'index.html'),
    '<!doctype html><title>Mirra</title><div id="root"></div>',
  );
  await writeFile(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  // A built bundle with the copies the build writes beside it (apps/web/scripts/precompress.mjs).
  await writeFile(path.join(webDir, 'assets', 'main-def456.js'), BUNDLE);
  await writeFile(path.join(webDir, 'assets', 'main-def456.js.br'), BUNDLE_BR);
  await writeFile(path.join(webDir, 'assets', 'main-def456.js.gz'), BUNDLE_GZ);
  t = await createTestApp({
    env: { WEB_DIST_DIR: webDir, BODY_LIMIT_BYTES: '2048', SUPPORT_TELEGRAM: '@mirra_help' },
  });
});
afterAll(() => t.close());

describe('bad input never causes a 5xx', () => {
  it('answers malformed JSON with 400 and a detail', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'common.malformed_json',
      detail: expect.stringContaining('JSON parse error'),
    });
  });

  it('answers an oversized body with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(5000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      detail: 'Request body is too large.',
      code: 'common.payload_too_large',
    });
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('common.unsupported_media_type');
  });

  it('answers wrong JSON types per field, and a non-object body as a non-field error', async () => {
    const typed = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email: 42, password: ['x'] },
    });
    expect(typed.statusCode).toBe(400);
    expect(typed.json()).toEqual({
      code: 'common.validation',
      email: ['Not a valid string.'],
      password: ['Not a valid string.'],
    });
    const array = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(array.statusCode).toBe(400);
    expect(array.json()).toHaveProperty('non_field_errors');
  });

  it('treats an empty JSON body as no body (clients send bodiless POSTs as JSON)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation');
  });

  it('ignores prototype-pollution keys in JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"admin": true}, "email": "a@b.co", "password": "x"}',
    });
    expect(response.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('routing', () => {
  it('answers unknown API routes with the DRF 404', async () => {
    for (const url of ['/api/nope/', '/api/users/me', '/api']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found.', code: 'common.not_found' });
    }
    const post = await t.app.inject({ method: 'POST', url: '/profile/' });
    expect(post.statusCode).toBe(404);
  });

  it('serves the web app at / and its index for client-side routes; hashed assets are immutable', async () => {
    for (const url of ['/', '/profile/abc/', '/settings/language/', '/reset-pass/MQ/abc-123']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('sends the precompressed copy of a web app file that the browser accepts, and varies on it', async () => {
    const url = '/assets/main-def456.js';
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    // The stored copy itself (made at the highest quality), not one compressed on the fly.
    expect(br.rawPayload.equals(BUNDLE_BR)).toBe(true);

    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(BUNDLE_GZ)).toBe(true);
    expect(gunzipSync(gz.rawPayload).equals(BUNDLE)).toBe(true);

    const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(BUNDLE)).toBe(true);
  });

  it('compresses JSON answers above a small size, and leaves small ones as they are', async () => {
    const doc = await t.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'br' },
    });
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(doc.rawPayload).toString())).toHaveProperty('paths');

    const small = await t.app.inject({
      method: 'GET',
      url: '/api/generations/price/?mode=simple',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('publishes the OpenAPI document and its UI at /api/docs/', async () => {
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const p of [
      '/api/users/',
      '/api/users/me/',
      '/api/token/login/',
      '/api/auth/refresh/',
      '/api/token/logout/',
      '/api/auth/google/',
      '/api/auth/base/',
      '/api/tg/create_auth_key/',
      '/api/tg/get_token/',
      '/api/qs/',
      '/api/users/geo/',
      '/api/users/by_ids/',
    ]) {
      expect(doc.paths, p).toHaveProperty([p]);
    }
    expect(
      doc.paths['/api/token/login/'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('email');
    // What each mode takes comes from its declaration.
    const mode =
      doc.paths['/api/generations/'].post.requestBody.content['application/json'].schema.properties.mode;
    expect(mode.enum).toEqual([...GENERATION_MODES]);
    expect(mode.description).toContain(
      'face_swap: makes an image; takes a photo or none, a description when there is no photo, model_uuid',
    );
    expect(mode.description).toContain('priced per second rendered (prices.video_per_second)');
  });

  it('tells the web app which sign-in options exist and where support answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/config/' });
    expect(response.json()).toEqual({
      google_client_id: null,
      telegram_bot_username: null,
      telegram_mini_app_name: null,
      public_url: 'http://mirra.test',
      support_telegram_url: 'https://t.me/mirra_help',
      support_email: null,
      error_reporting: null,
      // Try-on has no offline pipeline and no provider is configured here.
      unavailable_modes: ['try_on'],
      prices: expect.objectContaining({
        simple: 5,
        face_swap: 10,
        editing: 5,
        styling: 5,
        video_per_second: 5,
      }),
      free_tier: { daily_photos: 5, delay_seconds: 30 },
      engines: expect.objectContaining({
        simple: { engine: 'local', ai: false, abilities: ['offline_drawing'] },
      }),
      model_training: { ai: false },
    });
  });
});

describe('bodiless requests', () => {
  it('answer per-field required errors when a POST has no body at all', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/token/login/' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'common.validation',
      email: ['This field is required.'],
      password: ['This field is required.'],
    });
  });
});
