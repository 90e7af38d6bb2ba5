import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createActiveUser, callApi } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiGenerate, apiWaitForGeneration } from '../lib/generations.js';

/** Holds the app's main chunk back until the returned function is called. */
async function holdTheApp(s: Session): Promise<() => Promise<void>> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const mainChunk = /\/assets\/index-[^/]+\.js$/;
  await s.context.route(mainChunk, async (route) => {
    await held;
    await route.continue();
  });
  return async () => {
    release();
    await s.context.unroute(mainChunk);
  };
}

const appHasRun = (s: Session) =>
  s.page.evaluate(() => document.documentElement.classList.contains('is-ready'));

/**
 * Lets the held app run, and says whether `shown` (found again afterwards) is still the element that
 * was on screen before it: the app's first render reused it, so nothing was painted twice.
 */
async function appKeeps(s: Session, release: () => Promise<void>, shown: Locator): Promise<boolean> {
  await shown.evaluate((element) => ((element as unknown as { painted: boolean }).painted = true));
  await release();
  await expect.poll(() => appHasRun(s)).toBe(true);
  return shown.evaluate((element) => (element as unknown as { painted?: boolean }).painted === true);
}

describe('prerendered landing pages (phone, 360 px)', () => {
  it('paint the first screen in the visitor’s language before the app runs, and the app keeps it', async () => {
    const s = await openBrowser('phone', { locale: 'ru-RU', size: { width: 360, height: 740 } });
    try {
      const { page } = s;
      const release = await holdTheApp(s);
      await page.goto(url('/'), { waitUntil: 'commit' });
      const title = page.locator('h1.hero__title');
      await expect.poll(() => title.textContent()).toBe('Ваши фото: правки, стили и анимация');
      expect(await appHasRun(s)).toBe(false);
      // Styled already (the page's own stylesheets are in the head), and not wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
      expect(await page.locator('.hero').evaluate((hero) => getComputedStyle(hero).borderRadius)).toBe(
        '28px',
      );
      await saveScreenshot(page, 'prerendered-home-ru-before-the-app');
      expect(await appKeeps(s, release, title)).toBe(true);
      // And the page is the app's: its links navigate inside it.
      await page.locator('.hero__actions a[href="/create/"]').click();
      await page.getByTestId('create-page').waitFor();
      expect(await page.locator('h1.page-heading__title').textContent()).toBe('Создать');
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('give way to the loading mark for a visitor who chose another language, then the app in it', async () => {
    const s = await openBrowser('phone', { locale: 'ru-RU', size: { width: 360, height: 740 } });
    try {
      const { page, context } = s;
      await context.addInitScript(() => localStorage.setItem('django_language', 'de'));
      const release = await holdTheApp(s);
      await page.goto(url('/create/'), { waitUntil: 'commit' });
      await page.locator('#root .boot__mark').waitFor();
      expect(await page.locator('#root').textContent()).toBe('');
      await release();
      await expect.poll(() => page.locator('h1.page-heading__title').textContent()).toBe('Erstellen');
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('the feed arrives with its first pictures in the HTML; the app shows the same without asking again', async () => {
    const author = await createActiveUser({ firstName: 'Feed', lastName: 'Author' });
    const made = await apiGenerate(author, { mode: 'simple', prompt: 'A kite over the sea', seed: 3 });
    await apiWaitForGeneration(author, made.uuid);
    const published = await callApi('/api/posts/', {
      body: { generation_uuid: made.uuid, title: 'A kite over the sea' },
      authorization: `Bearer ${author.access}`,
    });
    expect(published.status).toBe(201);
    // The server keeps a rendered feed for half a minute: wait for one that has pictures.
    await expect
      .poll(async () => (await fetch(url('/posts/top/'), { headers: { 'accept-language': 'de' } })).text(), {
        timeout: 45_000,
        interval: 2_000,
      })
      .toContain('post-card__img');

    const s = await openBrowser('phone', { locale: 'de-DE', size: { width: 360, height: 740 } });
    try {
      const { page } = s;
      const feedRequests: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/posts/') feedRequests.push(request.url());
      });
      const release = await holdTheApp(s);
      await page.goto(url('/posts/top/'), { waitUntil: 'commit' });
      await expect.poll(() => page.locator('h1.page-heading__title').textContent()).toBe('Entdecken');
      const picture = page.locator('img.post-card__img').first();
      await expect
        .poll(() =>
          picture.evaluate(
            (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth,
          ),
        )
        .toBeGreaterThan(0);
      expect(await appHasRun(s)).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
      await saveScreenshot(page, 'server-rendered-feed-de-before-the-app');
      expect(await appKeeps(s, release, picture)).toBe(true);
      // The list's first page came with the HTML: the app asked for none.
      expect(feedRequests).toEqual([]);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
