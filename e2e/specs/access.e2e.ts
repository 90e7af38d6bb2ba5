import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActiveUser, PASSWORD } from '../lib/accounts.js';
import { openBrowser, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { signInWithTokens } from '../lib/session.js';

describe.each(VIEWPORT_NAMES)('access rules (%s)', (viewport) => {
  let s: Session;
  beforeEach(async () => {
    s = await openBrowser(viewport);
  });
  afterEach(async () => {
    await s.close();
  });

  it('a guest opening a login-required page gets the sign-in popup and stays there', async () => {
    const { page } = s;
    await page.goto(url('/profile/'));
    await page.getByTestId('sign-in-panel').waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile/');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('sign-in-panel').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/profile/');
    await page.getByTestId('sign-in-required').waitFor();
  });

  it('a guest following a link to a login-required page: the navigation is cancelled, the popup opens, signing in continues there', async () => {
    const { page } = s;
    const user = await createActiveUser({ firstName: 'Grace', lastName: 'Hopper' });
    await page.goto(url('/'));
    await page.getByTestId('home-page').waitFor();
    await page.locator('a[href="/settings/subscription/"]').click();
    await page.getByTestId('sign-in-panel').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByTestId('home-page').waitFor();
    const panel = page.getByTestId('sign-in-panel');
    await panel.getByLabel('Email').fill(user.email);
    await panel.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(url('/settings/subscription/'));
    await page.getByTestId('subscription-page').waitFor();
  });

  it('a signed-in user opening /sign-in/, /sign-up/ or /lost-pass/ lands on /', async () => {
    const { page } = s;
    const user = await createActiveUser();
    await signInWithTokens(page, user);
    for (const path of ['/sign-in/', '/sign-up/', '/lost-pass/']) {
      await page.goto(url(path));
      await page.waitForURL(url('/'));
      await page.getByTestId('home-page').waitFor();
    }
  });

  it('soft pages open for guests at once', async () => {
    const { page } = s;
    for (const [path, testId] of [
      ['/create/', 'create-page'],
      ['/posts/top/', 'feed-page'],
      ['/generate/simple/', 'generate-page'],
      ['/welcome/', 'welcome-page'],
    ]) {
      await page.goto(url(path!));
      await page.getByTestId(testId!).waitFor();
      expect(await page.getByTestId('sign-in-panel').count()).toBe(0);
    }
    await page.goto(url('/posts/'));
    await page.waitForURL(url('/posts/top/'));
  });
});
