import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiBalance, makeTestPhoto } from '../lib/generations.js';
import {
  askForStylingWithoutCredits,
  chooseRegion,
  openPurchaseSheet,
  runOutOfCredits,
  tickConsent,
} from '../lib/payments.js';
import { installTelegramHost, miniAppUrl, newTelegramUser, signInitData } from '../lib/telegram.js';

const SEED = 2;
const NARROW = { width: 360, height: 780 };

/** From the balance dialog to the test checkout page with a 100-credit pack ordered. */
async function orderPack(page: Page) {
  expect(await page.getByTestId('credits-balance').textContent()).toBe('1');
  await openPurchaseSheet(page);
  await page.getByTestId('purchase-product-credits_100').click();
  await page.getByTestId('purchase-method-test').click();
  await page.getByTestId('purchase-submit').click();
  expect(await page.getByTestId('purchase-error').textContent()).toBe(
    'Please check the boxes to agree with the offer.',
  );
  await tickConsent(page);
  expect(await page.getByTestId('purchase-submit').textContent()).toContain('$2.99');
  await page.getByTestId('purchase-submit').click();
  await page.waitForURL(/\/api\/payments\/test\/checkout\/[0-9a-f-]{36}\/\?token=[0-9a-f]{32}$/);
  expect(await page.getByTestId('test-payment-banner').textContent()).toBe('Test payment — no money moves');
  expect(await page.getByTestId('checkout-amount').textContent()).toBe('$2.99');
}

