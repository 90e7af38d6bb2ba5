import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCY_RUB, CURRENCY_USD, PAYOUT_AMOUNT_INVALID } from '@mirra/contracts';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { deliverTestPaymentEvent, orderWithTestProvider } from '../../test/payments.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from '../admin/index.js';
import { releaseDueCommissions } from './index.js';

// Money a partner may take out of Mirra, over HTTP with the test provider's signed notifications:
// earned commission only (never topped-up money), nothing while the wallet is in debt, a refund
// during the hold taken from the frozen money, and never approved by the partner themself.
let t: TestApp;
let admin: Person;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      PARTNER_LEVELS: '10,5,2',
      PARTNER_LEVEL_MIN_PAYING: '0,0,0',
      // These purchases go through the test provider: they earn as real ones would.
      PARTNER_TEST_PAYMENTS_EARN: 'true',
      PARTNER_HOLD_DAYS: '14',
      PAYOUT_MIN_RUB: '10',
      RATE_LIMIT_LOGIN_PER_IP: '10000',
      RATE_LIMIT_LOGIN_PER_EMAIL: '10000',
      ACCESS_TOKEN_SECONDS: String(60 * 86_400),
    },
  });
  admin = await person();
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
});
afterAll(() => t.close());

const DAY = 86_400_000;
type Person = Awaited<ReturnType<typeof person>>;

async function person(referer?: { referralCode: string }) {
  const user = await createActiveUser(t, { referralCode: referer?.referralCode });
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: { ...bearer(access), 'x-country': 'RU' } };
}

interface Balance {
  available: number;
  frozen: number;
  reserved: number;
  payable: number;
}
const wallet = async (who: Person): Promise<Balance> => {
  const response = await t.app.inject({ method: 'GET', url: '/api/wallet/', headers: who.headers });
  return response.json().balances.find((b: { currency: number }) => b.currency === 643);
};

const post = (url: string, headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'POST', url, headers, payload });

const askPayout = (who: Person, amount: number) =>
  post('/api/wallet/payouts/', who.headers, {
    currency: 643,
    amount,
    method: 'card',
    card: '4111 1111 1111 1111',
    holder: 'Clara Zetkin',
    client_key: `k-${Math.random().toString(36).slice(2)}`,
  });

const decide = (staff: Person, uuid: string, action: 'approve' | 'reject', reason = 'sent') =>
  post(`/api/admin/payouts/${uuid}/${action}/`, staff.headers, { reason, reference: '' });

/** A purchase the buyer pays: its order uuid and amount. */
async function purchase(buyer: Person, product = 'credits_100') {
  const uuid = await orderWithTestProvider(t, buyer.headers, product);
  return { uuid, amount: await deliverTestPaymentEvent(t, uuid) };
}

/** A partner and the buyer who joined through their link, counted by the new-partner job. */
async function partnerWithBuyer() {
  const partner = await person();
  const buyer = await person(partner.user);
  await t.runJobs();
  return { partner, buyer };
}

/** Moves the clock past the hold and releases what it held. */
async function afterHold(days = 15) {
  t.setNow(new Date(Date.now() + days * DAY));
  await releaseDueCommissions(t.deps);
}

