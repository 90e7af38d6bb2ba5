import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { createRenderedPageCache, fillPageTemplate, jsonForHtml } from './server-rendered-pages.js';

describe('rendered page cache', () => {
  it('renders a page once for everyone asking at the same time, keeps it for its time, then renders again', async () => {
    let clock = 0;
    const renders: string[] = [];
    const cache = createRenderedPageCache(
      async (address, language) => {
        renders.push(`${language} ${address}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return `<p>${language} ${renders.length}</p>`;
      },
      1000,
      () => clock,
    );
    const together = await Promise.all([cache.get('/posts/top/', 'ru'), cache.get('/posts/top/', 'ru')]);
    expect(together).toEqual(['<p>ru 1</p>', '<p>ru 1</p>']);
    expect(await cache.get('/posts/top/', 'de')).toBe('<p>de 2</p>');
    clock = 999;
    expect(await cache.get('/posts/top/', 'ru')).toBe('<p>ru 1</p>');
    clock = 1000;
    expect(await cache.get('/posts/top/', 'ru')).toBe('<p>ru 3</p>');
    expect(renders).toEqual(['ru /posts/top/', 'de /posts/top/', 'ru /posts/top/']);
  });

  it('keeps nothing when a page could not be rendered, and tries again on the next visit', async () => {
    let fail = true;
    const cache = createRenderedPageCache(
      async () => (fail ? null : '<p>ok</p>'),
      1000,
      () => 0,
    );
    expect(await cache.get('/posts/top/', 'en')).toBeNull();
    fail = false;
    expect(await cache.get('/posts/top/', 'en')).toBe('<p>ok</p>');
  });
});

describe('filling a page template', () => {
  it('puts the language, the render and the answers in; no answer can end the script early', () => {
    const template =
      '<html lang="%LANGUAGE%" data-prerendered="%LANGUAGE%"><div id="root">%PAGE%</div></html>';
    const answers = {
      '/api/posts/?type=recommended&limit=20': { title: '</script><script>alert(1)</script>' },
    };
    const html = fillPageTemplate(template, 'ru', '<main>$& $1</main>', answers);
    expect(html.startsWith('<html lang="ru" data-prerendered="ru"><div id="root"><main>$& $1</main>')).toBe(
      true,
    );
    expect(html).not.toContain('</script><script>');
    const json = /<script type="application\/json" id="page-answers">(.*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json)).toEqual(answers);
    expect(jsonForHtml('a\u2028b')).toBe('"a\\u2028b"');
  });
});

// The route, with a stand-in for the web build's render worker (the real one runs in the e2e tests):
// it answers with what it was asked to render.
const WORKER = `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', ({ id, address, language, answers }) => {
  if (language === 'kk') return parentPort.postMessage({ id, error: 'cannot render' });
  parentPort.postMessage({ id, html: '<main>' + address + ' ' + language + ' ' + Object.keys(answers).join() + '</main>' });
});
parentPort.postMessage({ ready: true });
`;
const INDEX = '<!doctype html><html lang="en"><div id="root"><div class="boot"></div></div></html>';

let webDir: string;
let t: TestApp;
beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-ssr-web-'));
  await mkdir(path.join(webDir, 'ssr', 'pages', 'posts', 'top'), { recursive: true });
  await writeFile(path.join(webDir, 'index.html'), INDEX);
  await writeFile(path.join(webDir, 'ssr', 'render-worker.mjs'), WORKER);
  await writeFile(
    path.join(webDir, 'ssr', 'pages', 'posts', 'top', 'index.html'),
    '<!doctype html><html lang="%LANGUAGE%" data-prerendered="%LANGUAGE%"><div id="root" data-prerendered>%PAGE%</div></html>',
  );
  t = await createTestApp({ env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await t?.close();
  await rm(webDir, { recursive: true, force: true });
});

describe('the feed rendered by the server', () => {
  it('arrives rendered in the visitor’s language with the feed’s first page as the app asks for it', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/posts/top/',
      headers: { 'accept-language': 'uk' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(String(page.headers.vary)).toMatch(/accept-language/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<html lang="uk" data-prerendered="uk">');
    expect(page.body).toContain('<main>/posts/top/ uk /api/posts/?type=recommended&limit=20</main>');
    const answers = JSON.parse(/id="page-answers">(.*?)<\/script>/.exec(page.body)![1]!);
    const feed = await t.app.inject({ method: 'GET', url: '/api/posts/?type=recommended&limit=20' });
    expect(answers['/api/posts/?type=recommended&limit=20']).toEqual(feed.json());
  });

  it('is the app’s own loading page for a search, and when rendering fails', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/posts/top/?q=fox' })).body).toBe(INDEX);
    expect(
      (await t.app.inject({ method: 'GET', url: '/posts/top/', headers: { 'accept-language': 'kk' } })).body,
    ).toBe(INDEX);
  });

  it('never serves the renderer’s own files', async () => {
    const worker = await t.app.inject({ method: 'GET', url: '/ssr/render-worker.mjs' });
    expect(worker.body).not.toContain('parentPort');
  });
});