/** Back on the page the purchase started from, told the payment failed, with nothing granted. */
async function expectBackDeclined(page: Page, user: TestUser) {
  await page.waitForURL((u) => u.pathname === '/generate/styling/' && u.searchParams.has('payment'));
  const result = page.getByTestId('payment-result');
  await result.waitFor();
  expect(await result.getAttribute('data-status')).toBe('failed');
  expect(await page.getByTestId('payment-result-text').textContent()).toBe(
    'The payment did not go through. Nothing was charged; you can try again.',
  );
  expect(await apiBalance(user)).toBe(1);
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
    await expectBackDeclined(page, user);
  });

  for (const [language, theme] of [
    ['ru', 'dark'],
    ['ru', 'light'],
    ['de', 'dark'],
    ['de', 'light'],
  ] as const) {
    it(`the purchase sheet at 360 px in ${language}, ${theme} theme`, async () => {
      // Russian prices are in roubles.
      await chooseRegion(user, language === 'ru' ? 'ru' : 'intl');
      s = await openBrowser('phone', { size: NARROW, theme, colorScheme: theme, locale: language });
      const { page } = s;
      await runOutOfCredits(page, user);
      await openPurchaseSheet(page);
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

/**
 * From the balance dialog to a provider's own checkout page: the region chosen as a person would,
 * the way to pay, the boxes ticked, the price in the region's currency.
 */
async function checkoutWith(page: Page, method: string, region: 'ru' | 'intl', price: RegExp) {
  await openPurchaseSheet(page);
  if ((await page.getByTestId('purchase-region').getAttribute('data-region')) !== region) {
    await page.getByTestId('purchase-region-change').click();
    await page.getByTestId(`purchase-method-${method}`).waitFor();
  }
  await page.getByTestId('purchase-product-credits_100').click();
  await page.getByTestId(`purchase-method-${method}`).click();
  await tickConsent(page);
  expect(await page.getByTestId('purchase-submit').textContent()).toMatch(price);
  await page.getByTestId('purchase-submit').click();
  await page.getByTestId('provider-brand').waitFor();
}

/** 199 roubles as English writes it (₽199) or Russian (199 ₽). */
const RUB_199 = /₽\s?199|199\s?₽/;

/** Back on the page the purchase started from, with the result and the new balance. */
async function expectBackWithCredits(page: Page, user: TestUser) {
  await page.waitForURL(
    (u) => u.pathname === '/generate/styling/' && /^[0-9a-f-]{36}$/.test(u.searchParams.get('payment') ?? ''),
  );
  const result = page.getByTestId('payment-result');
  await result.waitFor();
  await expect.poll(() => result.getAttribute('data-status')).toBe('paid');
  await expect.poll(() => page.getByTestId('payment-result-balance').textContent()).toBe('101');
  expect(await apiBalance(user)).toBe(101);
}

describe('payment providers (each against its local fake)', () => {
  let s: Session;
  let user: TestUser;
  beforeEach(async () => {
    user = await createActiveUser();
  });
  afterEach(async () => {
    await s.close();
  });

  for (const [method, region, price, brand] of [
    ['yookassa_bank_card', 'ru', RUB_199, 'YooKassa'],
    ['yookassa_sbp', 'ru', RUB_199, 'YooKassa'],
    ['stripe', 'intl', /\$2\.99/, 'Stripe Checkout'],
    ['cryptomus', 'intl', /\$2\.99/, 'Cryptomus'],
  ] as const) {
    it(`${method}: choose, tick the boxes, pay on the provider's page, back in Mirra with the credits`, async () => {
      s = await openBrowser('phone', { size: NARROW });
      const { page } = s;
      await runOutOfCredits(page, user);
      await checkoutWith(page, method, region, price);
      expect(await page.getByTestId('provider-brand').textContent()).toBe(brand);
      if (method === 'stripe') await saveScreenshot(page, 'stripe-checkout-fake-360');
      await page.locator('button[data-action="pay"]').click();
      await expectBackWithCredits(page, user);
      expect(s.errors).toEqual([]);
    });
  }

  it('a card declined at YooKassa: back in Mirra told so, nothing granted', async () => {
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    await runOutOfCredits(page, user);
    await checkoutWith(page, 'yookassa_bank_card', 'ru', RUB_199);
    await page.locator('button[data-action="decline"]').click();
    await expectBackDeclined(page, user);
  });

  it('SberPay returns to /sberpay/<invoice>/, which follows the invoice live until paid, then back with the credits', async () => {
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    await runOutOfCredits(page, user);
    await checkoutWith(page, 'yookassa_sberbank', 'ru', RUB_199);
    // The invoice page, open in another tab while SberPay waits for the payment.
    const invoiceUrl = new URL((await page.getByTestId('provider-back').getAttribute('href'))!);
    const invoicePath = invoiceUrl.pathname;
    expect(invoicePath).toMatch(/^\/sberpay\/[0-9a-f-]{36}\/$/);
    const watcher = await page.context().newPage();
    await watcher.goto(url(`${invoicePath}${invoiceUrl.search}`));
    const invoice = watcher.getByTestId('sberpay-invoice');
    await invoice.waitFor();
    expect(await invoice.getAttribute('data-status')).toBe('pending');
    expect(await watcher.getByTestId('sberpay-amount').textContent()).toMatch(RUB_199);
    await saveScreenshot(watcher, 'sberpay-pending-360');

    await page.locator('button[data-action="pay"]').click();
    // The buyer lands on the invoice page; the other tab sees it paid without reloading.
    await page.waitForURL((u) => u.pathname === invoicePath);
    await expect.poll(() => invoice.getAttribute('data-status'), { timeout: 10_000 }).toBe('paid');
    await expect.poll(() => page.getByTestId('sberpay-invoice').getAttribute('data-status')).toBe('paid');
    await saveScreenshot(page, 'sberpay-paid-360');
    await page.getByTestId('sberpay-continue').click();
    await expectBackWithCredits(page, user);
    await watcher.close();

    // An invoice that does not exist says so.
    await page.goto(url('/sberpay/00000000-0000-4000-8000-000000000000/'));
    await page.getByText('Invoice not found').waitFor();
  });

  it('Telegram Stars inside the Mini App: priced in Stars, paid in Telegram’s sheet, back with the credits', async () => {
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    const tgUser = newTelegramUser({ first_name: 'Stella' });
    await installTelegramHost(page, { payer: tgUser });
    const initData = signInitData(tgUser);
    const authorization = `TG ${initData}`;
    // Spend the welcome credits down to 1 from the API, as the Mini App would.
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await makeTestPhoto())], { type: 'image/jpeg' }),
      'photo.jpg',
    );
    const uploaded = await fetch(url('/api/uploads/'), {
      method: 'POST',
      headers: { authorization },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const photo = (await uploaded.json()) as { uuid: string };
    const spent = await callApi('/api/generations/', {
      body: { mode: 'styling', style: 'pencil', images: [photo.uuid], seed: SEED },
      authorization,
    });
    expect(spent.status).toBe(201);

    await page.goto(miniAppUrl('/generate/styling/', { initData, version: '8.0' }));
    await askForStylingWithoutCredits(page);
    await openPurchaseSheet(page);
    await page.getByTestId('purchase-method-stars').click();
    expect(
      await page.getByTestId('purchase-product-credits_100').getByTestId('purchase-price').textContent(),
    ).toBe('150 Stars');
    await page.getByTestId('purchase-product-credits_100').click();
    await tickConsent(page);
    await saveScreenshot(page, 'stars-purchase-sheet-360');
    await page.getByTestId('purchase-submit').click();
    const result = page.getByTestId('payment-result');
    await result.waitFor();
    await expect.poll(() => result.getAttribute('data-status')).toBe('paid');
    await expect.poll(() => page.getByTestId('payment-result-balance').textContent()).toBe('101');
    const balance = await callApi<{ balance: number }>('/api/credits/', { authorization });
    expect(balance.body.balance).toBe(101);
  });
});
