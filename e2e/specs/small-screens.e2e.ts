import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url } from '../lib/browser.js';

/**
 * What only a real browser at 360 px shows: the profile's centred tab row keeps its first tab in
 * reach, the top bar title is never cut, and Kazakh and Azerbaijani dates are worded even though
 * Debian's Chromium ships no date data for them.
 */
const PHONE_360 = { width: 360, height: 780 };

let member: TestUser;
beforeAll(async () => {
  member = await createActiveUser({ firstName: 'Konstantin', lastName: 'Konstantinopolsky' });
});

async function signedIn(language: string, theme: 'light' | 'dark' = 'dark') {
  const s = await openBrowser('phone', { size: PHONE_360, locale: language, theme, colorScheme: theme });
  await s.page.goto(url('/welcome/'));
  await s.page.evaluate(
    ({ language, refresh, access }) => {
      localStorage.setItem('django_language', language);
      localStorage.setItem('refresh', refresh);
      localStorage.setItem('access', access);
    },
    { language, refresh: member.refresh, access: member.access },
  );
  return s;
}

const settled = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

describe('small screens (360 px)', () => {
  it.each(['kk', 'ru'])(
    'the profile tabs start in view and every tab can be scrolled to (%s)',
    async (language) => {
      const s = await signedIn(language);
      try {
        const { page } = s;
        await page.goto(url('/profile/'));
        const row = page.getByRole('tablist');
        await row.waitFor();
        await settled(page);
        const edges = () =>
          row.evaluate((element) => {
            const box = element.getBoundingClientRect();
            const tabs = Array.from(element.children).map((tab) => tab.getBoundingClientRect());
            return {
              rowLeft: box.left,
              rowRight: box.right,
              firstLeft: tabs[0]!.left,
              lastRight: tabs.at(-1)!.right,
              overflows: element.scrollWidth > element.clientWidth,
            };
          });
        const start = await edges();
        expect(start.firstLeft).toBeGreaterThanOrEqual(start.rowLeft - 0.5);
        await row.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
        await settled(page);
        const end = await edges();
        expect(end.lastRight).toBeLessThanOrEqual(end.rowRight + 0.5);
        await saveScreenshot(page, `small-screens-profile-tabs-${language}`);
      } finally {
        await s.close();
      }
    },
  );

  it.each(['ru', 'de'])('the top bar title is shown whole, never cut with "…" (%s)', async (language) => {
    const s = await signedIn(language);
    try {
      const { page } = s;
      for (const pathname of ['/profile-edit/', '/notifications', '/settings/notifications/']) {
        await page.goto(url(pathname));
        const title = page.getByTestId('header-title');
        await title.waitFor();
        await page.getByTestId('header-profile').waitFor();
        await settled(page);
        const measured = await title.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const end = document.querySelector('.app-header__end')!.getBoundingClientRect();
          const start = document.querySelector('.app-header__start')!.getBoundingClientRect();
          return {
            text: element.textContent,
            cut:
              element.scrollWidth > element.clientWidth + 1 ||
              element.scrollHeight > element.clientHeight + 1,
            clearOfButtons: box.left >= start.right - 0.5 && box.right <= end.left + 0.5,
          };
        });
        expect(measured, `${pathname}: ${measured.text}`).toMatchObject({ cut: false, clearOfButtons: true });
      }
    } finally {
      await s.close();
    }
  });

  it.each([
    ['kk', /^тіркелген күні: \d{4}\u00a0ж\. \d{1,2} [а-яәіңғүұқөһ]+$/],
    ['az', /^\d{1,2} [a-zəıöüçşğ]+ \d{4} tarixindən$/],
  ] as const)('dates are worded with the month name in Chromium (%s)', async (language, worded) => {
    const s = await signedIn(language);
    try {
      const { page } = s;
      await page.goto(url('/profile/'));
      const meta = page.locator('.profile-card__meta');
      await meta.waitFor();
      const text = ((await meta.textContent()) ?? '').replace(/^@\S+ · /, '');
      expect(text).not.toMatch(/M\d/);
      expect(text).toMatch(worded);
    } finally {
      await s.close();
    }
  });

  it.each([
    ['ru', 'light'],
    ['ru', 'dark'],
    ['de', 'light'],
    ['de', 'dark'],
  ] as const)(
    'notification settings fit 360 px and a switch keeps its place after a reload (%s, %s)',
    async (language, theme) => {
      const s = await signedIn(language, theme);
      try {
        const { page } = s;
        await page.goto(url('/settings/notifications/'));
        const email = page.getByTestId('notification-channel-email');
        await email.waitFor();
        // An email account without Telegram: no bot channel to choose.
        expect(await page.getByTestId('notification-channel-telegram').count()).toBe(0);
        await settled(page);
        const overflow = await page.evaluate(() =>
          Array.from(document.querySelectorAll('.notification-pref, .settings-group, .lead, .muted-note'))
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map((element) => element.textContent),
        );
        expect(overflow).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        await saveScreenshot(page, `small-screens-notification-settings-${language}-${theme}`, true);
        const toggle = page.getByTestId('pref-generations-email');
        const before = await toggle.isChecked();
        const saved = page.waitForResponse(
          (response) =>
            response.url().includes('/api/notifications/preferences/') &&
            response.request().method() === 'PUT',
        );
        await toggle.click();
        expect((await saved).status()).toBe(200);
        await page.reload();
        await page.getByTestId('notification-channel-email').waitFor();
        expect(await page.getByTestId('pref-generations-email').isChecked()).toBe(!before);
      } finally {
        await s.close();
      }
    },
  );

  it('screens at 360 px in ru and de, light and dark, for a look', async () => {
    for (const language of ['ru', 'de']) {
      for (const theme of ['light', 'dark'] as const) {
        const s = await signedIn(language, theme);
        try {
          for (const pathname of ['/profile/', '/profile-edit/', '/notifications', '/wallet']) {
            await s.page.goto(url(pathname));
            await s.page.locator('[data-testid$="-page"]').first().waitFor();
            await s.page.waitForLoadState('networkidle');
            await saveScreenshot(
              s.page,
              `small-screens-${language}-${theme}${pathname.replace(/\W+/g, '-')}`,
            );
          }
        } finally {
          await s.close();
        }
      }
    }
  });
});
