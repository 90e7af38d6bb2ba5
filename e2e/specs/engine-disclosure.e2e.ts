import { afterEach, describe, expect, it } from 'vitest';
import { createActiveUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { signInWithTokens } from '../lib/session.js';

/**
 * Before anyone pays, the app says which engine will make the result and what it can do. The
 * e2e server runs the offline engine only: every form says "offline, without AI" above the
 * price, Home promises no AI, and the features sheet says the same.
 */
const PHONE_360 = { width: 360, height: 780 };

const OFFLINE: Record<string, RegExp> = {
  en: /Made offline, without AI\./,
  ru: /Делается офлайн, без ИИ\./,
};

describe('which engine makes it, said before the price (360 px)', () => {
  let s: Session;
  afterEach(async () => {
    await s?.close();
  });

  for (const [language, offline] of Object.entries(OFFLINE)) {
    it(`${language}: every create form names the offline engine above the price; Home claims no AI`, async () => {
      s = await openBrowser('phone', { size: PHONE_360, locale: language });
      const { page } = s;
      const user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
      await signInWithTokens(page, user);
      // Face swap opens for a person with a digital model only (others go to /upload/); its form is
      // the same component.
      for (const mode of ['simple', 'editing', 'styling', 'video']) {
        await page.goto(url(`/generate/${mode}/`));
        const line = page.getByTestId('engine-line');
        await line.waitFor({ timeout: 15_000 }).catch(async (error: unknown) => {
          await saveScreenshot(page, `engine-line-missing-${mode}-${language}-360`, true);
          throw error;
        });
        expect(await line.getAttribute('data-ai'), mode).toBe('false');
        expect(await line.textContent(), mode).toMatch(offline);
        // Above the price: it is read before the cost, not found after paying.
        const price = page.getByTestId('price-line');
        await price.waitFor();
        const [lineBox, priceBox] = [await line.boundingBox(), await price.boundingBox()];
        expect(lineBox!.y + lineBox!.height, mode).toBeLessThanOrEqual(priceBox!.y);
        // Inside the 360 px page.
        expect(lineBox!.x).toBeGreaterThanOrEqual(0);
        expect(lineBox!.x + lineBox!.width).toBeLessThanOrEqual(PHONE_360.width);
        if (mode === 'editing') {
          await line.scrollIntoViewIfNeeded();
          await saveScreenshot(page, `engine-line-editing-${language}-360`);
        }
      }
      await page.goto(url('/'));
      const title = page.getByTestId('home-title');
      await page.getByTestId('home-offline-note').waitFor();
      expect(await title.textContent()).not.toMatch(/\bAI\b|ИИ/);
      await saveScreenshot(page, `home-offline-${language}-360`);

      await page.goto(url('/settings/'));
      await page.getByText(language === 'ru' ? 'Возможности сервиса' : 'Service features').click();
      await page.getByTestId('features-offline-note').waitFor();
      await saveScreenshot(page, `features-offline-${language}-360`);
    });
  }
});
