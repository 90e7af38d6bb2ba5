import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActiveUser } from '../lib/accounts.js';
import { openBrowser, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { storedTokens } from '../lib/session.js';

describe.each(VIEWPORT_NAMES)('general behaviour (%s)', (viewport) => {
  let s: Session;
  beforeEach(async () => {
    s = await openBrowser(viewport);
  });
  afterEach(async () => {
    await s.close();
  });

  it('remembers the scroll position of a page and restores it on back', async () => {
    const { page } = s;
    await page.goto(url('/'));
    await page.getByTestId('home-page').waitFor();
    const y = await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return window.scrollY;
    });
    expect(y).toBeGreaterThan(200);
    // A programmatic click, so nothing scrolls the link into view first.
    await page.evaluate(() =>
      (document.querySelector('[data-testid="mode-styling"]') as HTMLElement).click(),
    );
    await page.waitForURL(url('/generate/styling/'));
    await page.getByTestId('generate-page').waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.waitForURL(url('/'));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 5);
  });

  it('stores a token query parameter as the refresh token and removes it from the address', async () => {
    const { page } = s;
    const user = await createActiveUser({ firstName: 'Katherine', lastName: 'Johnson' });
    await page.goto(url(`/profile/?token=${encodeURIComponent(user.refresh)}&utm_source=email`));
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Katherine Johnson');
    const address = new URL(page.url());
    expect(address.pathname).toBe('/profile/');
    expect(address.searchParams.has('token')).toBe(false);
    expect(address.searchParams.get('utm_source')).toBe('email');
    // The link's token was used once for a fresh pair (refresh tokens rotate).
    const tokens = await storedTokens(page);
    expect(tokens.refresh).toBeTruthy();
    expect(tokens.access).toBeTruthy();
    const utm = (await s.context.cookies()).find((c) => c.name === 'utm_source');
    expect(utm?.value).toBe('email');
    expect(utm!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 86400_000);
    expect((await s.context.cookies()).some((c) => c.name === 'timezone')).toBe(true);
  });

  it('sets the page title on every navigation', async () => {
    const { page } = s;
    await page.goto(url('/'));
    await expect.poll(() => page.title()).toBe('Mirra · AI photos of you');
    await page.goto(url('/create/'));
    await expect.poll(() => page.title()).toBe('Create · Mirra');
    await page.goto(url('/posts/new/'));
    await expect.poll(() => page.title()).toBe('Explore · Mirra');
    await page.goto(url('/nothing-here/'));
    await expect.poll(() => page.title()).toBe('Not found · Mirra');
  });

  it('walks the four welcome slides with next and start', async () => {
    const { page } = s;
    await page.goto(url('/welcome/'));
    for (let step = 1; step <= 3; step += 1) {
      await page.getByText(`Step ${step} of 4`).waitFor();
      await page.getByTestId('welcome-next').click();
    }
    await page.getByText('Step 4 of 4').waitFor();
    await page.getByTestId('welcome-start').click();
    await page.waitForURL(url('/'));
  });

  it('a landing page’s code is asked for with the main chunk, from preload links the HTML adds', async () => {
    const { page, context } = s;
    const preloads = () =>
      page.evaluate(() =>
        Array.from(
          document.querySelectorAll('link[rel="modulepreload"], link[rel="preload"][as="style"]'),
        ).map((link) =>
          new URL((link as HTMLLinkElement).href).pathname.replace(/-[\w-]+\.(js|css)$/, '.$1'),
        ),
      );
    // The main chunk is held back: whatever is preloaded meanwhile was asked for by the HTML, not
    // by the app (which asks for the page's code only once it runs).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // The newest posts: a feed address the server does not render (its top tab it does).
    await page.goto(url('/posts/new/'), { waitUntil: 'commit' });
    await expect.poll(preloads).toEqual(expect.arrayContaining(['/assets/feed.js']));
    // The feed's stylesheet too (its chunk is named after whichever shared module Rollup picks:
    // the post cards' styles ship with the AI mark's since the cards wear it).
    expect(
      (await preloads()).filter((href) => href.endsWith('.css') && href !== '/assets/index.css'),
    ).not.toEqual([]);
    expect(await preloads()).not.toContain('/assets/home.js');
    expect(await page.getByTestId('feed-page').count()).toBe(0);
    release();
    await page.getByTestId('feed-page').waitFor();
    await context.unroute(/\/assets\/index-[^/]+\.js$/);

    // `/` arrives prerendered: the start script adds the links once the page has painted.
    await page.goto(url('/'));
    await page.waitForFunction(() => document.documentElement.classList.contains('is-ready'));
    const home = await preloads();
    expect(home).toEqual(expect.arrayContaining(['/assets/home.js', '/assets/home.css']));
    expect(home).not.toContain('/assets/feed.js');
    // The inline script runs under the page's Content-Security-Policy (by its hash): no violation.
    expect(s.errors).toEqual([]);
  });

  it('asks for the public configuration once per load, for the pages and error reporting alike', async () => {
    const { page } = s;
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/config/') asked.push(request.url());
    });
    await page.goto(url('/'));
    await page.waitForFunction(
      () => document.documentElement.classList.contains('is-ready') && document.readyState === 'complete',
    );
    // Error reporting reads the configuration once the page is idle: wait past that.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          window.requestIdleCallback(() => setTimeout(resolve, 1000), { timeout: 6000 }),
        ),
    );
    expect(asked).toHaveLength(1);
  });

  it('a page that fails to load dispatches preload-error and offers a reload', async () => {
    const { page, context } = s;
    await page.addInitScript(() => {
      (window as unknown as { __preloadErrors: number }).__preloadErrors = 0;
      window.addEventListener('preload-error', () => {
        (window as unknown as { __preloadErrors: number }).__preloadErrors += 1;
      });
    });
    await page.goto(url('/'));
    await page.getByTestId('home-page').waitFor();
    // The feed's chunk has not been loaded yet: make it fail, then go there in the app.
    await context.route(/\/assets\/feed-[^/]+\.js$/, (route) => route.abort());
    await page.getByRole('link', { name: 'Repeat a trend' }).click();
    await page.getByText('The page did not load').waitFor();
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { __preloadErrors: number }).__preloadErrors),
    ).toBeGreaterThan(0);
    s.errors.length = 0;
  });

  it('shows the loading overlay with its text while signing up', async () => {
    const { page, context } = s;
    await context.route('**/api/users/', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.goto(url('/sign-up/'));
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('Violet-Lantern-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('.loading-overlay').getByText('Loading…').waitFor();
    await page.getByText('Enter a valid email address.').waitFor();
    expect(await page.locator('.loading-overlay').count()).toBe(0);
  });
});
