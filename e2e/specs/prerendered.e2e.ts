import { describe, expect, it } from 'vitest';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';

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

describe('prerendered landing pages (phone, 360 px)', () => {
  it('paint the first screen in the visitor’s language before the app runs, and the app keeps it', async () => {
    const s = await openBrowser('phone', { locale: 'ru-RU', size: { width: 360, height: 740 } });
    try {
      const { page } = s;
      const release = await holdTheApp(s);
      await page.goto(url('/'), { waitUntil: 'commit' });
      const title = page.locator('h1.hero__title');
      await expect.poll(() => title.textContent()).toBe('Ваши фото, созданные ИИ');
      expect(await appHasRun(s)).toBe(false);
      // Styled already (the page's own stylesheets are in the head), and not wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
      expect(await page.locator('.hero').evaluate((hero) => getComputedStyle(hero).borderRadius)).toBe(
        '28px',
      );
      await saveScreenshot(page, 'prerendered-home-ru-before-the-app');
      await title.evaluate((element) => ((element as unknown as { painted: boolean }).painted = true));

      await release();
      await expect.poll(() => appHasRun(s)).toBe(true);
      // The app's first render reused the element on screen: nothing was painted twice.
      expect(
        await page
          .locator('h1.hero__title')
          .evaluate((element) => (element as unknown as { painted?: boolean }).painted),
      ).toBe(true);
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
});
