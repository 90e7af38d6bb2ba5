import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaOriginOf } from '../shared/storage/create-storage.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const THEME_SCRIPT = "document.documentElement.dataset.theme = 'dark';";

let webDir: string;
let t: TestApp;
let alwaysHsts: TestApp;
let neverHsts: TestApp;
beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-csp-web-'));
  await writeFile(
    path.join(webDir, 'index.html'),
    `<!doctype html><title>Mirra</title><script>${THEME_SCRIPT}</script>` +
      '<script type="module" src="/assets/app.js"></script><div id="root"></div>',
  );
  t = await createTestApp({
    env: { WEB_DIST_DIR: webDir, TRUST_PROXY: 'true', GOOGLE_CLIENT_ID: 'web.apps' },
  });
  alwaysHsts = await createTestApp({ env: { WEB_DIST_DIR: webDir, HSTS: 'on' }, shareDatabaseWith: t });
  neverHsts = await createTestApp({
    env: { WEB_DIST_DIR: webDir, HSTS: 'off', TRUST_PROXY: 'true' },
    shareDatabaseWith: t,
  });
});
afterAll(async () => {
  await alwaysHsts?.close();
  await neverHsts?.close();
  await t?.close();
  await rm(webDir, { recursive: true, force: true });
});

/** The policy as a map of directive → sources. */
function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

describe('content security policy', () => {
  it('lets only Telegram’s web clients frame the app', async () => {
    for (const url of ['/', '/profile/some-one/', '/api/config/']) {
      const response = await t.app.inject({ method: 'GET', url });
      const policy = directives(response.headers['content-security-policy']);
      expect(policy.get('frame-ancestors')).toEqual(['https://web.telegram.org', 'https://*.telegram.org']);
    }
  });

  it('runs scripts only from this origin, the page’s own inline script by hash, and Google sign-in', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.body).toContain(THEME_SCRIPT);
    const policy = directives(page.headers['content-security-policy']);
    const hash = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;
    expect(policy.get('script-src')).toEqual(["'self'", hash, 'https://accounts.google.com/gsi/client']);
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
    expect(policy.get('script-src-attr')).toEqual(["'none'"]);
    // With media in S3 (TEST_STORAGE=s3) the store's origin is allowed too.
    const media = mediaOriginOf(t.deps.config.storage);
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      ...(media ? [media] : []),
      'https://accounts.google.com/gsi/',
    ]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
  });

  it('lets Google’s sign-in popup answer and see which site asks, without giving other sites the path', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('leaves Google out when sign-in with Google is not configured', async () => {
    const policy = directives(
      (await alwaysHsts.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'],
    );
    expect(policy.get('script-src')!.filter((source) => source.startsWith('https:'))).toEqual([]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
  });

  it('gives the API docs a policy of their own that lets them run', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui-bundle.js');
    const policy = directives(docs.headers['content-security-policy']);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
  });
});

describe('Strict-Transport-Security', () => {
  const hsts = async (app: TestApp, headers: Record<string, string> = {}) =>
    (await app.app.inject({ method: 'GET', url: '/api/config/', headers })).headers[
      'strict-transport-security'
    ];

  it('is not sent over plain http (HSTS=auto)', async () => {
    expect(await hsts(t)).toBeUndefined();
  });

  it('is sent when a trusted proxy says the request came over https (HSTS=auto)', async () => {
    expect(await hsts(t, { 'x-forwarded-proto': 'https' })).toBe('max-age=31536000; includeSubDomains');
  });

  it('follows HSTS=on and HSTS=off whatever the protocol', async () => {
    expect(await hsts(alwaysHsts)).toBe('max-age=31536000; includeSubDomains');
    expect(await hsts(neverHsts, { 'x-forwarded-proto': 'https' })).toBeUndefined();
  });
});
