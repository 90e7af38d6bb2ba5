import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { storedTokens } from '../lib/session.js';
import { botMessages, newTelegramUser, pressStart } from '../lib/telegram.js';

describe.each(VIEWPORT_NAMES)('messenger sign-in with the fake Telegram bot (%s)', (viewport) => {
  let s: Session;
  beforeEach(async () => {
    s = await openBrowser(viewport);
  });
  afterEach(async () => {
    await s.close();
  });

  it('opens the bot link in a new tab, waits for Start, stores the token, shows a new account the onboarding once and goes on', async () => {
    const { page, context } = s;
    await page.goto(url('/create/'));
    await page.getByTestId('header-sign-in').click();
    const tab = context.waitForEvent('page');
    await page.getByTestId('telegram-sign-in').click();
    const botTab = await tab;
    const link = await page.getByTestId('telegram-link').getAttribute('href');
    expect(link).toMatch(/^https:\/\/t\.me\/mirra_e2e_bot\?start=[\w-]+$/);
    await expect.poll(() => botTab.url()).toBe(link);
    await botTab.close();

    const user = newTelegramUser({ first_name: 'Nikolai', username: 'nikolai_tg' });
    await pressStart(new URL(link!).searchParams.get('start')!, user);
    // This Start made the account: the onboarding, then the page the sign-in started on.
    await page.waitForURL((u) => u.pathname === '/welcome/' && u.searchParams.get('next') === '/create/');
    await page.getByTestId('welcome-page').waitFor();
    await saveScreenshot(page, `welcome-after-telegram-${viewport}`);
    await page.getByTestId('welcome-skip').click();
    await page.waitForURL(url('/create/'));
    await page.getByTestId('header-profile').waitFor();
    await page.getByTestId('sign-in-panel').waitFor({ state: 'detached' });
    const tokens = await storedTokens(page);
    expect(tokens.refresh).toBeTruthy();
    const me = await callApi<{ firstName: string; telegram_linked: boolean; telegram_username: string }>(
      '/api/users/me/',
      {
        authorization: `Bearer ${tokens.access}`,
      },
    );
    expect(me.body).toMatchObject({
      firstName: 'Nikolai',
      telegram_linked: true,
      telegram_username: 'nikolai_tg',
    });
    await expect
      .poll(async () =>
        (await botMessages()).filter((m) => m.params.chat_id === user.id).map((m) => m.params.text),
      )
      .toEqual([expect.stringContaining('signed in')]);
  });

  it('stops polling when the popup closes', async () => {
    const { page, context } = s;
    await page.goto(url('/'));
    await page.getByTestId('header-sign-in').click();
    const tab = context.waitForEvent('page');
    await page.getByTestId('telegram-sign-in').click();
    await (await tab).close();
    await page.getByTestId('telegram-waiting').waitFor();
    const polls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/tg/get_token/')) polls.push(request.url());
    });
    await expect.poll(() => polls.length, { timeout: 5000 }).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('sign-in-panel').waitFor({ state: 'detached' });
    const seen = polls.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(polls.length).toBeLessThanOrEqual(seen + 1);
  });
});
