import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiBalance, E2E_SETTINGS } from '../lib/generations.js';
import {
  askForStylingWithoutCredits,
  chooseRegion,
  openPurchaseSheet,
  payOnTestCheckout,
  spendCreditsToOne,
  tickConsent,
} from '../lib/payments.js';
import { signInWithTokens } from '../lib/session.js';

const NARROW = { width: 360, height: 780 };

const noSideways = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);

describe('premium and the wallet', () => {
  let s: Session;
  let user: TestUser;
  beforeEach(async () => {
    user = await createActiveUser();
  });
  afterEach(async () => {
    await s.close();
  });

  it('premium: tick the boxes, pay on the test checkout, back with premium and its credits; then cancel', async () => {
    await chooseRegion(user, 'ru');
    s = await openBrowser('phone', { size: NARROW, locale: 'ru' });
    const { page } = s;
    await signInWithTokens(page, user);
    await page.goto(url('/'));
    await page.getByTestId('home-premium-prompt').click();
    await page.waitForURL((u) => u.pathname === '/settings/subscription/');
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Нет подписки');
    await noSideways(page);
    // The test provider keeps a card without charging it: the trial starts with it.
    await page.getByTestId('method-test').click();
    expect(await page.getByTestId('subscription-offer').textContent()).toMatch(
      /^3 дня бесплатно и 50 кредитов, затем 990\s₽ каждые 30 дней$/,
    );
    await saveScreenshot(page, 'subscription-offer-360-ru-dark', true);
    await page.getByTestId('subscription-get-access').click();
    expect(await page.getByTestId('subscription-error').textContent()).toBe(
      'Пожалуйста, отметьте галочки, чтобы согласиться с офертой.',
    );
    await tickConsent(page);
    // The providers' fakes are configured too: this test pays on the test checkout.
    await page.getByTestId('method-test').click();
    await page.getByTestId('subscription-get-access').click();
    await page.waitForURL(/\/api\/payments\/test\/checkout\//);
    expect(await page.getByTestId('checkout-save-method').isVisible()).toBe(true);
    await payOnTestCheckout(page);
    await page.waitForURL(
      (u) =>
        u.pathname === '/settings/subscription/' &&
        /^[0-9a-f-]{36}$/.test(u.searchParams.get('payment') ?? ''),
    );
    const result = page.getByTestId('payment-result');
    await result.waitFor();
    expect(await result.getAttribute('data-status')).toBe('paid');
    // Its texts are the app's own, whichever page's catalogue is loaded (it read 'credits.balance').
    expect(await result.locator('.balance-card__label').textContent()).toBe('Баланс кредитов');
    await expect
      .poll(() => page.getByTestId('payment-result-balance').textContent())
      .toBe(String(E2E_SETTINGS.welcomeCredits + 50));
    await saveScreenshot(page, 'subscription-paid-360-ru-dark');
    await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('Пробный период');
    expect(await apiBalance(user)).toBe(E2E_SETTINGS.welcomeCredits + 50);
    expect(await page.getByTestId('subscription-next-charge').textContent()).toMatch(/\d{4}/);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    await saveScreenshot(page, 'subscription-trial-360-ru-dark');

    await page.getByTestId('subscription-cancel').click();
    await page.getByTestId('subscription-cancel-yes').click();
    await expect
      .poll(() => page.getByTestId('subscription-next-charge').textContent())
      .toBe('Продление отключено');
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Пробный период');
    expect(await page.getByTestId('subscription-get-access').isVisible()).toBe(true);
    // Premium people are not asked to get premium on Home.
    await page.goto(url('/'));
    await page.getByTestId('home-page').waitFor();
    // The prompt waits for the premium state, which shares the first moments with the header's requests.
    await expect.poll(() => page.getByTestId('home-premium-prompt').count(), { timeout: 10_000 }).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it('credits at any time: the Home header opens the balance dialog, buy a pack, back with the new balance', async () => {
    for (const [language, label] of [
      ['en', 'Credit balance'],
      ['ru', 'Баланс кредитов'],
    ] as const) {
      const person = await createActiveUser();
      s = await openBrowser('phone', { size: NARROW, locale: language });
      const { page } = s;
      await signInWithTokens(page, person);
      await page.goto(url('/'));
      const chip = page.getByTestId('header-credits');
      await expect.poll(() => chip.textContent()).toBe(String(E2E_SETTINGS.welcomeCredits));
      await noSideways(page);
      await saveScreenshot(page, `home-header-credits-360-${language}-dark`);
      await chip.click();
      const dialog = page.getByTestId('credits-dialog');
      await dialog.waitFor();
      expect(await dialog.getByTestId('credits-shortfall').count()).toBe(0);
      await saveScreenshot(page, `credits-dialog-any-time-360-${language}-dark`);
      await openPurchaseSheet(page);
      await page.getByTestId('purchase-product-credits_100').click();
      await page.getByTestId('purchase-method-test').click();
      await tickConsent(page);
      await page.getByTestId('purchase-submit').click();
      await payOnTestCheckout(page);
      await page.waitForURL((u) => u.pathname === '/' && u.searchParams.has('payment'));
      const result = page.getByTestId('payment-result');
      await result.waitFor();
      expect(await result.locator('.balance-card__label').textContent()).toBe(label);
      await expect
        .poll(() => page.getByTestId('payment-result-balance').textContent())
        .toBe(String(E2E_SETTINGS.welcomeCredits + 100));
      await page.keyboard.press('Escape');
      await expect.poll(() => chip.textContent()).toBe(String(E2E_SETTINGS.welcomeCredits + 100));
      expect(s.errors).toEqual([]);
      await s.close();
    }
    s = await openBrowser('phone', { size: NARROW });
  });

  it('wallet: top up on the test checkout, pay a credit pack from the balance, filter the transactions', async () => {
    await chooseRegion(user, 'ru');
    s = await openBrowser('phone', { size: NARROW, locale: 'en', theme: 'light', colorScheme: 'light' });
    const { page } = s;
    await signInWithTokens(page, user);
    await page.goto(url('/wallet'));
    await page.waitForURL((u) => u.pathname === '/wallet/transactions/643/');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('₽0');
    await page.getByText('No transactions').waitFor();

    await page.getByRole('link', { name: 'Top up' }).first().click();
    await page.getByTestId('wallet-pay-in').waitFor();
    await page.getByTestId('wallet-pay-in-amount').fill('500');
    await page.getByTestId('method-test').click();
    await tickConsent(page);
    await page.getByTestId('method-test').click();
    expect(await page.getByTestId('wallet-pay-in-submit').textContent()).toBe('Top up ₽500');
    await noSideways(page);
    await saveScreenshot(page, 'wallet-pay-in-360-en-light');
    await page.getByTestId('wallet-pay-in-submit').click();
    await payOnTestCheckout(page);
    await page.waitForURL((u) => u.pathname === '/wallet/transactions/643/' && u.searchParams.has('payment'));
    await page.getByTestId('payment-result').waitFor();
    // A top-up shows the wallet's money, not the credit balance.
    expect(await page.locator('[data-testid="payment-result"] .balance-card__label').textContent()).toBe(
      'Wallet balance',
    );
    await expect.poll(() => page.getByTestId('payment-result-balance').textContent()).toBe('₽500');
    await saveScreenshot(page, 'wallet-topup-paid-360-en-light');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('₽500');
    const topUp = page.getByTestId('wallet-entry').first();
    expect(await topUp.getAttribute('data-kind')).toBe('pay_in');
    expect(await topUp.getAttribute('data-status')).toBe('in');

    // Out of credits: buy a pack with the balance dialog's "buy more", paid from the wallet.
    await spendCreditsToOne(user);
    await page.goto(url('/generate/styling/'));
    await askForStylingWithoutCredits(page);
    await openPurchaseSheet(page);
    await page.getByTestId('purchase-product-credits_100').click();
    await expect.poll(() => page.getByTestId('purchase-wallet-available').textContent()).toBe('₽500');
    await page.getByTestId('purchase-method-balance').click();
    await tickConsent(page);
    await page.getByTestId('purchase-submit').click();
    await page.waitForURL((u) => u.pathname === '/generate/styling/' && u.searchParams.has('payment'));
    const result = page.getByTestId('payment-result');
    await result.waitFor();
    expect(await result.getAttribute('data-status')).toBe('paid');
    await expect.poll(() => page.getByTestId('payment-result-balance').textContent()).toBe('101');

    await page.goto(url('/wallet/transactions/643/'));
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('₽301');
    await page.getByTestId('wallet-filter-purchases').click();
    await expect.poll(() => page.getByTestId('wallet-entry').count()).toBe(2);
    expect(await page.getByTestId('wallet-entry-amount').first().textContent()).toBe('−₽199');
    await page.getByTestId('wallet-filter-frozen').click();
    await page.getByText('No transactions').waitFor();
    await page.getByTestId('wallet-filter-frozen').click();
    await page.getByTestId('wallet-currency-840').click();
    await page.waitForURL((u) => u.pathname === '/wallet/transactions/840/');
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('$0');
    await page.getByText('No transactions').waitFor();
    await page.getByTestId('wallet-currency-643').click();
    await expect.poll(() => page.getByTestId('wallet-entry').count()).toBe(2);
    await noSideways(page);
    await saveScreenshot(page, 'wallet-transactions-360-en-light');
    expect(s.errors).toEqual([]);
  });

  for (const [language, theme] of [
    ['de', 'light'],
    ['ru', 'dark'],
  ] as const) {
    it(`subscription and wallet screens at 360 px in ${language}, ${theme} theme`, async () => {
      await chooseRegion(user, language === 'ru' ? 'ru' : 'intl');
      s = await openBrowser('phone', { size: NARROW, theme, colorScheme: theme, locale: language });
      const { page } = s;
      await signInWithTokens(page, user);
      await page.goto(url('/settings/subscription/'));
      await page.getByTestId('subscription-checkout').waitFor();
      await page.getByTestId('subscription-get-access').click();
      await page.getByTestId('subscription-error').waitFor();
      await noSideways(page);
      await saveScreenshot(page, `subscription-checkout-360-${language}-${theme}`, true);
      await page.goto(url('/wallet/pay-in/?currency=840'));
      await page.getByTestId('wallet-pay-in').waitFor();
      await page.getByTestId('wallet-pay-in-amount').fill('0,5');
      await page.getByTestId('wallet-pay-in-submit').click();
      await page.getByTestId('wallet-pay-in-error').waitFor();
      await noSideways(page);
      await saveScreenshot(page, `wallet-pay-in-error-360-${language}-${theme}`, true);
      expect(s.errors).toEqual([]);
    });
  }
});
