import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

const INDEX = '<!doctype html><html lang="en"><div id="root"><div class="boot"></div></div></html>';
const page = (language: string, title: string) =>
  `<!doctype html><html lang="${language}" data-prerendered="${language}"><div id="root" data-prerendered><h1>${title}</h1></div></html>`;

let webDir: string;
let t: TestApp;
beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-prerendered-web-'));
  await writeFile(path.join(webDir, 'index.html'), INDEX);
  const files: Record<string, string> = {
    'prerendered/en/index.html': page('en', 'Photos of you, made by AI'),
    'prerendered/ru/index.html': page('ru', 'Ваши фото, созданные ИИ'),
    'prerendered/ru/create/index.html': page('ru', 'Создать'),
  };
  for (const [file, html] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(webDir, file)), { recursive: true });
    await writeFile(path.join(webDir, file), html);
  }
  t = await createTestApp({ env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await t?.close();
  await rm(webDir, { recursive: true, force: true });
});

async function get(url: string, acceptLanguage?: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
  });
}

describe('prerendered landing pages', () => {
  it('answers a landing address with its first screen in the language the app would pick', async () => {
    const russian = await get('/', 'ru-RU,ru;q=0.9,en;q=0.8');
    expect(russian.statusCode).toBe(200);
    expect(russian.headers['content-type']).toMatch(/^text\/html/);
    expect(russian.body).toContain('Ваши фото, созданные ИИ');
    // A cache must not hand the Russian page to an English browser, nor keep it past a deploy.
    expect(String(russian.headers.vary)).toMatch(/accept-language/);
    expect(russian.headers['cache-control']).toBe('no-cache');

    expect((await get('/', 'en-US,en;q=0.9')).body).toContain('Photos of you, made by AI');
    // No Accept-Language at all: English, as the app's own default.
    expect((await get('/')).body).toContain('Photos of you, made by AI');
    // The best-ranked supported language wins, as in the app.
    expect((await get('/', 'fr;q=1, ru;q=0.5')).body).toContain('Ваши фото');
    expect((await get('/create/', 'ru')).body).toContain('Создать');
  });

  it('answers with the loading mark where no page was prerendered in that language', async () => {
    const german = await get('/', 'de-DE');
    expect(german.statusCode).toBe(200);
    expect(german.body).toBe(INDEX);
    expect((await get('/create/', 'en')).body).toBe(INDEX);
    // Any other address is the app's as before.
    expect((await get('/posts/top/', 'ru')).body).toBe(INDEX);
  });

  it('does not serve the prerendered files by their own paths', async () => {
    const direct = await get('/prerendered/ru/index.html');
    expect(direct.body).not.toContain('Ваши фото');
  });
});
