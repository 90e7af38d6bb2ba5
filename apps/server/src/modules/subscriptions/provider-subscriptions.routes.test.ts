import { sign } from '@telegram-apps/init-data-node';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeFake, type StripeFake } from '../../fakes/stripe.fake.js';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { startYooKassaFake, type YooKassaFake } from '../../fakes/yookassa.fake.js';
import { partnerCommissions, paymentOrders, premiumTrialClaims } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { refundOrder } from '../payments/index.js';
import { renewDueSubscriptions } from './index.js';
import { freePort } from '../../test/free-port.js';

// Refunds of premium bought through a provider that renews it by itself (Stripe, Telegram Stars),
// end to end: the real adapters against their fakes over HTTP, the subscription's first payment
// and its later periods refunded, access and credits taken back, the partners' commission of that
// very payment clawed back once.
const WEBHOOK_SECRET = 'provider-refunds_secret';
const DAY = 86_400_000;
let stripe: StripeFake;
let telegram: TelegramBotApiFake;
let yookassa: YooKassaFake;
let t: TestApp;
let appUrl: string;

beforeAll(async () => {
  [stripe, telegram, yookassa] = await Promise.all([
    startStripeFake(),
    startTelegramBotApiFake(),
    startYooKassaFake(),
  ]);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    env: {
      ...stripe.env,
      ...telegram.env,
      ...yookassa.env,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PUBLIC_URL: appUrl,
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      PARTNER_LEVELS: '10,5,2',
      PARTNER_LEVEL_MIN_PAYING: '0,0,0',
      PREMIUM_PLAN: JSON.stringify({
        id: 'premium_monthly',
        period_days: 30,
        trial_days: 3,
        trial_credits: 20,
        credits: 300,
        prices: { ru: 99_000, intl: 1_299, xtr: 650 },
      }),
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  stripe.setWebhookUrl(`${appUrl}/api/payments/webhooks/stripe/`);
  yookassa.setWebhookUrl(`${appUrl}/api/payments/webhooks/yookassa/`);
  await t.deps.telegramBot!.setWebhook({ url: `${appUrl}/api/tg/webhook/`, secret_token: WEBHOOK_SECRET });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([stripe.close(), telegram.close(), yookassa.close()]);
});

async function person(referer?: { referralCode: string }, country = 'DE') {
  const user = await createActiveUser(t, { referralCode: referer?.referralCode });
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: { ...bearer(access), 'x-country': country } };
}
const get = async (url: string, headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url, headers })).json();
const credits = async (headers: Record<string, string>) =>
  (await get('/api/credits/', headers)).balance as number;
const orderRow = async (uuid: string) =>
  (await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid)))[0]!;
const renewalsOf = (uuid: string) =>
  t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.renewalOf, uuid));
const commissionsOf = (uuid: string) =>
  t.deps.db
    .select()
    .from(partnerCommissions)
    .where(and(eq(partnerCommissions.orderUuid, uuid), eq(partnerCommissions.level, 1)));
const net = async (headers: Record<string, string>, currency: number) => {
  const balances = (await get('/api/wallet/', headers)).balances as Array<{
    currency: number;
    available: number;
    frozen: number;
  }>;
  const found = balances.find((b) => b.currency === currency);
  return found ? found.available + found.frozen : 0;
};

/** Premium paid from the first day: the person had their trial before. */
async function subscribeWithStripe(headers: Record<string, string>, userId: number) {
  await t.deps.db
    .insert(premiumTrialClaims)
    .values({ subject: `user:${userId}`, userId, claimedAt: new Date() });
  const started = await t.app.inject({
    method: 'POST',
    url: '/api/subscriptions/',
    headers,
    payload: { method: 'stripe', agree_offer: true, agree_privacy: true },
  });
  expect(started.statusCode, started.body).toBe(200);
  const { uuid } = started.json() as { uuid: string };
  const session = stripe.sessions.get((await orderRow(uuid)).providerPaymentId!)!;
  await stripe.act(session.id as string, 'pay');
  await expect
    .poll(async () => (await get('/api/subscriptions/me/', headers)).premium, { timeout: 10_000 })
    .toBe(true);
  return { uuid, subscriptionId: session.subscription as string, invoice: session.invoice as string };
}

