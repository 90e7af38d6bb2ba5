import { sign } from '@telegram-apps/init-data-node';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeFake, type StripeFake } from '../../fakes/stripe.fake.js';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { startYooKassaFake, type YooKassaFake } from '../../fakes/yookassa.fake.js';
import { createHmac } from 'node:crypto';
import {
  partnerCommissions,
  paymentOrders,
  premiumSubscriptions,
  premiumTrialClaims,
} from '../../shared/db/schema.js';
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
    // The fake records its event once the endpoint has answered (after the order changed).
    await expect
      .poll(() => stripe.events.filter((e) => e.type === 'charge.refunded').at(-1)?.status, {
        timeout: 10_000,
      })
      .toBe(200);
    const refundedEvent = stripe.events.filter((e) => e.type === 'charge.refunded').at(-1)!;
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

/** A Stripe event delivered (again) to the webhook, exactly as Stripe signed it. */
const redeliver = (event: { payload: string; signature: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/stripe/',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    payload: event.payload,
  });
const lastEvent = (type: string) => stripe.events.filter((e) => e.type === type).at(-1)!;
const subscriptionRow = async (userId: number) =>
  (await t.deps.db.select().from(premiumSubscriptions).where(eq(premiumSubscriptions.userId, userId)))[0]!;

describe('Stripe subscription changes made at Stripe', () => {
  it('mirrors cancel at the period’s end, resuming, past_due, active and the end, each applied once', async () => {
    const buyer = await person();
    const { subscriptionId } = await subscribeWithStripe(buyer.headers, buyer.user.id);
    const me = () => get('/api/subscriptions/me/', buyer.headers);
    const periodEnd = (await me()).next_charge_at as string;
    expect(await me()).toMatchObject({ status: 'active', auto_renew: true });

    // Cancelled in Stripe's customer portal: renewals stop, access runs to its date.
    await stripe.change(subscriptionId, { cancel_at_period_end: true });
    const cancelEvent = lastEvent('customer.subscription.updated');
    expect(cancelEvent.status).toBe(200);
    expect(await me()).toMatchObject({ premium: true, auto_renew: false, next_charge_at: null });
    const cancelledAt = (await subscriptionRow(buyer.user.id)).cancelledAt;
    expect(cancelledAt).not.toBeNull();
    // Delivered again: nothing changes.
    expect((await redeliver(cancelEvent)).statusCode).toBe(200);
    expect((await subscriptionRow(buyer.user.id)).cancelledAt).toEqual(cancelledAt);

    // Resumed in the portal: renewals on again, next charge at the period's end.
    await stripe.change(subscriptionId, { cancel_at_period_end: false });
    expect(await me()).toMatchObject({ premium: true, auto_renew: true, next_charge_at: periodEnd });
    expect((await subscriptionRow(buyer.user.id)).cancelledAt).toBeNull();

    // The cancellation's state made earlier, arriving late as an event of its own: ignored.
    const stale = JSON.parse(cancelEvent.payload) as { id: string; created: number };
    const late = JSON.stringify({ ...stale, id: `${stale.id}_late`, created: stale.created - 60 });
    const at = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', stripe.webhookSecret).update(`${at}.${late}`).digest('hex');
    expect((await redeliver({ payload: late, signature: `t=${at},v1=${v1}` })).statusCode).toBe(200);
    expect((await me()).auto_renew).toBe(true);

    // Stripe retries a renewal it could not charge, then the card is updated and it is paid.
    await stripe.change(subscriptionId, { status: 'past_due' });
    expect((await me()).status).toBe('past_due');
    await stripe.change(subscriptionId, { status: 'active' });
    expect(await me()).toMatchObject({ status: 'active', auto_renew: true });

    // Ended at Stripe: renewals off; the period paid still runs to its date.
    await stripe.change(subscriptionId, { status: 'canceled' });
    expect(lastEvent('customer.subscription.deleted').status).toBe(200);
    expect(await me()).toMatchObject({ premium: true, auto_renew: false, next_charge_at: null });
    expect((await subscriptionRow(buyer.user.id)).cancelledAt).not.toBeNull();
  });
});

