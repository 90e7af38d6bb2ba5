import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiBalance } from '../lib/generations.js';
import { chooseRegion } from '../lib/payments.js';
import { signInWithTokens } from '../lib/session.js';

const NARROW = { width: 360, height: 780 };

/** Tops the wallet up with `roubles` on the test provider's real checkout page. */
async function topUpWallet(page: Page, user: TestUser, roubles: number) {
  await chooseRegion(user, 'ru');
  const order = await callApi<{ confirmation_url: string }>('/api/payments/orders/', {
    authorization: `Bearer ${user.access}`,
    body: {
      product: 'wallet_top_up',
      amount: roubles * 100,
      currency: 643,
      method: 'test',
      agree_offer: true,
      agree_privacy: true,
      return: '/wallet/transactions/643/',
    },
  });
  expect(order.status).toBe(201);
  await page.goto(url(order.body.confirmation_url));
  await page.locator('button[data-action="pay"]').click();
  await page.waitForURL((u) => u.pathname === '/wallet/transactions/643/');
}

/** The page's text with the number format's no-break spaces as plain ones. */
const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('wallet transfers', () => {
  let sessions: Session[] = [];
  afterEach(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    sessions = [];
  });

  it('moves wallet money to my own credits: confirmed, the balance at the top drops, the credits arrive, the transfer is in the history', async () => {
    const user = await createActiveUser();
    const s = await openBrowser('phone', { size: NARROW });
    sessions.push(s);
    const { page } = s;
    await signInWithTokens(page, user);
    await topUpWallet(page, user, 500);
    await expect.poll(() => text(page, 'wallet-balance')).toBe('₽500');
    const creditsBefore = await apiBalance(user);

    // From the partner programme's wallet card to the transfer.
    await page.goto(url('/settings/mlm/'));
    await page.getByTestId('partner-to-credits').click();
    await page.waitForURL((u) => u.pathname === '/wallet/pay-out/' && u.searchParams.get('to') === 'credits');
    await page.getByTestId('transfer-credits').waitFor();
    expect(await text(page, 'transfer-rate')).toBe('₽1 = 1 credit');

    // More than the wallet holds is refused before anything is sent.
    await page.getByTestId('transfer-amount').fill('600');
    await page.getByTestId('transfer-next').click();
    await page.getByText('Not enough money: ₽500 is available.').waitFor();

    await page.getByTestId('transfer-amount').fill('120');
    await page.getByTestId('transfer-next').click();
    await page.getByTestId('transfer-confirm').waitFor();
    expect(await text(page, 'transfer-confirm-send')).toBe('Leaves your wallet₽120');
    expect(await text(page, 'transfer-confirm-get')).toBe('Credits you get120');
    expect(await text(page, 'transfer-confirm-fee')).toBe('Feenone');
    expect(await text(page, 'transfer-confirm-after')).toBe('Wallet balance after₽380');
    expect(await text(page, 'transfer-confirm-credits-after')).toBe(
      `Credit balance after${creditsBefore + 120}`,
    );
    await saveScreenshot(page, 'wallet-transfer-confirm-360-en-dark', true);
    await page.getByTestId('transfer-send').click();

    await page.getByTestId('transfer-done').waitFor();
    expect(await text(page, 'transfer-done')).toContain('120 credits added to your balance for ₽120.');
    // The balance at the top of the wallet moves without a reload.
    await expect.poll(() => text(page, 'wallet-balance')).toBe('₽380');
    expect(await apiBalance(user)).toBe(creditsBefore + 120);
    await saveScreenshot(page, 'wallet-transfer-done-360-en-dark', true);

    // In the history, under the transfers filter.
    await page.getByRole('link', { name: 'Wallet history' }).click();
    await page.waitForURL((u) => u.pathname === '/wallet/transactions/643/');
    await page.getByTestId('wallet-filter-transfers').click();
    const entry = page.getByTestId('wallet-entry').first();
    await entry.waitFor();
    expect(await entry.getAttribute('data-kind')).toBe('transfer');
    expect(await text(page, 'wallet-entry-amount')).toBe('−₽120');
    expect(await page.getByTestId('wallet-entry').count()).toBe(1);

    // The credits are on the profile's balance too.
    await page.goto(url('/profile/'));
    await expect.poll(() => text(page, 'profile-credits')).toContain(String(creditsBefore + 120));
    expect(s.errors).toEqual([]);
  });

  for (const [language, theme] of [
    ['ru', 'light'],
    ['ru', 'dark'],
    ['de', 'light'],
    ['de', 'dark'],
  ] as const) {
    it(`shows the transfer screens at 360 px in ${language}, ${theme}`, async () => {
      const user = await createActiveUser();
      const s = await openBrowser('phone', { size: NARROW, theme, colorScheme: theme });
      sessions.push(s);
      const { page } = s;
      await signInWithTokens(page, user);
      await page.evaluate((lng) => localStorage.setItem('django_language', lng), language);
      await topUpWallet(page, user, 500);
      await page.goto(url('/wallet/pay-out/?to=user'));
      await page.getByTestId('transfer-user').waitFor();
      const other = await createActiveUser();
      await page.getByTestId('transfer-recipient').fill(url(`/profile/${other.uuid}/`));
      await page.getByTestId('transfer-amount').fill('700');
      await page.getByTestId('transfer-next').click();
      await page.locator('.field__error, [role="alert"]').first().waitFor();
      await saveScreenshot(page, `wallet-transfer-user-error-360-${language}-${theme}`, true);
      await page.getByTestId('transfer-amount').fill('12,50');
      await page.getByTestId('transfer-next').click();
      await page.getByTestId('transfer-confirm').waitFor();
      await saveScreenshot(page, `wallet-transfer-user-confirm-360-${language}-${theme}`, true);
      await page.getByTestId('transfer-send').click();
      await page.getByTestId('transfer-done').waitFor();
      await expect.poll(() => text(page, 'wallet-balance')).toMatch(/487,50/);
      await page.goto(url('/wallet/pay-out/?to=credits'));
      await page.getByTestId('transfer-credits').waitFor();
      await saveScreenshot(page, `wallet-transfer-credits-360-${language}-${theme}`, true);
      await page.goto(url('/structure/linear/'));
      await page.getByTestId('team-list').waitFor();
      await page.getByTestId('money-currency-840').click();
      await saveScreenshot(page, `partners-team-currency-360-${language}-${theme}`);
      await page.goto(url('/structure/tops/'));
      await page.getByTestId('tops-list').waitFor();
      await saveScreenshot(page, `partners-tops-currency-360-${language}-${theme}`);
      await page.goto(url('/settings/mlm/'));
      await page.getByTestId('partner-calculator').getByRole('button').last().click();
      await page.getByTestId('calculator-result').waitFor();
      await page.getByTestId('partner-wallet').scrollIntoViewIfNeeded();
      await saveScreenshot(page, `partners-wallet-card-360-${language}-${theme}`);
      await page.getByTestId('partner-calculator').scrollIntoViewIfNeeded();
      await saveScreenshot(page, `partners-calculator-360-${language}-${theme}`);
      await page.getByTestId('partner-promo').waitFor();
      await page.getByTestId('promo-language-kk').click();
      await page.getByTestId('promo-text1').getByText(/Mirra/).waitFor();
      await page.getByTestId('partner-promo').scrollIntoViewIfNeeded();
      await saveScreenshot(page, `partners-promo-language-360-${language}-${theme}`, true);
      expect(s.errors).toEqual([]);
    });
  }
});