describe('Stripe subscription refunds', () => {
  it('refunding the first payment (through its invoice’s payment intent) ends access, takes the credits back, claws back once', async () => {
    const partner = await person();
    const buyer = await person(partner.user);
    const { uuid, invoice, subscriptionId } = await subscribeWithStripe(buyer.headers, buyer.user.id);
    expect((await orderRow(uuid)).providerPaymentId).toBe(invoice);
    expect(await credits(buyer.headers)).toBe(300);
    expect(await net(partner.headers, 840)).toBe(129);

    await refundOrder(t.deps, uuid);
    await expect.poll(async () => (await orderRow(uuid)).status, { timeout: 10_000 }).toBe('refunded');
    const refundedEvent = stripe.events.filter((e) => e.type === 'charge.refunded').at(-1)!;
    expect(refundedEvent.status).toBe(200);
    const me = await get('/api/subscriptions/me/', buyer.headers);
    expect(me.premium).toBe(false);
    expect(await credits(buyer.headers)).toBe(0);
    expect(await net(partner.headers, 840)).toBe(0);

    // Stripe delivers charge.refunded again: the clawback is not taken twice.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/stripe/',
      headers: { 'content-type': 'application/json', 'stripe-signature': refundedEvent.signature },
      payload: refundedEvent.payload,
    });
    expect(again.statusCode).toBe(200);
    expect(await net(partner.headers, 840)).toBe(0);
    expect((await commissionsOf(uuid))[0]!.reversedAmount).toBe(129);

    // Stripe's own schedule is stopped too: its next period charges nothing and grants nothing.
    await t.runJobs();
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    await stripe.renew(subscriptionId);
    expect(await renewalsOf(uuid)).toEqual([]);
    expect((await get('/api/subscriptions/me/', buyer.headers)).premium).toBe(false);
  });

  it('a renewal is an order of its own: commission on it, and its refund claws back exactly that', async () => {
    const partner = await person();
    const buyer = await person(partner.user);
    const { uuid, subscriptionId } = await subscribeWithStripe(buyer.headers, buyer.user.id);
    const accessBefore = new Date((await get('/api/subscriptions/me/', buyer.headers)).access_until);

    await stripe.renew(subscriptionId);
    await expect.poll(async () => (await renewalsOf(uuid)).length, { timeout: 10_000 }).toBe(1);
    // Delivered again (Stripe retries): still one renewal order, one period, one commission.
    const paidEvent = stripe.events.filter((e) => e.type === 'invoice.paid').at(-1)!;
    await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/stripe/',
      headers: { 'content-type': 'application/json', 'stripe-signature': paidEvent.signature },
      payload: paidEvent.payload,
    });
    const [renewal] = await renewalsOf(uuid);
    expect(renewal).toMatchObject({ status: 'paid', amount: 1_299, currency: 840 });
    expect(await credits(buyer.headers)).toBe(600);
    expect(await net(partner.headers, 840)).toBe(258);
    const renewedUntil = new Date((await get('/api/subscriptions/me/', buyer.headers)).access_until);
    expect(renewedUntil.getTime()).toBeGreaterThan(accessBefore.getTime() + 29 * DAY);

    await refundOrder(t.deps, renewal!.uuid);
    await expect
      .poll(async () => (await orderRow(renewal!.uuid)).status, { timeout: 10_000 })
      .toBe('refunded');
    // That period's commission and credits go; the first payment's stay, and so does its access.
    expect(await net(partner.headers, 840)).toBe(129);
    expect((await commissionsOf(renewal!.uuid))[0]!.reversedAmount).toBe(129);
    expect((await commissionsOf(uuid))[0]!.reversedAmount).toBe(0);
    expect((await orderRow(uuid)).status).toBe('paid');
    expect(await credits(buyer.headers)).toBe(300);
    const me = await get('/api/subscriptions/me/', buyer.headers);
    expect(me.premium).toBe(true);
    expect(Math.abs(new Date(me.access_until).getTime() - accessBefore.getTime())).toBeLessThan(60_000);
  });
});