describe('chargebacks (Stripe disputes)', () => {
  async function buyPackWithStripe(headers: Record<string, string>) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/payments/orders/',
      headers,
      payload: { product: 'credits_100', method: 'stripe', agree_offer: true, agree_privacy: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { uuid } = created.json() as { uuid: string };
    await stripe.act((await orderRow(uuid)).providerPaymentId!, 'pay');
    await expect.poll(async () => (await orderRow(uuid)).status, { timeout: 10_000 }).toBe('paid');
    return { uuid, paymentIntent: (await orderRow(uuid)).providerPaymentId! };
  }

  it('a dispute lost takes the unspent credits back and claws the commission back once, delivered twice', async () => {
    const partner = await person();
    const buyer = await person(partner.user);
    const { uuid, paymentIntent } = await buyPackWithStripe(buyer.headers);
    expect(await credits(buyer.headers)).toBe(100);
    expect(await net(partner.headers, 840)).toBe(29);

    // Opened: held, nothing taken yet.
    const disputeId = await stripe.dispute(paymentIntent, null);
    expect(lastEvent('charge.dispute.created').status).toBe(200);
    expect((await orderRow(uuid)).status).toBe('paid');
    expect((await orderRow(uuid)).disputedAt).not.toBeNull();
    expect(await credits(buyer.headers)).toBe(100);

    // Lost: the whole order is taken back, as a refund.
    await stripe.closeDispute(disputeId, 'lost');
    const closed = lastEvent('charge.dispute.closed');
    expect(closed.status).toBe(200);
    expect((await orderRow(uuid)).status).toBe('refunded');
    expect(await credits(buyer.headers)).toBe(0);
    expect(await net(partner.headers, 840)).toBe(0);

    expect((await redeliver(closed)).statusCode).toBe(200);
    expect(await net(partner.headers, 840)).toBe(0);
    expect((await commissionsOf(uuid))[0]!.reversedAmount).toBe(29);
    expect(await credits(buyer.headers)).toBe(0);
  });

  it('a dispute won changes nothing', async () => {
    const partner = await person();
    const buyer = await person(partner.user);
    const { uuid, paymentIntent } = await buyPackWithStripe(buyer.headers);
    await stripe.dispute(paymentIntent, 'won');
    expect(lastEvent('charge.dispute.closed').status).toBe(200);
    expect((await orderRow(uuid)).status).toBe('paid');
    expect(await credits(buyer.headers)).toBe(100);
    expect(await net(partner.headers, 840)).toBe(29);
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

describe('a trial through SberPay', () => {
  it('its invoice page says what the card check holds and returns, not an amount of nothing', async () => {
    const buyer = await person(undefined, 'RU');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/',
      headers: buyer.headers,
      payload: { method: 'yookassa_sberbank', agree_offer: true, agree_privacy: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { uuid } = started.json() as { uuid: string };
    const payment = yookassa.payments.get((await orderRow(uuid)).providerPaymentId!)!;
    expect(payment).toMatchObject({ amount: { value: '1.00', currency: 'RUB' }, capture: false });
    const returnUrl = new URL(payment.confirmation!.return_url);
    const state = await t.app.inject({ url: `/api/payments/invoices/${uuid}/${returnUrl.search}` });
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toMatchObject({ status: 'pending', amount: 0, currency: 643, held: 100 });
  });
});

describe('a subscription bought again through another provider in another region', () => {
  it('renews at the price and currency of the last purchase, and the plan reads the same', async () => {
    const buyer = await person();
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/',
      headers: buyer.headers,
      payload: { method: 'stripe', agree_offer: true, agree_privacy: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { uuid } = started.json() as { uuid: string };
    const session = stripe.sessions.get((await orderRow(uuid)).providerPaymentId!)!;
    await stripe.act(session.id as string, 'pay');
    await expect
      .poll(async () => (await get('/api/subscriptions/me/', buyer.headers)).status, { timeout: 10_000 })
      .toBe('trialing');
    expect(await get('/api/subscriptions/me/', buyer.headers)).toMatchObject({
      amount: 1_299,
      currency: 840,
    });
    const cancelled = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/cancel/',
      headers: buyer.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);

    // The person moves to the Russian prices and buys premium again with a card through YooKassa.
    const region = await t.app.inject({
      method: 'PUT',
      url: '/api/payments/region/',
      headers: buyer.headers,
      payload: { region: 'ru' },
    });
    expect(region.statusCode, region.body).toBe(200);
    const offered = await get('/api/subscriptions/me/', buyer.headers);
    expect(offered.plan).toMatchObject({ amount: 99_000, currency: 643 });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/',
      headers: buyer.headers,
      payload: {
        method: 'yookassa_bank_card',
        agree_offer: true,
        agree_privacy: true,
        amount: 99_000,
        currency: 643,
      },
    });
    expect(again.statusCode, again.body).toBe(200);
    const secondUuid = (again.json() as { uuid: string }).uuid;
    const paymentId = (await orderRow(secondUuid)).providerPaymentId!;
    expect(yookassa.payments.get(paymentId)!.amount).toEqual({ value: '990.00', currency: 'RUB' });
    await yookassa.act(paymentId, 'pay');
    await expect.poll(async () => (await orderRow(secondUuid)).status, { timeout: 10_000 }).toBe('paid');

    const me = await get('/api/subscriptions/me/', buyer.headers);
    expect(me).toMatchObject({ premium: true, auto_renew: true, amount: 99_000, currency: 643 });

    // The period ends: the saved YooKassa card is charged in roubles, the plan's Russian price.
    const savedMethod = yookassa.payments.get(paymentId)!.payment_method!.id;
    t.setNow(new Date(new Date(me.next_charge_at).getTime() + 60_000));
    try {
      await renewDueSubscriptions(t.deps);
    } finally {
      t.setNow(undefined);
    }
    const renewal = [...yookassa.payments.values()].find(
      (p) => p.payment_method?.id === savedMethod && p.id !== paymentId,
    );
    expect(renewal).toMatchObject({ status: 'succeeded', amount: { value: '990.00', currency: 'RUB' } });
  });
});
