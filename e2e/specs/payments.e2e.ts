import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiBalance, apiGenerate, apiUpload, makeTestPhoto } from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';

const SEED = 2;
const NARROW = { width: 360, height: 780 };

/** Spends a new account's credits down to 1 and asks for a styling (3): the credit balance dialog. */
async function runOutOfCredits(page: Page, user: TestUser) {
  const photo = await apiUpload(user, await makeTestPhoto());
  await apiGenerate(user, { mode: 'styling', style: 'pencil', images: [photo.uuid], seed: SEED });
  await signInWithTokens(page, user);
  await page.goto(url('/generate/styling/'));
  await page.getByTestId('photo-input').setInputFiles({
    name: 'photo.jpg',
    mimeType: 'image/jpeg',
    buffer: await makeTestPhoto(),
  });
  await page.getByTestId('photo-preview').waitFor();
  await page.getByTestId('style-oil').click();
  await page.getByTestId('prompt').fill('Soft evening light');
  await page.getByTestId('generate-submit').click();
  await page.getByTestId('credits-dialog').waitFor();
  expect(await page.getByTestId('credits-balance').textContent()).toBe('1');
}

/** From the balance dialog to the test checkout page with a 100-credit pack ordered. */
async function orderPack(page: Page) {
  await page.getByTestId('credits-buy-more').click();
  const sheet = page.getByTestId('purchase-sheet');
  await sheet.waitFor();
  await page.getByTestId('purchase-product-credits_100').click();
  await page.getByTestId('purchase-submit').click();
  expect(await page.getByTestId('purchase-error').textContent()).toBe(
    'Please check the boxes to agree with the offer.',
  );
  await page.getByTestId('purchase-agree-offer').check();
  await page.getByTestId('purchase-agree-privacy').check();
  expect(await page.getByTestId('purchase-submit').textContent()).toContain('$2.99');
  await page.getByTestId('purchase-submit').click();
  await page.waitForURL(/\/api\/payments\/test\/checkout\/[0-9a-f-]{36}\/\?token=[0-9a-f]{32}$/);
  expect(await page.getByTestId('test-payment-banner').textContent()).toBe('Test payment — no money moves');
  expect(await page.getByTestId('checkout-amount').textContent()).toBe('$2.99');
}

describe('payments', () => {
  let s: Session;
  let user: TestUser;
  beforeEach(async () => {
    user = await createActiveUser();
  });
  afterEach(async () => {
    await s.close();
  });

  it('out of credits: buy more, tick the boxes, pay on the test checkout, back with the new balance', async () => {
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    await runOutOfCredits(page, user);
    await orderPack(page);
    await page.locator('button[data-action="pay"]').click();
    await page.waitForURL(
      (u) =>
        u.pathname === '/generate/styling/' && /^[0-9a-f-]{36}$/.test(u.searchParams.get('payment') ?? ''),
    );
    const result = page.getByTestId('payment-result');
    await result.waitFor();
    expect(await result.getAttribute('data-status')).toBe('paid');
    await expect.poll(() => page.getByTestId('payment-result-balance').textContent()).toBe('101');
    expect(await apiBalance(user)).toBe(101);
    await page.waitForTimeout(350);
    await saveScreenshot(page, 'payment-paid-phone-360-dark');
    expect(s.errors).toEqual([]);
  });

  it('a declined payment brings the buyer back with nothing charged and nothing granted', async () => {
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    await runOutOfCredits(page, user);
    await orderPack(page);
    await page.locator('button[data-action="decline"]').click();
    await page.waitForURL((u) => u.pathname === '/generate/styling/' && u.searchParams.has('payment'));
    const result = page.getByTestId('payment-result');
    await result.waitFor();
    expect(await result.getAttribute('data-status')).toBe('failed');
    expect(await page.getByTestId('payment-result-text').textContent()).toBe(
      'The payment did not go through. Nothing was charged; you can try again.',
    );
    expect(await apiBalance(user)).toBe(1);
  });

  for (const [language, theme] of [
    ['ru', 'dark'],
    ['ru', 'light'],
    ['de', 'dark'],
    ['de', 'light'],
  ] as const) {
    it(`the purchase sheet at 360 px in ${language}, ${theme} theme`, async () => {
      // Russian prices are in roubles: the region is chosen as a person would in the sheet.
      const region = await callApi('/api/payments/region/', {
        method: 'PUT',
        body: { region: language === 'ru' ? 'ru' : 'intl' },
        authorization: `Bearer ${user.access}`,
      });
      expect(region.status).toBe(200);
      s = await openBrowser('phone', { size: NARROW, theme, colorScheme: theme, locale: language });
      const { page } = s;
      await runOutOfCredits(page, user);
      await page.getByTestId('credits-buy-more').click();
      await page.getByTestId('purchase-sheet').waitFor();
      const price = await page
        .getByTestId('purchase-product-credits_100')
        .getByTestId('purchase-price')
        .textContent();
      expect(price).toMatch(language === 'ru' ? /^199\s₽$/ : /^2,99\s\$$/);
      await page.getByTestId('purchase-submit').click();
      await page.getByTestId('purchase-error').waitFor();
      // Nothing of the sheet sticks out sideways at 360 px.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        NARROW.width,
      );
      await page.waitForTimeout(350);
      await saveScreenshot(page, `purchase-sheet-360-${language}-${theme}`);
    });
  }
});
