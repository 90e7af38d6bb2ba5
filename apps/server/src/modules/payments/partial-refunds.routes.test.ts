import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeFake, type StripeFake } from '../../fakes/stripe.fake.js';
import { startYooKassaFake, type YooKassaFake } from '../../fakes/yookassa.fake.js';
import { partnerCommissions, paymentOrders } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { refundOrder } from './index.js';
import { freePort } from '../../test/free-port.js';

// Partial refunds end to end: the real Stripe and YooKassa adapters against their fakes over
// HTTP, the refund asked for, its notification signed (or re-fetched) as the provider does, the
// credits and the referrer's commission taken back in proportion, each refund applied once.
let yookassa: YooKassaFake;
let stripe: StripeFake;
let t: TestApp;
let appUrl: string;

beforeAll(async () => {
  [yookassa, stripe] = await Promise.all([startYooKassaFake(), startStripeFake()]);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    env: {
      ...yookassa.env,
      ...stripe.env,
      PUBLIC_URL: appUrl,
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      PARTNER_LEVELS: '10,5,2',
      PARTNER_LEVEL_MIN_PAYING: '0,0,0',
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  yookassa.setWebhookUrl(`${appUrl}/api/payments/webhooks/yookassa/`);
  stripe.setWebhookUrl(`${appUrl}/api/payments/webhooks/stripe/`);
});
afterAll(async () => {
  await t?.close();
  await Promise.all([yookassa.close(), stripe.close()]);
});

async function person(country: string, referer?: { referralCode: string }) {
  const user = await createActiveUser(t, { referralCode: referer?.referralCode });
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: { ...bearer(access), 'x-country': country } };
}
const balanceOf = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/credits/', headers })).json().balance as number;
const orderRow = async (uuid: string) =>
  (await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid)))[0]!;
const commissionOf = async (uuid: string) =>
  (await t.deps.db.select().from(partnerCommissions).where(eq(partnerCommissions.orderUuid, uuid))).find(
    (c) => c.level === 1,
  )!;
const walletOf = async (headers: Record<string, string>, currency: number) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/wallet/', headers });
  const found = response.json().balances.find((b: { currency: number }) => b.currency === currency) as
    { available: number; frozen: number } | undefined;
  // What the partner ends up with once the hold passes: a clawback of a frozen commission is an
  // entry of its own against the available balance.
  return found ? found.frozen + found.available : 0;
};

