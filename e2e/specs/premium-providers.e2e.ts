import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiBalance, E2E_SETTINGS } from '../lib/generations.js';
import { tickConsent } from '../lib/payments.js';
import { signInWithTokens } from '../lib/session.js';
import {
  installTelegramHost,
  miniAppUrl,
  newTelegramUser,
  signInitData,
  telegramAccountFor,
} from '../lib/telegram.js';

const NARROW = { width: 360, height: 780 };
/** The built-in plan: three days' trial with 50 credits, then 300 credits every 30 days. */
const TRIAL_CREDITS = 50;
const PERIOD_CREDITS = 300;
const REGION_TEXT = { ru: 'Prices in roubles (Russia)', intl: 'Prices in US dollars' } as const;
const SAVED_METHOD_NOTE =
  'Your payment method is kept for renewals. Cancel any time: access runs to the end of the paid period.';

/** A new account signed in on /settings/subscription/, the region chosen on the screen as a person would. */
async function openSubscription(page: Page, user: TestUser, region: 'ru' | 'intl') {
  await signInWithTokens(page, user);
  await page.goto(url('/settings/subscription/'));
  await page.getByTestId('subscription-checkout').waitFor();
  expect(await page.getByTestId('subscription-status').textContent()).toBe('No subscription');
  if ((await page.getByTestId('subscription-region').textContent()) !== REGION_TEXT[region]) {
    await page.getByTestId('subscription-region-change').click();
  }
  await expect.poll(() => page.getByTestId('subscription-region').textContent()).toBe(REGION_TEXT[region]);
}

/** Method chosen, boxes ticked, "start the free trial" pressed: on the provider's own page. */
async function startTrialWith(page: Page, method: string) {
  await page.getByTestId(`method-${method}`).click();
  await tickConsent(page);
  expect(await page.getByTestId('subscription-get-access').textContent()).toBe('Start the free trial');
  await page.getByTestId('subscription-get-access').click();
  await page.getByTestId('provider-brand').waitFor();
}

/** Back on the subscription screen from the provider, the order's result shown. */
async function backInMirra(page: Page, status: 'paid' | 'cancelled') {
  await page.waitForURL(
    (u) =>
      u.pathname === '/settings/subscription/' && /^[0-9a-f-]{36}$/.test(u.searchParams.get('payment') ?? ''),
  );
  const result = page.getByTestId('payment-result');
  await result.waitFor();
  await expect.poll(() => result.getAttribute('data-status'), { timeout: 15_000 }).toBe(status);
  return result;
}

