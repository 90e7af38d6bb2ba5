import { afterEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { e2eEnv } from '../lib/env.js';
import { signInWithTokens } from '../lib/session.js';
import { grantStaff } from '../lib/staff.js';
import { newTelegramUser, signInitData } from '../lib/telegram.js';

const NARROW = { width: 360, height: 780 };
/** Text as shown, with the number format's no-break spaces as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

async function noSideways(page: Session['page']) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
}

describe('Telegram Stars in the staff console', () => {
  let sessions: Session[] = [];
  afterEach(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    sessions = [];
  });

  it('a Stars payment reads in Stars on its card, refund button and revenue, and reads refunded in place once refunded', async () => {
    // A Mini App buyer pays 150 Stars for a pack; Telegram (the fake) plays the payer.
    const buyer = newTelegramUser({ first_name: 'Stella' });
    const authorization = `TG ${signInitData(buyer)}`;
    const ordered = await callApi<{ uuid: string; confirmation_url: string }>('/api/payments/orders/', {
      authorization,
      body: { product: 'credits_100', method: 'stars', agree_offer: true, agree_privacy: true, return: '/' },
    });
    expect(ordered.status).toBe(201);
    const paid = await fetch(`${e2eEnv.fakeTelegramUrl}/__fake__/pay-invoice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ link: ordered.body.confirmation_url, user: buyer }),
    });
    expect(((await paid.json()) as { status: string }).status).toBe('paid');
    await expect
      .poll(
        async () =>
          (await callApi<{ status: string }>(`/api/payments/orders/${ordered.body.uuid}/`, { authorization }))
            .body.status,
      )
      .toBe('paid');

    const admin = await createActiveUser({ firstName: 'Star', lastName: 'Keeper' });
    await grantStaff(admin, 'admin');
    const s = await openBrowser('phone', { size: NARROW });
    sessions.push(s);
    const { page } = s;
    await signInWithTokens(page, admin);

    // The revenue table and its chart count Stars as Stars, never dollars.
    await page.goto(url('/admin/'));
    const revenue = page.getByTestId('admin-revenue');
    await revenue.waitFor();
    const starsRow = revenue.locator('tr', { has: page.getByRole('cell', { name: 'stars', exact: true }) });
    const today = plain(await starsRow.locator('td').nth(1).textContent());
    expect(today).toMatch(/^★ [\d,]+$/);
    expect(plain(await page.getByTestId('admin-chart-revenue-0').textContent())).toMatch(/★ [\d,]+/);
    expect(await page.getByTestId('admin-chart-revenue-0').textContent()).not.toContain('$');
    await noSideways(page);
    await saveScreenshot(page, 'admin-revenue-stars-360', true);

    // The payment's card and its refund button.
    await page.goto(url(`/admin/payments/?q=${ordered.body.uuid}`));
    const card = page.locator(`[data-testid="admin-order"][data-order="${ordered.body.uuid}"]`);
    await card.waitFor();
    expect(await card.getAttribute('data-status')).toBe('paid');
    expect(plain(await card.textContent())).toContain('★ 150');
    expect(await card.textContent()).not.toContain('$');
    expect(plain(await card.getByTestId('order-actions-refund').textContent())).toBe('Refund ★ 150');
    await noSideways(page);
    await saveScreenshot(page, 'admin-stars-order-360');

    // Refunded: Telegram answers at once, and the card says so without a reload.
    await card.getByTestId('order-actions-reason').fill('Asked for it back in the bot');
    await card.getByTestId('order-actions-refund').click();
    await card.getByTestId('order-actions-confirm').waitFor();
    await card.getByTestId('order-actions-refund').click();
    await expect.poll(() => card.getAttribute('data-status')).toBe('refunded');
    expect(await card.getByTestId('order-status').textContent()).toBe('Refunded');
    expect(await card.getByTestId('order-actions-refund').count()).toBe(0);
    await saveScreenshot(page, 'admin-stars-order-refunded-360');
    const balance = await callApi<{ balance: number }>('/api/credits/', { authorization });
    expect(balance.body.balance).toBeLessThan(100);
    expect(s.errors).toEqual([]);
  });
});

describe('a premium trial through SberPay', () => {
  let sessions: Session[] = [];
  afterEach(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    sessions = [];
  });

  for (const [locale, held, note] of [
    [
      'ru',
      /^Блокируется для проверки карты$/,
      /^1 ₽ блокируется для проверки карты и сразу возвращается\. До конца пробного периода ничего не списывается\.$/,
    ],
    [
      'en',
      /^Held to check the card$/,
      /^₽1 is held to check your card and returned right away\. Nothing is charged until the trial ends\.$/,
    ],
  ] as const) {
    it(`the invoice page says 1 ₽ is held and returned, never "Amount ₽0" (${locale}, 360 px)`, async () => {
      const user = await createActiveUser();
      const authorization = `Bearer ${user.access}`;
      expect(
        (await callApi('/api/payments/region/', { method: 'PUT', body: { region: 'ru' }, authorization }))
          .status,
      ).toBe(200);
      const started = await callApi<{ confirmation_url: string }>('/api/subscriptions/', {
        authorization,
        body: {
          method: 'yookassa_sberbank',
          agree_offer: true,
          agree_privacy: true,
          return: '/settings/subscription/',
        },
      });
      expect(started.status).toBe(200);
      const s = await openBrowser('phone', { size: NARROW, locale });
      sessions.push(s);
      const { page } = s;
      // YooKassa's page (the fake) leads back to the invoice's own page in Mirra.
      await page.goto(started.body.confirmation_url);
      const back = new URL((await page.getByTestId('provider-back').getAttribute('href'))!);
      expect(back.pathname).toMatch(/^\/sberpay\/[0-9a-f-]{36}\/$/);
      await page.goto(url(`${back.pathname}${back.search}`));
      const invoice = page.getByTestId('sberpay-invoice');
      await invoice.waitFor();
      expect(await invoice.getAttribute('data-status')).toBe('pending');
      expect(plain(await page.getByTestId('sberpay-amount').textContent())).toMatch(/^(1 ₽|₽1)$/);
      expect(await page.locator('.balance-card__label').textContent()).toMatch(held);
      expect(plain(await page.getByTestId('sberpay-held').textContent())).toMatch(note);
      await noSideways(page);
      await saveScreenshot(page, `sberpay-trial-card-check-360-${locale}`);
      expect(s.errors).toEqual([]);
    });
  }
});
