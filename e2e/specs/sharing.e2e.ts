import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url } from '../lib/browser.js';
import { apiGenerate, apiWaitForGeneration, JPEG_SIGNATURE } from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';

/**
 * A shared link, as the people and the bots who receive it see it: a link preview bot (plain GET,
 * no JavaScript) reads the Open Graph tags and fetches the picture; a guest opening the post sees
 * it blurred with its author behind the sign-in sheet. In every language, at 360 px.
 */
const PHONE_360 = { width: 360, height: 780 };
const BOT = 'TelegramBot (like TwitterBot)';
/** Whose picture it is, in each language (the server's words for a preview). */
const BYLINE = {
  en: 'A picture by Ada Lovelace',
  ru: 'Картинка от Ada Lovelace',
  de: 'Ein Bild von Ada Lovelace',
  uk: 'Картинка від Ada Lovelace',
  kk: 'Ada Lovelace жасаған сурет',
  az: 'Ada Lovelace tərəfindən şəkil',
} as const;
const LANGUAGES = Object.keys(BYLINE) as Array<keyof typeof BYLINE>;
const PROMPT = 'a "lighthouse" at dusk <b>bold</b>';

const bearer = (user: TestUser) => `Bearer ${user.access}`;

/** The page as a preview bot gets it, and its meta tags (property or name → content, decoded). */
async function readAsBot(pathname: string, language: string) {
  const response = await fetch(url(pathname), {
    headers: { 'user-agent': BOT, 'accept-language': language },
  });
  const html = await response.text();
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
  return { status: response.status, html, tags };
}

/** The picture a preview bot would show: fetched by its og:image address, as the bot does. */
async function fetchAsBot(address: string) {
  const response = await fetch(address, { headers: { 'user-agent': BOT } });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

async function completedResult(user: TestUser, prompt: string) {
  const generation = await apiGenerate(user, { mode: 'simple', prompt, seed: 4 });
  const done = await apiWaitForGeneration(user, generation.uuid, 60_000);
  expect(done.status).toBe(100);
  return done.uuid;
}

let ada: TestUser;
let postUuid: string;
beforeAll(async () => {
  ada = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
  const generationUuid = await completedResult(ada, PROMPT);
  const post = await callApi<{ uuid: string }>('/api/posts/', {
    body: { generation_uuid: generationUuid, title: '' },
    authorization: bearer(ada),
  });
  expect(post.status).toBe(201);
  postUuid = post.body.uuid;
}, 120_000);

describe.each(LANGUAGES)('a shared post link (%s)', (language) => {
  it('previews in messengers: Open Graph tags in the language, a lasting picture a bot can fetch', async () => {
    const { status, html, tags } = await readAsBot(`/post/${postUuid}/`, language);
    expect(status).toBe(200);
    expect(html).toContain(`<html lang="${language}"`);
    expect(tags['og:title']).toBe(BYLINE[language]);
    expect(tags['og:description']).toBe(`${BYLINE[language]}: ${PROMPT}`);
    expect(html).not.toContain('<b>bold</b>');
    expect(tags['twitter:card']).toBe('summary_large_image');
    expect(tags['og:url']).toBe(url(`/post/${postUuid}/`));
    expect(tags['og:image']).not.toContain('/api/media/');
    const image = await fetchAsBot(tags['og:image']!);
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/jpeg');
    expect(image.bytes.subarray(0, 3)).toEqual(JPEG_SIGNATURE);
    expect(image.bytes.length).toBeGreaterThan(1000);
  });

  it('shows a guest the picture blurred with its author under the sign-in sheet', async () => {
    const s = await openBrowser('phone', { size: PHONE_360, locale: language });
    try {
      const { page } = s;
      await page.goto(url(`/post/${postUuid}/`));
      await page.getByTestId('sign-in-panel').waitFor();
      const picture = page.getByTestId('post-guest-picture');
      await picture.waitFor();
      expect(await picture.evaluate((img) => getComputedStyle(img).filter)).toMatch(/blur\(/);
      expect(await picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(await page.getByTestId('post-guest-author').textContent()).toContain('Ada Lovelace');
      // The post itself stays for people signed in.
      expect(await page.getByTestId('post-view').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // The sheet covers a phone's screen, so it shows the glimpse and whose post it is too.
      await page.getByTestId('sign-in-glimpse').waitFor();
      expect(await page.getByTestId('sign-in-panel').textContent()).toContain('Ada Lovelace');
      await page.waitForTimeout(400);
      await saveScreenshot(page, `sharing-guest-post-${language}-360`);
      if (language === 'en') {
        await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
        await page.getByTestId('sign-in-panel').waitFor({ state: 'detached' });
        await page.waitForTimeout(300);
        await saveScreenshot(page, `sharing-guest-post-closed-${language}-360`);
      }
    } finally {
      await s.close();
    }
  });
});

describe('sharing a result that is not published', () => {
  it('copies a lasting share page link, a guest sees the picture, the owner stops sharing and the link says so', async () => {
    const generationUuid = await completedResult(ada, 'a quiet harbour at noon');
    const owner = await openBrowser('phone', { size: PHONE_360, locale: 'ru' });
    const guest = await openBrowser('phone', { size: PHONE_360, locale: 'ru' });
    try {
      // What Share hands over is recorded (no system share sheet in a headless browser).
      await owner.context.addInitScript(() => {
        Object.defineProperty(navigator, 'share', { value: undefined });
        Object.defineProperty(navigator, 'clipboard', {
          value: {
            writeText: async (text: string) => {
              (window as unknown as { copied: string }).copied = text;
            },
          },
        });
      });
      await signInWithTokens(owner.page, ada);
      await owner.page.goto(url(`/generation/${generationUuid}/`));
      await owner.page.getByTestId('result-share').click();
      await owner.page.getByTestId('result-share-note').waitFor();
      const link = await owner.page.evaluate(() => (window as unknown as { copied: string }).copied);
      expect(link).toMatch(/\/s\/[A-Za-z0-9_-]{22,}\/$/);
      expect(link).not.toContain('/api/media/');
      await saveScreenshot(owner.page, 'sharing-result-note-ru-360');

      const preview = await readAsBot(new URL(link).pathname, 'ru');
      expect(preview.status).toBe(200);
      expect(preview.tags['og:title']).toBe(BYLINE.ru);
      expect(preview.html).not.toContain('a quiet harbour');
      expect((await fetchAsBot(preview.tags['og:image']!)).type).toBe('image/jpeg');

      await guest.page.goto(link);
      await guest.page.getByTestId('shared-image').waitFor();
      // The picture itself arrives (its signed address is made fresh for each visit).
      await guest.page.waitForFunction(
        () => (document.querySelector('[data-testid="shared-image"]') as HTMLImageElement).naturalWidth > 0,
      );
      expect(await guest.page.getByTestId('shared-author').textContent()).toContain('Ada Lovelace');
      await saveScreenshot(guest.page, 'sharing-share-page-ru-360');

      await owner.page.getByTestId('result-share-stop').click();
      await owner.page.getByTestId('result-share-note').waitFor({ state: 'detached' });

      await guest.page.reload();
      await guest.page.getByTestId('share-revoked').waitFor();
      await saveScreenshot(guest.page, 'sharing-share-revoked-ru-360');
      const gone = await readAsBot(new URL(link).pathname, 'ru');
      expect(gone.status).toBe(410);
      expect(gone.tags['og:title']).toBe('Больше не доступно по ссылке');
      expect(gone.tags['og:image']).toBeUndefined();
    } finally {
      await owner.close();
      await guest.close();
    }
  });
});
