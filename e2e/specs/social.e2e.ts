import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { e2eEnv } from '../lib/env.js';
import { apiBalance, apiGenerate, apiWaitForGeneration } from '../lib/generations.js';
import { startDedicatedServer, type DedicatedServer } from '../lib/server.js';
import { signInWithTokens } from '../lib/session.js';

/**
 * The royalty is 20% of the credits spent; whole credits are paid at once and fractions carried to
 * the author's next use, so a 5-credit remix pays its author one credit straight away. The shared
 * e2e server's prices are what the generation specs count on (an image costs 1), so this spec runs
 * its own server with its own prices.
 */
const SETTINGS = {
  WELCOME_CREDITS: '20',
  PRICE_SIMPLE: '5',
  FREE_DAILY_PHOTOS: '50',
  FREE_DELAY_SECONDS: '0',
};
const WELCOME = Number(SETTINGS.WELCOME_CREDITS);
const PRICE = Number(SETTINGS.PRICE_SIMPLE);
const ROYALTY = (PRICE * 20) / 100;
/** Pictures drawn by the local engine from a fixed seed: the same each run. */
const SEED = '2';
const RESULT = { timeout: 60_000 };
const postPath = /^\/post\/([0-9a-f-]{36})\/$/;
const resultPath = /^\/generation\/([0-9a-f-]{36})\/$/;

const bearer = (user: TestUser) => `Bearer ${user.access}`;
const cardOf = (page: Page, uuid: string) => page.locator(`[data-testid="post-card"][data-uuid="${uuid}"]`);
const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Shoots each screen in the dark and the light theme (test-results/screens/). */
async function shootBothThemes(
  page: Page,
  context: BrowserContext,
  viewport: string,
  screens: ReadonlyArray<readonly [name: string, path: string, testId: string]>,
) {
  for (const theme of ['dark', 'light'] as const) {
    await context.addCookies([{ name: 'theme', value: theme, url: e2eEnv.baseUrl }]);
    for (const [name, path, testId] of screens) {
      await page.goto(url(path));
      await page.getByTestId(testId).waitFor();
      // Lazy pictures in view and the sheet/fade animations settled.
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      await saveScreenshot(page, `${name}-${viewport}-${theme}`);
    }
  }
}

let server: DedicatedServer;
let restoreEnv: () => void;
beforeAll(async () => {
  server = await startDedicatedServer(SETTINGS);
  restoreEnv = server.use().restore;
}, 180_000);
afterAll(async () => {
  restoreEnv?.();
  await server?.stop();
}, 60_000);