async function buy(headers: Record<string, string>, method: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/payments/orders/',
    headers,
    payload: { product: 'credits_100', method, agree_offer: true, agree_privacy: true, return: '/' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().uuid as string;
}

describe('a partial refund through Stripe (charge.refunded with amount_refunded < amount)', () => {
  it('takes back the refunded share of the credits and of the commission, once per refund', async () => {
    const partner = await person('DE');
    const buyer = await person('DE', partner.user);
    const uuid = await buy(buyer.headers, 'stripe');
    await stripe.act((await orderRow(uuid)).providerPaymentId!, 'pay');
    expect(await balanceOf(buyer.headers)).toBe(100);
    // 10 % of $2.99 (commissions round down), frozen for the hold.
    expect((await commissionOf(uuid)).amount).toBe(29);
    expect(await walletOf(partner.headers, 840)).toBe(29);

    // $1.00 of $2.99 back: the buyer keeps floor(100 × 199 / 299) = 66 credits.
    await refundOrder(t.deps, uuid, 100);
    await expect.poll(async () => (await orderRow(uuid)).amountRefunded, { timeout: 10_000 }).toBe(100);
    expect(await balanceOf(buyer.headers)).toBe(66);
    expect((await orderRow(uuid)).status).toBe('paid');
    // The commission becomes 10 % of the $1.99 kept: 19.
    expect((await commissionOf(uuid)).reversedAmount).toBe(10);
    expect(await walletOf(partner.headers, 840)).toBe(19);

    // Stripe delivers the same event again: nothing more is taken.
    const refunded = stripe.events.filter((e) => e.type === 'charge.refunded').at(-1)!;
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/stripe/',
      headers: { 'content-type': 'application/json', 'stripe-signature': refunded.signature },
      payload: refunded.payload,
    });
    expect(again.statusCode).toBe(200);
    expect(await balanceOf(buyer.headers)).toBe(66);

    // A second partial refund takes only what it adds: $2.00 of $2.99 → 33 credits kept.
    await refundOrder(t.deps, uuid, 100);
    await expect.poll(async () => (await orderRow(uuid)).amountRefunded, { timeout: 10_000 }).toBe(200);
    expect(await balanceOf(buyer.headers)).toBe(33);
    expect(await walletOf(partner.headers, 840)).toBe(9);

    // The rest: the order is refunded, every credit and the whole commission taken back.
    await refundOrder(t.deps, uuid);
    await expect.poll(async () => (await orderRow(uuid)).status, { timeout: 10_000 }).toBe('refunded');
    expect(await balanceOf(buyer.headers)).toBe(0);
    expect((await orderRow(uuid)).amountRefunded).toBe(299);
    expect(await walletOf(partner.headers, 840)).toBe(0);
    expect((await commissionOf(uuid)).reversedAmount).toBe(29);
    // A refund of more than is left is refused before it reaches the provider.
    await expect(refundOrder(t.deps, uuid, 1)).rejects.toMatchObject({ code: 'payments.not_refundable' });
  });

  it('takes back from what is unspent: credits already used stay recorded as unrecovered', async () => {
    const buyer = await person('DE');
    const uuid = await buy(buyer.headers, 'stripe');
    await stripe.act((await orderRow(uuid)).providerPaymentId!, 'pay');
    await t.deps.db.transaction(async (tx) => {
      const { applyCreditChange } = await import('../credits/index.js');
      await applyCreditChange(tx, {
        userId: buyer.user.id,
        delta: -90,
        kind: 'generation_charge',
        ref: 'spent',
        idempotencyKey: `spent:${uuid}`,
      });
    });
    await refundOrder(t.deps, uuid, 150);
    await expect.poll(async () => (await orderRow(uuid)).amountRefunded, { timeout: 10_000 }).toBe(150);
    // The share due is 100 − floor(100 × 149 / 299) = 51; only 10 are left to take.
    expect(await balanceOf(buyer.headers)).toBe(0);
    expect(await orderRow(uuid)).toMatchObject({ creditsTakenBack: 10, creditsUnrecovered: 41 });
  });
});

describe('a partial refund through YooKassa', () => {
  it('takes back half the credits and half the commission for half the money, once', async () => {
    const partner = await person('RU');
    const buyer = await person('RU', partner.user);
    const uuid = await buy(buyer.headers, 'yookassa_bank_card');
    const paymentId = (await orderRow(uuid)).providerPaymentId!;
    await yookassa.act(paymentId, 'pay');
    expect(await balanceOf(buyer.headers)).toBe(100);
    expect(await walletOf(partner.headers, 643)).toBe(1990);

    await refundOrder(t.deps, uuid, 9950);
    await expect.poll(async () => (await orderRow(uuid)).amountRefunded, { timeout: 10_000 }).toBe(9950);
    expect(yookassa.payments.get(paymentId)!.refunded_amount).toEqual({ value: '99.50', currency: 'RUB' });
    expect(await balanceOf(buyer.headers)).toBe(50);
    expect(await walletOf(partner.headers, 643)).toBe(995);

    // YooKassa notifies the same refund again: its re-fetched total adds nothing.
    const notification = yookassa.notifications.filter((n) => n.event === 'refund.succeeded').at(-1)!;
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/yookassa/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        type: 'notification',
        event: 'refund.succeeded',
        object: { id: notification.objectId },
      }),
      remoteAddress: '127.0.0.1',
    });
    expect(again.statusCode).toBe(200);
    expect(await balanceOf(buyer.headers)).toBe(50);

    await refundOrder(t.deps, uuid);
    await expect.poll(async () => (await orderRow(uuid)).status, { timeout: 10_000 }).toBe('refunded');
    expect(await balanceOf(buyer.headers)).toBe(0);
    expect(await walletOf(partner.headers, 643)).toBe(0);
  });
});