/** Premium as the screen shows it once the result is closed, and the credits it brought. */
async function expectPremium(page: Page, status: string, balance: () => Promise<number>, credits: number) {
  await expect.poll(() => page.getByTestId('payment-result-balance').textContent()).toBe(String(credits));
  expect(await balance()).toBe(credits);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe(status);
  expect(await page.getByTestId('subscription-next-charge').textContent()).toMatch(/\d{4}/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
}

describe('premium through each provider (against its local fake)', () => {
  let s: Session;
  afterEach(async () => {
    await s.close();
  });

  it('YooKassa bank card, roubles: the trial keeps the card by a one-rouble check; back with the trial and its credits', async () => {
    const user = await createActiveUser();
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    await openSubscription(page, user, 'ru');
    await page.getByTestId('method-yookassa_bank_card').click();
    expect(await page.getByTestId('subscription-offer').textContent()).toMatch(
      /^3 days free with 50 credits, then ₽\s?990(\.00)? every 30 days$/,
    );
    // The card is kept for the renewals, and the screen says so before paying.
    expect(await page.getByText(SAVED_METHOD_NOTE).isVisible()).toBe(true);
    await startTrialWith(page, 'yookassa_bank_card');
    expect(await page.getByTestId('provider-brand').textContent()).toBe('YooKassa');
    // Nothing is charged for the trial: one rouble is held to check the card, then released.
    expect(await page.getByTestId('provider-amount').textContent()).toBe('1.00 RUB');
    await page.locator('button[data-action="pay"]').click();
    await backInMirra(page, 'paid');
    await expectPremium(
      page,
      'Free trial',
      () => apiBalance(user),
      E2E_SETTINGS.welcomeCredits + TRIAL_CREDITS,
    );
    await page.waitForTimeout(350);
    await saveScreenshot(page, 'premium-yookassa-card-trial-360');
    expect(s.errors).toEqual([]);
  });

  it('Stripe, dollars, in subscription mode: Stripe runs the trial; back with it and its credits (no Cryptomus for the plan)', async () => {
    const user = await createActiveUser();
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    await openSubscription(page, user, 'intl');
    await page.getByTestId('method-stripe').waitFor();
    // A cryptocurrency invoice is paid once and cannot renew: the plan is not offered through it.
    expect(await page.getByTestId('method-cryptomus').count()).toBe(0);
    await page.getByTestId('method-stripe').click();
    expect(await page.getByTestId('subscription-offer').textContent()).toBe(
      '3 days free with 50 credits, then $12.99 every 30 days',
    );
    await startTrialWith(page, 'stripe');
    expect(await page.getByTestId('provider-brand').textContent()).toBe('Stripe Checkout');
    // Checkout in subscription mode: a price per period, nothing due during the trial.
    expect(await page.getByTestId('provider-amount').textContent()).toBe('0.00 USD / period');
    await page.locator('button[data-action="pay"]').click();
    await backInMirra(page, 'paid');
    await expectPremium(
      page,
      'Free trial',
      () => apiBalance(user),
      E2E_SETTINGS.welcomeCredits + TRIAL_CREDITS,
    );
    await page.waitForTimeout(350);
    await saveScreenshot(page, 'premium-stripe-trial-360');
    expect(s.errors).toEqual([]);
  });

  it('Telegram Stars inside the Mini App: no trial, paid in Telegram’s sheet, back with premium and the period’s credits', async () => {
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    const tgUser = newTelegramUser({ first_name: 'Stella' });
    await telegramAccountFor(tgUser);
    await installTelegramHost(page, { payer: tgUser });
    const initData = signInitData(tgUser);
    const authorization = `TG ${initData}`;
    const balance = async () =>
      (await callApi<{ balance: number }>('/api/credits/', { authorization })).body.balance;

    await page.goto(miniAppUrl('/settings/subscription/', { initData, version: '8.0' }));
    await page.getByTestId('subscription-checkout').waitFor();
    const before = await balance();
    expect(await page.getByTestId('subscription-status').textContent()).toBe('No subscription');
    await page.getByTestId('method-stars').click();
    // Star subscriptions have no trial: the first period is paid at once.
    expect(await page.getByTestId('subscription-offer').textContent()).toBe('650 Stars every 30 days');
    await tickConsent(page);
    expect(await page.getByTestId('subscription-get-access').textContent()).toBe('Get access');
    await page.getByTestId('subscription-get-access').click();
    await backInMirra(page, 'paid');
    await expectPremium(page, 'Premium is on', balance, before + PERIOD_CREDITS);
    await page.waitForTimeout(350);
    await saveScreenshot(page, 'premium-stars-mini-app-360');
    expect(s.errors).toEqual([]);
  });

  it('cancelled on Stripe Checkout: back through its cancel link, the checkout is closed and the order cancelled', async () => {
    const user = await createActiveUser();
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    await openSubscription(page, user, 'intl');
    await startTrialWith(page, 'stripe');
    // Stripe itself does nothing on a cancel: Mirra closes the session when the buyer is back.
    await page.locator('button[data-action="cancel"]').click();
    const result = await backInMirra(page, 'cancelled');
    expect(await result.getByTestId('payment-result-text').textContent()).toBe(
      'You cancelled the payment. Nothing was charged.',
    );
    const uuid = new URL(page.url()).searchParams.get('payment')!;
    await expect.poll(() => new URL(page.url()).searchParams.get('payment_cancelled')).toBeNull();
    const order = await callApi<{ status: string }>(`/api/payments/orders/${uuid}/`, {
      authorization: `Bearer ${user.access}`,
    });
    expect(order.body.status).toBe('cancelled');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('No subscription');
    expect(await page.getByTestId('subscription-get-access').textContent()).toBe('Start the free trial');
    expect(await apiBalance(user)).toBe(E2E_SETTINGS.welcomeCredits);
    expect(s.errors).toEqual([]);
  });

  it('cancelled on YooKassa’s page: back in Mirra told so, no premium, no credits', async () => {
    const user = await createActiveUser();
    s = await openBrowser('phone', { size: NARROW });
    const { page } = s;
    await openSubscription(page, user, 'ru');
    await startTrialWith(page, 'yookassa_bank_card');
    await page.locator('button[data-action="cancel"]').click();
    await backInMirra(page, 'cancelled');
    expect(await page.getByTestId('payment-result-text').textContent()).toBe(
      'You cancelled the payment. Nothing was charged.',
    );
    expect(await apiBalance(user)).toBe(E2E_SETTINGS.welcomeCredits);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('No subscription');
    // The trial was not used up: it is still offered.
    expect(await page.getByTestId('subscription-get-access').textContent()).toBe('Start the free trial');
    const me = await callApi<{ premium: boolean }>('/api/subscriptions/me/', {
      authorization: `Bearer ${user.access}`,
    });
    expect(me.body.premium).toBe(false);
    expect(s.errors).toEqual([]);
  });
});
