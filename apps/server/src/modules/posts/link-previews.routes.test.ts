import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { posts } from '../../shared/db/schema.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import {
  completedGeneration,
  createSwitchableModerator,
  publish,
  signedInPerson,
  type Person,
} from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createEngineRegistry } from '../../engines/index.js';

// The head of the web app's index.html as the build leaves it: its own title and description.
const INDEX = `<!doctype html>
<html lang="en" data-theme="dark">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Mirra: AI pictures and videos of yourself." />
    <title>Mirra</title>
  </head>
  <body><div id="root"></div></body>
</html>`;

const engine = createScriptedEngine('test');
let webDir: string;
let t: TestApp;
beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-link-previews-web-'));
  await writeFile(path.join(webDir, 'index.html'), INDEX);
  t = await createTestApp({
    env: { ENGINE_SIMPLE: 'test', FREE_DAILY_PHOTOS: '1000', WEB_DIST_DIR: webDir },
    overrides: { imageModerator: createSwitchableModerator() },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
});
afterAll(async () => {
  await t?.close();
  await rm(webDir, { recursive: true, force: true });
});
beforeEach(() => engine.script());

/** A link preview bot: a plain GET, no session, no JavaScript. */
const botGet = (url: string, language = 'en') =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { 'user-agent': 'TelegramBot (like TwitterBot)', 'accept-language': language },
  });

const call = (person: Person | null, method: 'GET' | 'POST' | 'DELETE', url: string) =>
  t.app.inject({ method, url, headers: person?.headers });

/** The meta tags of a page as a preview bot reads them: property or name → content, entities decoded. */
function metaTags(html: string): Record<string, string> {
  const decode = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const tags: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<meta\s[^>]*>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(tag)?.[1];
    const content = /content="([^"]*)"/.exec(tag)?.[1];
    if (key && content !== undefined) tags[key] = decode(content);
  }
  return tags;
}

/** The path of an absolute URL on this app (the test app's public URL is not listened on). */
const pathOf = (url: string) => new URL(url).pathname;

async function publishedPost(values: { title?: string; prompt?: string; firstName?: string } = {}) {
  const person = await signedInPerson(t, { firstName: values.firstName ?? 'Ada' });
  const generation = await completedGeneration(t, person, {
    mode: 'simple',
    prompt: values.prompt ?? 'a lighthouse at dusk',
  });
  const post = await publish(t, person, generation.uuid, { title: values.title ?? '' });
  return { person, generation, post };
}

describe('a post link previews in messengers', () => {
  it('answers the post page with Open Graph and Twitter card tags in the visitor’s language, and a lasting JPEG', async () => {
    const { post } = await publishedPost({ title: 'Evening light', firstName: 'Ada' });

    const russian = await botGet(`/post/${post.uuid}/`, 'ru-RU,ru;q=0.9');
    expect(russian.statusCode).toBe(200);
    expect(russian.headers['content-type']).toMatch(/^text\/html/);
    expect(String(russian.headers.vary)).toMatch(/accept-language/);
    expect(russian.body).toContain('<html lang="ru"');
    const tags = metaTags(russian.body);
    expect(tags['og:title']).toBe('Evening light');
    expect(tags['og:description']).toBe('Картинка от Ada: a lighthouse at dusk');
    expect(tags['og:url']).toBe(post.share_url);
    expect(tags['twitter:card']).toBe('summary_large_image');
    // Exactly one title and description: the app's own give way to the post's.
    expect(russian.body.match(/<title>/g)).toHaveLength(1);
    expect(russian.body.match(/name="description"/g)).toHaveLength(1);

    // The picture's address lasts: not a signed media URL that expires.
    expect(tags['og:image']).toMatch(/^http:\/\/mirra\.test\/api\/posts\/[0-9a-f-]+\/image\/$/);
    expect(tags['og:image']).not.toContain('/api/media/');
    const image = await botGet(pathOf(tags['og:image']!));
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    const { format, width, height } = await sharp(image.rawPayload).metadata();
    expect(format).toBe('jpeg');
    expect(String(width)).toBe(tags['og:image:width']);
    expect(String(height)).toBe(tags['og:image:height']);

    const german = metaTags((await botGet(`/post/${post.uuid}/`, 'de-DE')).body);
    expect(german['og:description']).toBe('Ein Bild von Ada: a lighthouse at dusk');
  });

  it('names whose picture it is when the post has no title', async () => {
    const { post } = await publishedPost({ title: '', firstName: 'Bakyt' });
    const tags = metaTags((await botGet(`/post/${post.uuid}/`, 'kk')).body);
    expect(tags['og:title']).toBe('Bakyt жасаған сурет');
  });

  it('escapes titles and prompts: quotes and markup stay text', async () => {
    const prompt = 'a "quoted" cat </title><script>alert(1)</script> & \'friends\'';
    const { post } = await publishedPost({ prompt, title: 'Cat "<b>bold</b>"' });
    const response = await botGet(`/post/${post.uuid}/`);
    expect(response.body).not.toContain('<script>alert(1)</script>');
    expect(response.body).not.toContain('<b>bold</b>');
    const tags = metaTags(response.body);
    expect(tags['og:title']).toBe('Cat "<b>bold</b>"');
    expect(tags['og:description']).toContain(prompt);
    expect(response.body).toContain('<title>Cat &quot;&lt;b&gt;bold&lt;/b&gt;&quot;</title>');
  });

  it('shows nothing of a draft, a hidden post or an unknown one: the site’s own preview, no picture', async () => {
    const author = await signedInPerson(t, { firstName: 'Secretname' });
    const draftGeneration = await completedGeneration(t, author, {
      mode: 'simple',
      prompt: 'a private prompt',
    });
    const draft = await publish(t, author, draftGeneration.uuid, { title: 'Private title', draft: true });
    const { post: hidden } = await publishedPost({
      title: 'Hidden title',
      prompt: 'a hidden prompt',
      firstName: 'Hiddenname',
    });
    await t.deps.db.update(posts).set({ status: 'hidden' }).where(eq(posts.uuid, hidden.uuid));

    for (const [uuid, words] of [
      [draft.uuid, ['Private title', 'a private prompt', 'Secretname']],
      [hidden.uuid, ['Hidden title', 'a hidden prompt', 'Hiddenname']],
      ['00000000-0000-4000-8000-000000000000', []],
    ] as const) {
      const page = await botGet(`/post/${uuid}/`);
      expect(page.statusCode).toBe(200);
      for (const word of words) expect(page.body).not.toContain(word);
      const tags = metaTags(page.body);
      expect(tags['og:title']).toBe('Mirra');
      expect(tags['og:image']).toBeUndefined();
      expect(page.body).not.toContain('/image/');
      expect((await botGet(`/api/posts/${uuid}/image/`)).statusCode).toBe(404);
    }
  });
});