describe('Telegram Stars subscription refunds', () => {
  it('a refunded Stars renewal fires the refund of that renewal once', async () => {
    const tgUser = telegram.newUser();
    const initData = sign(
      { query_id: 'AAHdF6IQAAAAAN0XohDhrOrc', user: tgUser } as Parameters<typeof sign>[0],
      telegram.token,
      new Date(Date.now() - 5000),
    );
    const headers = { authorization: `TG ${initData}`, 'x-country': 'DE' };
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/',
      headers,
      payload: { method: 'stars', agree_offer: true, agree_privacy: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    // Telegram Star subscriptions have no trial: Stars are offered, but never with one.
    const offered = await get('/api/subscriptions/me/', headers);
    expect(offered.methods).toContain('stars');
    expect(offered.trial_methods).not.toContain('stars');
    const { uuid, confirmation_url } = started.json() as { uuid: string; confirmation_url: string };
    const paid = await telegram.payInvoice(confirmation_url, tgUser);
    expect(paid.status).toBe('paid');
    expect(await credits(headers)).toBe(300);

    await telegram.renewStarSubscription(paid.chargeId!);
    await expect.poll(async () => (await renewalsOf(uuid)).length, { timeout: 10_000 }).toBe(1);
    const [renewal] = await renewalsOf(uuid);
    expect(renewal).toMatchObject({ status: 'paid', amount: 650 });
    expect(await credits(headers)).toBe(600);

    await refundOrder(t.deps, renewal!.uuid);
    await expect
      .poll(async () => (await orderRow(renewal!.uuid)).status, { timeout: 10_000 })
      .toBe('refunded');
    expect(telegram.calls('refundStarPayment').at(-1)!.params).toMatchObject({
      user_id: tgUser.id,
      telegram_payment_charge_id: renewal!.providerPaymentId,
    });
    expect(await credits(headers)).toBe(300);
    expect((await orderRow(uuid)).status).toBe('paid');
    expect((await get('/api/subscriptions/me/', headers)).premium).toBe(true);
  });
});

describe('a trial through Stripe (subscription_data.trial_period_days)', () => {
  const start = async (headers: Record<string, string>) => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/',
      headers,
      payload: { method: 'stripe', agree_offer: true, agree_privacy: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { uuid } = started.json() as { uuid: string };
    const session = stripe.sessions.get((await orderRow(uuid)).providerPaymentId!)!;
    return { uuid, session };
  };

  it('collects the card and charges nothing; the trial’s end starts the paid period', async () => {
    const buyer = await person();
    const offered = await get('/api/subscriptions/me/', buyer.headers);
    expect(offered.trial_available).toBe(true);
    expect(offered.trial_methods).toContain('stripe');

    const { uuid, session } = await start(buyer.headers);
    // The plan's price on the line, nothing due now.
    expect(session).toMatchObject({ mode: 'subscription', amount_total: 0 });
    expect((await orderRow(uuid)).amount).toBe(0);
    await stripe.act(session.id as string, 'pay');
    await expect
      .poll(async () => (await get('/api/subscriptions/me/', buyer.headers)).status, { timeout: 10_000 })
      .toBe('trialing');
    const firstInvoice = JSON.parse(stripe.events.filter((e) => e.type === 'invoice.paid').at(-1)!.payload);
    expect(firstInvoice.data.object).toMatchObject({ billing_reason: 'subscription_create', amount_paid: 0 });
    const subscription = stripe.subscriptions.get(session.subscription as string)!;
    expect(subscription.status).toBe('trialing');
    const me = await get('/api/subscriptions/me/', buyer.headers);
    expect(me.premium).toBe(true);
    expect(new Date(me.access_until).getTime()).toBeGreaterThan(Date.now() + 2.9 * DAY);
    expect(new Date(me.access_until).getTime()).toBeLessThan(Date.now() + 3.1 * DAY);
    expect(await credits(buyer.headers)).toBe(20);
    // The trial is once per person: not offered again.
    expect((await get('/api/subscriptions/me/', buyer.headers)).trial_available).toBe(false);

    // The trial ends: Stripe charges the plan and Mirra gives the paid period and its credits.
    await stripe.renew(session.subscription as string);
    await expect.poll(async () => (await renewalsOf(uuid)).length, { timeout: 10_000 }).toBe(1);
    expect((await renewalsOf(uuid))[0]).toMatchObject({ status: 'paid', amount: 1_299, currency: 840 });
    const paid = await get('/api/subscriptions/me/', buyer.headers);
    expect(paid.status).toBe('active');
    expect(new Date(paid.access_until).getTime()).toBeGreaterThan(Date.now() + 32 * DAY);
    expect(await credits(buyer.headers)).toBe(320);
  });

  it('cancelled during the trial: the subscription ends with it and nothing is ever charged', async () => {
    const buyer = await person();
    const { uuid, session } = await start(buyer.headers);
    await stripe.act(session.id as string, 'pay');
    await expect
      .poll(async () => (await get('/api/subscriptions/me/', buyer.headers)).status, { timeout: 10_000 })
      .toBe('trialing');

    const cancelled = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/cancel/',
      headers: buyer.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);
    const subscriptionId = session.subscription as string;
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);

    await stripe.renew(subscriptionId);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    await expect
      .poll(() => stripe.events.some((e) => e.type === 'customer.subscription.deleted' && e.status === 200))
      .toBe(true);
    expect(await renewalsOf(uuid)).toHaveLength(0);
    expect(await credits(buyer.headers)).toBe(20);
    expect((await get('/api/subscriptions/me/', buyer.headers)).auto_renew).toBe(false);
  });
});