describe('top-ups are for spending, only earned commission is paid out', () => {
  it('refuses to pay out topped-up money; a refund of a spent top-up leaves a debt staff see', async () => {
    t.setNow(undefined);
    const buyer = await person();
    const topUp = await post('/api/payments/orders/', buyer.headers, {
      product: 'wallet_top_up',
      amount: 200_000,
      method: 'test',
      agree_offer: true,
      agree_privacy: true,
    });
    expect(topUp.statusCode, topUp.body).toBe(201);
    const topUpUuid = topUp.json().uuid as string;
    await deliverTestPaymentEvent(t, topUpUuid);
    expect(await wallet(buyer)).toMatchObject({ available: 200_000, payable: 0 });

    const refused = await askPayout(buyer, 160_000);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'wallet.not_payable', payable: 0, available: 200_000 });
    expect(await wallet(buyer)).toMatchObject({ available: 200_000, reserved: 0 });

    // Part of the top-up is spent in Mirra, then the whole top-up is refunded.
    const spent = await post('/api/payments/orders/', buyer.headers, {
      product: 'credits_100',
      method: 'balance',
      agree_offer: true,
      agree_privacy: true,
    });
    expect(spent.statusCode, spent.body).toBe(201);
    const left = (await wallet(buyer)).available;
    expect(left).toBeLessThan(200_000);
    await deliverTestPaymentEvent(t, topUpUuid, 'refund.succeeded');
    await deliverTestPaymentEvent(t, topUpUuid, 'refund.succeeded');

    // All 2,000 ₽ left the wallet: what was spent of it is a debt, not lost.
    const after = await wallet(buyer);
    expect(after.available).toBe(left - 200_000);
    expect(after.payable).toBe(0);
    const money = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${buyer.user.uuid}/money/`,
      headers: admin.headers,
    });
    expect(money.statusCode, money.body).toBe(200);
    expect(JSON.stringify(money.json())).toContain(String(left - 200_000));
  });

  it('pays out earned commission beside topped-up money, never the top-up part', async () => {
    t.setNow(undefined);
    const { partner, buyer } = await partnerWithBuyer();
    const { amount } = await purchase(buyer);
    const commission = Math.floor(amount / 10);
    const topUp = await post('/api/payments/orders/', partner.headers, {
      product: 'wallet_top_up',
      amount: 100_000,
      method: 'test',
      agree_offer: true,
      agree_privacy: true,
    });
    await deliverTestPaymentEvent(t, topUp.json().uuid);
    await afterHold();
    expect(await wallet(partner)).toMatchObject({ available: 100_000 + commission, payable: commission });
    expect((await askPayout(partner, commission + 100)).json()).toMatchObject({ code: 'wallet.not_payable' });
    expect((await askPayout(partner, commission)).statusCode).toBe(201);
    expect(await wallet(partner)).toMatchObject({ available: 100_000, reserved: commission, payable: 0 });
    t.setNow(undefined);
  });
});

describe('a pay-out against a clawed-back balance', () => {
  it('cannot be approved while the balance is negative; later commission nets the debt', async () => {
    t.setNow(undefined);
    const { partner, buyer } = await partnerWithBuyer();
    const first = await purchase(buyer);
    const commission = Math.floor(first.amount / 10);
    await afterHold();
    const asked = await askPayout(partner, commission);
    expect(asked.statusCode, asked.body).toBe(201);
    const payout = asked.json().uuid as string;

    await deliverTestPaymentEvent(t, first.uuid, 'refund.succeeded');
    expect(await wallet(partner)).toMatchObject({ available: -commission, reserved: commission, payable: 0 });
    const approve = await decide(admin, payout, 'approve');
    expect(approve.statusCode).toBe(409);
    expect(approve.json()).toMatchObject({ code: 'partners.payout_in_debt', debt: commission });
    expect(await wallet(partner)).toMatchObject({ available: -commission, reserved: commission });

    // The buyer buys again: once its commission is released the debt is paid and the pay-out can go.
    t.setNow(undefined);
    await purchase(buyer);
    await afterHold(16);
    expect(await wallet(partner)).toMatchObject({ available: 0, reserved: commission });
    const approved = await decide(admin, payout, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await wallet(partner)).toMatchObject({ available: 0, reserved: 0, payable: 0 });
    t.setNow(undefined);
  });
});

describe('a partial refund during the hold', () => {
  it('reduces the frozen commission, not the available money', async () => {
    t.setNow(undefined);
    const { partner, buyer } = await partnerWithBuyer();
    const { uuid, amount } = await purchase(buyer);
    const commission = Math.floor(amount / 10);
    expect(await wallet(partner)).toMatchObject({ available: 0, frozen: commission });

    await deliverTestPaymentEvent(t, uuid, 'refund.succeeded', amount / 2);
    const during = await wallet(partner);
    expect(during.available).toBe(0);
    expect(during.frozen).toBeLessThan(commission);
    expect(during.frozen).toBeGreaterThan(0);
    const frozenList = await t.app.inject({
      method: 'GET',
      url: '/api/wallet/transactions/643/?filter=frozen',
      headers: partner.headers,
    });
    expect(
      frozenList
        .json()
        .results.map((e: { kind: string }) => e.kind)
        .sort(),
    ).toEqual(['clawback', 'referral_bonus']);

    // After the hold, what is left of the commission is available and payable.
    await afterHold();
    expect(await wallet(partner)).toMatchObject({
      available: during.frozen,
      frozen: 0,
      payable: during.frozen,
    });
    t.setNow(undefined);
  });
});

describe('staff and their own pay-out', () => {
  it('a staff member cannot approve their own pay-out; another one can', async () => {
    t.setNow(undefined);
    const { partner, buyer } = await partnerWithBuyer();
    await grantStaffRole(t.deps, partner.user.email!, 'admin');
    const { amount } = await purchase(buyer);
    await afterHold();
    const asked = await askPayout(partner, Math.floor(amount / 10));
    expect(asked.statusCode, asked.body).toBe(201);
    const own = await decide(partner, asked.json().uuid, 'approve');
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ code: 'partners.payout_own' });
    expect((await decide(admin, asked.json().uuid, 'approve')).json()).toMatchObject({ status: 'paid' });
    t.setNow(undefined);
  });
});

describe('a pay-out amount that is not money', () => {
  it('answers one stable message the web translates, and the minimum for too little', async () => {
    const partner = await person();
    // Zero, negative, a third decimal (600.555 ₽ as 60055.5 kopecks), beyond a safe integer, text.
    for (const amount of [0, -500, 60_055.5, 1e20, '600']) {
      const response = await askPayout(partner, amount as number);
      expect(response.statusCode, String(amount)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'common.validation', amount: [PAYOUT_AMOUNT_INVALID] });
    }
    const tooLittle = await askPayout(partner, 500);
    expect(tooLittle.statusCode).toBe(400);
    expect(tooLittle.json().amount).toEqual(['The minimum pay-out is 10.00.']);
  });
});

describe('the income calculator', () => {
  it('starts from the plan’s price in each wallet currency', async () => {
    const partner = await person();
    const summary = await t.app.inject({ method: 'GET', url: '/api/partners/me/', headers: partner.headers });
    const { plan } = await t.deps.pricing.current();
    expect(summary.json().calculator_average).toEqual({
      [String(CURRENCY_RUB)]: plan.prices.ru,
      [String(CURRENCY_USD)]: plan.prices.intl,
    });
  });
});