describe.each(VIEWPORT_NAMES)('posts and people (%s)', (viewport) => {
  const theme = viewport === 'desktop' ? 'dark' : 'light';
  let a: Session;
  let b: Session;
  let ada: TestUser;
  let grace: TestUser;
  beforeEach(async () => {
    [ada, grace] = await Promise.all([
      createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' }),
      createActiveUser({ firstName: 'Grace', lastName: 'Hopper' }),
    ]);
    a = await openBrowser(viewport, { theme });
    b = await openBrowser(viewport, { theme });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  // Two people, three generations and a dozen screens: it took 97 s once on a busy machine.
  it(
    'publish → new → another person remixes → the author’s royalty and notification → subscribe → subscribed tab; search',
    { timeout: 180_000 },
    async () => {
      // Ada makes a picture and publishes it from the result screen.
      await signInWithTokens(a.page, ada);
      await a.page.goto(url('/generate/simple/'));
      const prompt = 'A lighthouse on a cliff at sunset';
      await a.page.getByTestId('prompt').fill(prompt);
      await a.page.getByTestId('advanced-toggle').click();
      await a.page.getByTestId('seed').fill(SEED);
      await expect.poll(() => a.page.getByTestId('price-cost').textContent()).toBe(`${PRICE} credits`);
      await a.page.getByTestId('generate-submit').click();
      await a.page.waitForURL((u) => resultPath.test(u.pathname));
      await a.page.getByTestId('result-image').waitFor(RESULT);
      await a.page.getByTestId('result-publish').click();
      const sheet = a.page.getByTestId('publish-sheet');
      await sheet.waitFor();
      expect(await a.page.getByTestId('publish-prompt').textContent()).toBe(prompt);
      await a.page.getByTestId('publish-title').fill('Lighthouse at dusk');
      await a.page.waitForTimeout(300);
      await saveScreenshot(a.page, `publish-sheet-${viewport}-${theme}`);
      await a.page.getByTestId('publish-submit').click();
      await a.page.waitForURL((u) => postPath.test(u.pathname));
      const postUuid = pathOf(a.page).match(postPath)![1]!;
      expect(await a.page.getByTestId('post-title').textContent()).toBe('Lighthouse at dusk');
      expect(await a.page.getByTestId('post-prompt').textContent()).toBe(prompt);
      // The author unpublishes, not reports; and the picture is the post's WebP renditions.
      expect(await a.page.getByTestId('post-report').count()).toBe(0);
      await a.page.getByTestId('post-unpublish').waitFor();
      const image = a.page.getByTestId('post-image');
      expect(await image.getAttribute('srcset')).toMatch(/\.webp\?[^,]* \d+w/);
      expect(Number(await image.getAttribute('width'))).toBeGreaterThan(0);

      // Back on the result screen, the result now leads to its post.
      await a.page.goBack();
      await a.page.getByTestId('result-view-post').waitFor();
      expect(await a.page.getByTestId('result-view-post').getAttribute('href')).toBe(`/post/${postUuid}/`);

      // It is first in the new tab.
      await a.page.goto(url('/posts/new/'));
      await a.page.getByTestId('post-card').first().waitFor();
      expect(await a.page.getByTestId('post-card').first().getAttribute('data-uuid')).toBe(postUuid);
      // My own card offers unpublish, not save.
      await cardOf(a.page, postUuid).getByTestId('post-card-unpublish').waitFor();

      // Grace finds it in the new tab and opens it; her view is counted once.
      await signInWithTokens(b.page, grace);
      await b.page.goto(url('/posts/new/'));
      await cardOf(b.page, postUuid).locator('.post-card__picture').click();
      await b.page.waitForURL(url(`/post/${postUuid}/`));
      expect(await b.page.getByTestId('post-author').locator('.post-view__author-name').textContent()).toBe(
        'Ada Lovelace',
      );
      await expect
        .poll(
          async () =>
            (
              await callApi<{ views_count: number }>(`/api/posts/${postUuid}/`, {
                authorization: bearer(ada),
              })
            ).body.views_count,
        )
        .toBe(1);

      // She saves it: the saved tab has it.
      await b.page.getByTestId('post-save').click();
      await expect.poll(() => b.page.getByTestId('post-save').getAttribute('aria-pressed')).toBe('true');

      // A report takes a reason.
      await b.page.getByTestId('post-report').click();
      await b.page.getByTestId('report-sheet').waitFor();
      await b.page.getByTestId('report-submit').click();
      await b.page.getByText('Choose a reason.').waitFor();
      await b.page.getByTestId('report-reason-spam').click();
      await b.page.getByTestId('report-submit').click();
      await b.page.getByText('Thank you, we will review it').waitFor();
      await b.page.getByTestId('report-sheet').waitFor({ state: 'detached' });

      // Face swap onto it needs a digital model: without one it leads to /upload/.
      await b.page.getByTestId('post-face-swap').click();
      await b.page.waitForURL(url('/upload/'));
      await b.page.goBack();
      await b.page.waitForURL(url(`/post/${postUuid}/`));

      // Remix: the form comes with the post's prompt and seed; she changes the prompt.
      await b.page.getByTestId('post-remix').click();
      await b.page.waitForURL(url(`/generate/simple/post/${postUuid}/`));
      await expect.poll(() => b.page.getByTestId('prompt').inputValue()).toBe(prompt);
      if ((await b.page.getByTestId('seed').count()) === 0)
        await b.page.getByTestId('advanced-toggle').click();
      expect(await b.page.getByTestId('seed').inputValue()).toBe(SEED);
      await b.page.getByTestId('prompt').fill('A lighthouse on a cliff under the northern lights');
      await b.page.getByTestId('generate-submit').click();
      await b.page.waitForURL((u) => resultPath.test(u.pathname));
      await b.page.getByTestId('result-image').waitFor(RESULT);
      const remix = pathOf(b.page).match(resultPath)![1]!;
      const { body: remixed } = await callApi<{ post_uuid: string | null; cost: number }>(
        `/api/generations/${remix}/`,
        { authorization: bearer(grace) },
      );
      expect(remixed).toMatchObject({ post_uuid: postUuid, cost: PRICE });

      // Ada: the bell counts the unread royalty (and her own finished picture); the list words it
      // and leads to the post.
      await expect.poll(() => apiBalance(ada)).toBe(WELCOME - PRICE + ROYALTY);
      await a.page.goto(url('/'));
      await expect.poll(() => a.page.getByTestId('unread-badge').textContent(), RESULT).toBe('2');
      await a.page.getByTestId('header-notifications').click();
      await a.page.waitForURL(url('/notifications'));
      const royalty = a.page.locator('[data-testid="notification"][data-kind="royalty"]');
      await royalty.waitFor();
      expect(await royalty.textContent()).toContain(
        `Grace Hopper made a picture from your publication: +${ROYALTY} credit`,
      );
      // Opening the list read it: the badge goes.
      await a.page.getByTestId('unread-badge').waitFor({ state: 'detached' });
      await royalty.click();
      await a.page.waitForURL(url(`/post/${postUuid}/`));
      await expect
        .poll(() => a.page.locator('[data-testid="post-count-remixes"] dd').textContent())
        .toBe('1');
      expect(await a.page.locator('[data-testid="post-count-saves"] dd').textContent()).toBe('1');

      // …and in the credit history on the profile.
      await a.page.goto(url('/profile/'));
      await a.page.getByTestId('profile-credits').click();
      const entries = a.page.getByTestId('credit-entry');
      await entries.first().waitFor();
      expect(await entries.first().textContent()).toMatch(
        new RegExp(`Royalty for your prompt.*\\+${ROYALTY}`),
      );
      await a.page.keyboard.press('Escape');
      await a.page.getByTestId('credit-history').waitFor({ state: 'detached' });

      // Grace subscribes to Ada from her profile (reached from the post).
      await b.page.goto(url(`/post/${postUuid}/`));
      await b.page.getByTestId('post-author').click();
      await b.page.waitForURL(url(`/profile/${ada.uuid}/`));
      const subscribe = b.page.getByTestId('profile-subscribe');
      expect(await subscribe.textContent()).toBe('Subscribe');
      expect(
        await b.page.locator('[data-testid="profile-count-subscribers"] .stat__value').textContent(),
      ).toBe('0');
      await subscribe.click();
      await expect.poll(() => subscribe.textContent()).toBe('Subscribed');
      expect(
        await b.page.locator('[data-testid="profile-count-subscribers"] .stat__value').textContent(),
      ).toBe('1');
      await b.page.reload();
      await expect.poll(() => b.page.getByTestId('profile-subscribe').textContent()).toBe('Subscribed');
      expect(await b.page.locator('[data-testid="profile-count-posts"] .stat__value').textContent()).toBe(
        '1',
      );
      await cardOf(b.page, postUuid).waitFor();

      // Ada's next post appears first in Grace's subscribed tab.
      const next = await apiGenerate(ada, { mode: 'simple', prompt: 'A red fox in a snowy forest', seed: 2 });
      expect((await apiWaitForGeneration(ada, next.uuid)).status).toBe(100);
      const published = await callApi<{ uuid: string }>('/api/posts/', {
        body: { generation_uuid: next.uuid, title: 'Fox' },
        authorization: bearer(ada),
      });
      expect(published.status).toBe(201);
      await b.page.goto(url('/posts/subscribed/'));
      await b.page.getByTestId('post-card').first().waitFor();
      expect(await b.page.getByTestId('post-card').first().getAttribute('data-uuid')).toBe(
        published.body.uuid,
      );
      await cardOf(b.page, postUuid).waitFor();
      await b.page.getByTestId('feed-tab-saved').click();
      await b.page.waitForURL(url('/posts/saved/'));
      await cardOf(b.page, postUuid).waitFor();

      // Ada unpublishes the fox from the feed: it moves to her drafts, where she publishes it again.
      await a.page.goto(url('/posts/new/'));
      await cardOf(a.page, published.body.uuid).getByTestId('post-card-unpublish').click();
      await cardOf(a.page, published.body.uuid).waitFor({ state: 'detached' });
      await a.page.getByTestId('header-profile').click();
      await a.page.waitForURL(url('/profile/'));
      await a.page.getByTestId('profile-tab-drafts').click();
      await cardOf(a.page, published.body.uuid).getByTestId('draft-publish').click();
      await cardOf(a.page, published.body.uuid).waitFor({ state: 'detached' });
      await a.page.getByTestId('profile-tab-posts').click();
      await cardOf(a.page, published.body.uuid).waitFor();
      // Grace's subscription reached Ada too.
      await expect
        .poll(() => a.page.locator('[data-testid="profile-count-subscribers"] .stat__value').textContent())
        .toBe('1');

      // Search from home: a word of the title finds the post; nonsense says no posts were found.
      await b.page.goto(url('/'));
      const search = b.page.getByRole('search').getByRole('searchbox');
      await search.fill('lighthouse');
      await search.press('Enter');
      await b.page.waitForURL(url('/posts/top/?q=lighthouse'));
      await cardOf(b.page, postUuid).waitFor();
      await b.page.goto(url('/'));
      await b.page.getByRole('search').getByRole('searchbox').fill('qwertyzebra');
      await b.page.getByRole('search').getByRole('searchbox').press('Enter');
      await b.page.waitForURL(url('/posts/top/?q=qwertyzebra'));
      await b.page.getByText('No posts found for the selected query').waitFor();

      // The new screens, in both themes.
      await shootBothThemes(a.page, a.context, viewport, [
        ['feed-new', '/posts/new/', 'feed-grid'],
        ['post', `/post/${postUuid}/`, 'post-view'],
        ['notifications-list', '/notifications', 'notifications-list'],
        ['profile-posts', '/profile/', 'profile-posts'],
      ]);
      await shootBothThemes(b.page, b.context, viewport, [
        ['user-profile', `/profile/${ada.uuid}/`, 'profile-posts'],
        ['feed-subscribed', '/posts/subscribed/', 'feed-grid'],
        ['feed-search-empty', '/posts/top/?q=qwertyzebra', 'feed-empty'],
      ]);
      expect(a.errors).toEqual([]);
      expect(b.errors).toEqual([]);
    },
  );

  it('a missing post says Not found; a guest on saved is asked to sign in', async () => {
    await signInWithTokens(a.page, ada);
    await a.page.goto(url('/post/00000000-0000-4000-8000-000000000000/'));
    await a.page.getByTestId('post-missing').getByText('Not found', { exact: true }).waitFor();
    await b.page.goto(url('/posts/saved/'));
    await b.page.getByText('Sign in to see what you saved').waitFor();
    await b.page.getByTestId('feed-page').getByRole('button', { name: 'Sign in' }).click();
    await b.page.getByTestId('sign-in-panel').waitFor();
  });
});