describe('a trial through YooKassa (a card check: one rouble held, released, never taken)', () => {
  it('saves the card with nothing charged; the trial’s end charges the saved card', async () => {
    const buyer = await person(undefined, 'RU');
    const offered = await get('/api/subscriptions/me/', buyer.headers);
    expect(offered.trial_methods).toEqual(
      expect.arrayContaining(['yookassa_bank_card', 'yookassa_sberbank']),
    );
    // SBP cannot hold a payment, so it cannot check a card.
    expect(offered.trial_methods).not.toContain('yookassa_sbp');

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/',
      headers: buyer.headers,
      payload: { method: 'yookassa_bank_card', agree_offer: true, agree_privacy: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { uuid } = started.json() as { uuid: string };
    expect((await orderRow(uuid)).amount).toBe(0);
    const paymentId = (await orderRow(uuid)).providerPaymentId!;
    expect(yookassa.payments.get(paymentId)).toMatchObject({
      amount: { value: '1.00', currency: 'RUB' },
      capture: false,
      save_payment_method: true,
    });
    expect(yookassa.payments.get(paymentId)!.receipt).toBeUndefined();

    await yookassa.act(paymentId, 'pay');
    await expect
      .poll(async () => (await get('/api/subscriptions/me/', buyer.headers)).status, { timeout: 10_000 })
      .toBe('trialing');
    // The hold is released: the rouble is never taken, the card stays saved.
    await expect.poll(() => yookassa.payments.get(paymentId)!.status, { timeout: 10_000 }).toBe('canceled');
    expect(yookassa.payments.get(paymentId)).toMatchObject({
      paid: false,
      cancellation_details: { party: 'merchant', reason: 'canceled_by_merchant' },
      payment_method: { saved: true },
    });
    expect(await credits(buyer.headers)).toBe(20);
    const trialEnd = new Date((await get('/api/subscriptions/me/', buyer.headers)).access_until);
    expect(trialEnd.getTime()).toBeLessThan(Date.now() + 3.1 * DAY);

    // The trial ends: the renewal job charges the saved card the plan's price.
    t.setNow(new Date(trialEnd.getTime() + 60_000));
    try {
      await renewDueSubscriptions(t.deps);
    } finally {
      t.setNow(undefined);
    }
    const charged = [...yookassa.payments.values()].find(
      (p) =>
        p.payment_method?.id === yookassa.payments.get(paymentId)!.payment_method!.id && p.id !== paymentId,
    )!;
    expect(charged).toMatchObject({ status: 'succeeded', amount: { value: '990.00', currency: 'RUB' } });
    const paid = await get('/api/subscriptions/me/', buyer.headers);
    expect(paid.status).toBe('active');
    expect(new Date(paid.access_until).getTime()).toBeGreaterThan(trialEnd.getTime() + 29 * DAY);
    expect(await credits(buyer.headers)).toBe(320);
  });
});
