import { describe, it } from 'vitest';
import { createActiveUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url } from '../lib/browser.js';
import { signInWithTokens } from '../lib/session.js';
import { grantStaff } from '../lib/staff.js';

// TEMPORARY: screenshots for a review (not to be committed).
const NARROW = { width: 360, height: 780 };
describe('modes screens', () => {
  it('shots', { timeout: 600_000 }, async () => {
    const user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
    await grantStaff(user, 'admin');
    for (const [lang, theme] of [
      ['ru', 'dark'],
      ['de', 'light'],
    ] as const) {
      const tag = `${lang}-${theme}-360`;
      const s = await openBrowser('phone', { size: NARROW, theme, locale: lang });
      try {
        const { page } = s;
        await signInWithTokens(page, user);
        await page.goto(url('/create/'));
        await page.waitForTimeout(1200);
        await saveScreenshot(page, `modes-create-${tag}`, true);
        await page.goto(url('/generate/video/'));
        await page.getByTestId('no-photo-hint').waitFor();
        await page.getByTestId('generate-submit').click().catch(() => undefined);
        await page.waitForTimeout(800);
        await saveScreenshot(page, `modes-video-${tag}`, true);
        await page.goto(url('/generate/styling/'));
        await page.waitForTimeout(1000);
        await saveScreenshot(page, `modes-styling-${tag}`, true);
        await page.goto(url('/admin/pricing/'));
        await page.getByTestId('admin-pricing').waitFor();
        await page.waitForTimeout(600);
        await saveScreenshot(page, `modes-admin-pricing-${tag}`, false);
        console.log('errors', tag, s.errors);
      } finally {
        await s.close().catch(() => undefined);
      }
    }
  });
});