describe('sharing a result that is not published', () => {
  it('shares the same revocable page until its owner stops; then the link says it is no longer shared', async () => {
    const person = await signedInPerson(t, { firstName: 'Chen' });
    const generation = await completedGeneration(t, person, { mode: 'simple', prompt: 'my secret words' });
    expect((await call(person, 'GET', `/api/generations/${generation.uuid}/share/`)).json()).toEqual({
      share: null,
    });

    const shared = await call(person, 'POST', `/api/generations/${generation.uuid}/share/`);
    expect(shared.statusCode).toBe(200);
    const share = shared.json();
    expect(share).toMatchObject({ kind: 'share' });
    expect(share.url).toMatch(/^http:\/\/mirra\.test\/s\/[A-Za-z0-9_-]{22,}\/$/);
    // Tapping Share again hands out the same link.
    expect((await call(person, 'POST', `/api/generations/${generation.uuid}/share/`)).json().url).toBe(
      share.url,
    );
    const token = share.url.split('/').at(-2);

    // Anyone with the link sees the picture and its author, never the prompt.
    const guest = await call(null, 'GET', `/api/shares/${token}/`);
    expect(guest.statusCode).toBe(200);
    expect(guest.json()).toMatchObject({ author: { firstName: 'Chen' } });
    expect(guest.body).not.toContain('my secret words');

    const page = await botGet(`/s/${token}/`, 'uk');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('my secret words');
    const tags = metaTags(page.body);
    expect(tags['og:title']).toBe('Картинка від Chen');
    expect(tags['twitter:card']).toBe('summary_large_image');
    const image = await botGet(pathOf(tags['og:image']!));
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(image.rawPayload).metadata()).format).toBe('jpeg');

    // Someone else cannot see or stop my sharing.
    const stranger = await signedInPerson(t);
    expect((await call(stranger, 'DELETE', `/api/generations/${generation.uuid}/share/`)).statusCode).toBe(
      404,
    );
    expect((await call(stranger, 'POST', `/api/generations/${generation.uuid}/share/`)).statusCode).toBe(404);

    const revoked = await call(person, 'DELETE', `/api/generations/${generation.uuid}/share/`);
    expect(revoked.json()).toEqual({ share: null });

    const gone = await botGet(`/s/${token}/`, 'ru');
    expect(gone.statusCode).toBe(410);
    const goneTags = metaTags(gone.body);
    expect(goneTags['og:title']).toBe('Больше не доступно по ссылке');
    expect(goneTags['og:image']).toBeUndefined();
    expect(gone.body).not.toContain('Chen');
    const goneApi = await call(null, 'GET', `/api/shares/${token}/`);
    expect(goneApi.statusCode).toBe(410);
    expect(goneApi.json().code).toBe('shares.revoked');
    expect((await botGet(`/api/shares/${token}/image/`)).statusCode).toBe(410);

    // Sharing again makes a new link; the stopped one stays stopped.
    const again = (await call(person, 'POST', `/api/generations/${generation.uuid}/share/`)).json();
    expect(again.url).not.toBe(share.url);
    expect((await botGet(`/s/${token}/`)).statusCode).toBe(410);
  });

  it('shares a published result by its post’s page', async () => {
    const { person, generation, post } = await publishedPost();
    const shared = (await call(person, 'POST', `/api/generations/${generation.uuid}/share/`)).json();
    expect(shared).toEqual({ url: post.share_url, kind: 'post', shared_at: null });
  });

  it('answers an unknown share link 404 and shows nothing', async () => {
    const page = await botGet('/s/AAAAAAAAAAAAAAAAAAAAAA/');
    expect(page.statusCode).toBe(404);
    expect(metaTags(page.body)['og:image']).toBeUndefined();
    expect((await call(null, 'GET', '/api/shares/AAAAAAAAAAAAAAAAAAAAAA/')).json().code).toBe(
      'shares.not_found',
    );
  });
});
