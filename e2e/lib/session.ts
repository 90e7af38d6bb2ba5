import type { Page } from 'playwright-core';
import type { TestUser } from './accounts.js';
import { url } from './browser.js';

/** Starts the page signed in as `user`, the way the app keeps a session (local keys). */
export async function signInWithTokens(
  page: Page,
  user: Pick<TestUser, 'refresh' | 'access'>,
): Promise<void> {
  await page.goto(url('/welcome/'));
  await page.evaluate(
    ({ refresh, access }) => {
      localStorage.setItem('refresh', refresh);
      localStorage.setItem('access', access);
    },
    { refresh: user.refresh, access: user.access },
  );
}

export async function storedTokens(page: Page) {
  return page.evaluate(() => ({
    refresh: localStorage.getItem('refresh'),
    access: localStorage.getItem('access'),
    language: localStorage.getItem('django_language'),
    tgData: localStorage.getItem('tgData'),
  }));
}
