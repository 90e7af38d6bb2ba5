import { createHmac } from 'node:crypto';
import { sign } from '@telegram-apps/init-data-node';
import { CURRENCY_XTR } from '@mirra/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCryptomusFake, type CryptomusFake } from '../../fakes/cryptomus.fake.js';
import { startStripeFake, type StripeFake } from '../../fakes/stripe.fake.js';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { startYooKassaFake, type YooKassaFake } from '../../fakes/yookassa.fake.js';
import { paymentEvents, paymentOrders, users } from '../../shared/db/schema.js';
import { translate } from '../../shared/i18n/messages.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  cancelProviderSubscription,
  chargeSavedMethod,
  refundOrder,
  startPayment,
  type PaymentEvent,
  type PaymentOrderView,
} from './index.js';
import { cryptomusSign, phpJsonEncode } from './providers/cryptomus.provider.js';
import { reconcilePendingOrders } from './provider-events.usecases.js';
import { freePort } from '../../test/free-port.js';

// Each provider end to end against its local fake: the real adapter, real HTTP both ways, the
// fake's checkout page played as the buyer, notifications signed (or sent) as the provider does.
const WEBHOOK_SECRET = 'payments-suite_secret';
let yookassa: YooKassaFake;
let stripe: StripeFake;
let cryptomus: CryptomusFake;
let telegram: TelegramBotApiFake;
let t: TestApp;
let appUrl: string;

beforeAll(async () => {
  [yookassa, stripe, cryptomus, telegram] = await Promise.all([
    startYooKassaFake(),
    startStripeFake(),
    startCryptomusFake(),
    startTelegramBotApiFake(),
  ]);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    env: {
      ...yookassa.env,
      ...stripe.env,
      ...cryptomus.env,
      ...telegram.env,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PUBLIC_URL: appUrl,
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      // Every buyer here signs in from the same address.
      RATE_LIMIT_LOGIN_PER_IP: '10000',
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  yookassa.setWebhookUrl(`${appUrl}/api/payments/webhooks/yookassa/`);
  stripe.setWebhookUrl(`${appUrl}/api/payments/webhooks/stripe/`);
  await t.deps.telegramBot!.setWebhook({ url: `${appUrl}/api/tg/webhook/`, secret_token: WEBHOOK_SECRET });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([yookassa.close(), stripe.close(), cryptomus.close(), telegram.close()]);
});

async function buyer(country: string) {
  const user = await createActiveUser(t);
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: { ...bearer(access), 'x-country': country } };
}
const balanceOf = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/credits/', headers })).json().balance as number;
const orderRow = async (uuid: string) =>
  (await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid)))[0]!;

async function order(headers: Record<string, string>, method: string, product = 'credits_100') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/payments/orders/',
    headers,
    payload: { product, method, agree_offer: true, agree_privacy: true, return: '/generate/simple/' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { uuid: string; confirmation_url: string };
}

const post = (url: string, body: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
    remoteAddress,
  });

/** A YooKassa notification of a payment (it carries the id; the adapter re-fetches the rest). */
const yookassaNotification = (object: Record<string, unknown>) =>
  JSON.stringify({ type: 'notification', event: 'payment.succeeded', object });

/** The same delivery five times at once: every answer is 200 and the purchase is granted once. */
async function deliverFiveTimesGrantingOnce(
  url: string,
  body: string,
  buyerHeaders: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const answers = await Promise.all(Array.from({ length: 5 }, () => post(url, body, headers)));
  expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
  expect(await balanceOf(buyerHeaders)).toBe(100);
}

/** A refund asked of the provider: applied by its notification, the credits taken back. */
async function refundTakesCreditsBack(uuid: string, headers: Record<string, string>) {
  await refundOrder(t.deps, uuid);
  // The refund's notification comes back over HTTP: slow on a busy machine.
  await expect.poll(async () => (await orderRow(uuid)).status, { timeout: 10_000 }).toBe('refunded');
  expect(await balanceOf(headers)).toBe(0);
}

/** Stripe's `Stripe-Signature` for `body` signed at `at` (seconds). */
const stripeSignature = (at: number, body: string, secret = stripe.webhookSecret) =>
  `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;

/** Init data of a Mini App user, signed with the bot's token a few seconds ago. */
const miniAppInitData = (tgUser: object, startParam?: string) =>
  sign(
    {
      query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
      user: tgUser,
      ...(startParam ? { start_param: startParam } : {}),
    } as Parameters<typeof sign>[0],
    telegram.token,
    new Date(Date.now() - 5000),
  );

describe('the catalogue per region', () => {
  it('offers YooKassa (card, SberPay, SBP) in roubles in Russia, Stripe in dollars elsewhere, Cryptomus in both', async () => {
    const ru = await buyer('RU');
    const ruCatalogue = (await t.app.inject({ url: '/api/payments/catalogue/', headers: ru.headers })).json();
    expect(ruCatalogue).toMatchObject({ region: 'ru', currency: 643 });
    expect(ruCatalogue.methods).toEqual([
      'yookassa_bank_card',
      'yookassa_sberbank',
      'yookassa_sbp',
      'cryptomus',
      'test',
      'balance',
    ]);
    const de = await buyer('DE');
    const deCatalogue = (await t.app.inject({ url: '/api/payments/catalogue/', headers: de.headers })).json();
    expect(deCatalogue).toMatchObject({ region: 'intl', currency: 840 });
    expect(deCatalogue.methods).toEqual(['stripe', 'cryptomus', 'test', 'balance']);
    // What each provider says of its methods: YooKassa sends a receipt to an email it must have.
    expect(ruCatalogue.receipt_email_methods).toEqual([
      'yookassa_bank_card',
      'yookassa_sberbank',
      'yookassa_sbp',
    ]);
    expect(deCatalogue).toMatchObject({ receipt_email_methods: [], stars_methods: [] });
    // Stars are for the Mini App, and Stripe charges dollars: neither is sold to this buyer.
    for (const method of ['stars', 'yookassa_bank_card']) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/payments/orders/',
        headers: de.headers,
        payload: { product: 'credits_100', method, agree_offer: true, agree_privacy: true },
      });
      expect(refused.json()).toMatchObject({ code: 'payments.method_unavailable' });
    }
  });
});

describe('YooKassa', () => {
  it('pays by card on its page with a receipt to the buyer’s email, and grants the credits once', async () => {
    const { user, headers } = await buyer('RU');
    const created = await order(headers, 'yookassa_bank_card');
    const row = await orderRow(created.uuid);
    const payment = yookassa.payments.get(row.providerPaymentId!)!;
    expect(created.confirmation_url).toBe(payment.confirmation!.confirmation_url);
    expect(payment).toMatchObject({
      amount: { value: '199.00', currency: 'RUB' },
      metadata: { order_id: created.uuid },
      payment_method: { type: 'bank_card' },
      receipt: { customer: { email: user.email } },
    });
    expect(payment.confirmation!.return_url).toBe(`${appUrl}/generate/simple/?payment=${created.uuid}`);

    await yookassa.act(payment.id, 'pay');
    expect(yookassa.notifications.at(-1)).toMatchObject({ event: 'payment.succeeded', status: 200 });
    expect(await balanceOf(headers)).toBe(100);
    expect((await orderRow(created.uuid)).status).toBe('paid');

    // The same notification again (YooKassa repeats until it gets 200) changes nothing.
    const again = yookassaNotification({ id: payment.id });
    expect((await post('/api/payments/webhooks/yookassa/', again)).statusCode).toBe(200);
    expect(await balanceOf(headers)).toBe(100);
  });

  it('asks an account without an email (Telegram-only) for one: the receipt goes there, the account keeps none', async () => {
    const { user, headers } = await buyer('RU');
    await t.deps.db.update(users).set({ email: null }).where(eq(users.id, user.id));
    const ordersOf = async () =>
      t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.userId, user.id));
    const ask = (extra: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/orders/',
        headers,
        payload: {
          product: 'credits_100',
          method: 'yookassa_bank_card',
          agree_offer: true,
          agree_privacy: true,
          ...extra,
        },
      });
    // A live shop with receipts on would refuse the payment: none is started.
    const refused = await ask({});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'payments.email_required' });
    expect(await ordersOf()).toEqual([]);
    const invalid = await ask({ email: 'not-an-email' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ email: ['Enter a valid email address.'] });

    const created = await ask({ email: ' Receipt.Buyer@Example.com ' });
    expect(created.statusCode, created.body).toBe(201);
    const row = (await ordersOf())[0]!;
    expect(row.receiptEmail).toBe('receipt.buyer@example.com');
    expect(yookassa.payments.get(row.providerPaymentId!)).toMatchObject({
      receipt: { customer: { email: 'receipt.buyer@example.com' } },
    });
    const account = (await t.deps.db.select().from(users).where(eq(users.id, user.id)))[0]!;
    expect(account.email).toBeNull();
    // Paid, it grants the pack like any other payment.
    await yookassa.act(row.providerPaymentId!, 'pay');
    expect(await balanceOf(headers)).toBe(100);
  });

  it('refuses notifications from outside its networks, and trusts only what its API says of the payment', async () => {
    const { headers } = await buyer('RU');
    const created = await order(headers, 'yookassa_sberbank');
    const row = await orderRow(created.uuid);
    // SberPay returns to the invoice's open page, which its token (not its uuid alone) opens.
    const returnUrl = new URL(yookassa.payments.get(row.providerPaymentId!)!.confirmation!.return_url);
    expect(returnUrl.pathname).toBe(`/sberpay/${created.uuid}/`);
    const key = returnUrl.searchParams.get('key');
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const state = await t.app.inject({ url: `/api/payments/invoices/${created.uuid}/?key=${key}` });
    expect(state.json()).toEqual({
      uuid: created.uuid,
      status: 'pending',
      amount: 19_900,
      currency: 643,
      product: 'credits_100',
      held: 0,
      return_path: `/generate/simple/?payment=${created.uuid}`,
    });
    for (const wrong of ['', `?key=${'0'.repeat(32)}`]) {
      const refused = await t.app.inject({ url: `/api/payments/invoices/${created.uuid}/${wrong}` });
      expect(refused.statusCode).toBe(404);
    }
    const forged = yookassaNotification({ id: row.providerPaymentId, status: 'succeeded', paid: true });
    const outside = await post('/api/payments/webhooks/yookassa/', forged, {}, '203.0.113.7');
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'payments.signature_invalid' });
    // From a trusted address but the payment is still pending at YooKassa: nothing is granted.
    expect((await post('/api/payments/webhooks/yookassa/', forged)).statusCode).toBe(200);
    expect((await orderRow(created.uuid)).status).toBe('pending');
    expect(await balanceOf(headers)).toBe(0);
    // A payment YooKassa does not know is refused.
    const unknown = yookassaNotification({ id: 'nope-1' });
    expect((await post('/api/payments/webhooks/yookassa/', unknown)).statusCode).toBe(403);
  });

  it('grants once when the same payment is notified five times at once', async () => {
    const { headers } = await buyer('RU');
    const created = await order(headers, 'yookassa_sbp');
    const row = await orderRow(created.uuid);
    const payment = yookassa.payments.get(row.providerPaymentId!)!;
    yookassa.setWebhookUrl(null);
    await yookassa.act(payment.id, 'pay');
    yookassa.setWebhookUrl(`${appUrl}/api/payments/webhooks/yookassa/`);
    await deliverFiveTimesGrantingOnce(
      '/api/payments/webhooks/yookassa/',
      yookassaNotification({ id: payment.id }),
      headers,
    );
    const events = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.orderUuid, created.uuid));
    expect(events).toHaveLength(1);
  });

  it('records a declined card without granting, and refunds a paid order taking the credits back', async () => {
    const { headers } = await buyer('RU');
    const declined = await order(headers, 'yookassa_bank_card');
    await yookassa.act((await orderRow(declined.uuid)).providerPaymentId!, 'decline');
    expect((await orderRow(declined.uuid)).status).toBe('failed');

    const paid = await order(headers, 'yookassa_bank_card');
    await yookassa.act((await orderRow(paid.uuid)).providerPaymentId!, 'pay');
    expect(await balanceOf(headers)).toBe(100);
    await refundTakesCreditsBack(paid.uuid, headers);
  });

  it('re-checks a pending payment whose notification was lost', async () => {
    const { headers } = await buyer('RU');
    const created = await order(headers, 'yookassa_bank_card');
    yookassa.setWebhookUrl(null);
    await yookassa.act((await orderRow(created.uuid)).providerPaymentId!, 'pay');
    yookassa.setWebhookUrl(`${appUrl}/api/payments/webhooks/yookassa/`);
    expect((await orderRow(created.uuid)).status).toBe('pending');
    t.setNow(new Date(Date.now() + 15 * 60_000));
    try {
      expect(await reconcilePendingOrders(t.deps)).toBeGreaterThanOrEqual(1);
    } finally {
      t.setNow(undefined);
    }
    expect((await orderRow(created.uuid)).status).toBe('paid');
    expect(await balanceOf(headers)).toBe(100);
  });
});

describe('Stripe', () => {
  it('pays through Checkout in payment mode and grants once, however often the event is delivered', async () => {
    const { user, headers } = await buyer('DE');
    const created = await order(headers, 'stripe');
    const row = await orderRow(created.uuid);
    const session = stripe.sessions.get(row.providerPaymentId!)!;
    expect(session).toMatchObject({
      mode: 'payment',
      client_reference_id: created.uuid,
      customer_email: user.email,
      amount_total: 299,
      currency: 'usd',
    });
    await stripe.act(session.id as string, 'pay');
    expect(stripe.events.at(-1)).toMatchObject({ type: 'checkout.session.completed', status: 200 });
    expect(await balanceOf(headers)).toBe(100);

    // The same signed event five times at once (Stripe retries; a replay within the tolerance).
    const { payload, signature } = stripe.events.at(-1)!;
    await deliverFiveTimesGrantingOnce('/api/payments/webhooks/stripe/', payload, headers, {
      'stripe-signature': signature,
    });

    // Refund: Stripe answers with charge.refunded, which takes the credits back.
    await refundTakesCreditsBack(created.uuid, headers);
  });

  it('refuses forged, tampered and stale events', async () => {
    const { headers } = await buyer('DE');
    const created = await order(headers, 'stripe');
    const row = await orderRow(created.uuid);
    const completed = {
      id: 'evt_forged',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: row.providerPaymentId,
          mode: 'payment',
          client_reference_id: created.uuid,
          payment_status: 'paid',
          payment_intent: 'pi_forged',
          amount_total: 299,
          currency: 'usd',
        },
      },
    };
    const body = JSON.stringify(completed);
    const unsigned = await post('/api/payments/webhooks/stripe/', body);
    expect(unsigned.statusCode).toBe(403);
    const now = Math.floor(Date.now() / 1000);
    const wrongKey = await post('/api/payments/webhooks/stripe/', body, {
      'stripe-signature': stripeSignature(now, body, 'whsec_not_the_key'),
    });
    expect(wrongKey.statusCode).toBe(403);
    // A real event from an hour ago, replayed: outside Stripe's five-minute tolerance.
    const stale = await post('/api/payments/webhooks/stripe/', body, {
      'stripe-signature': stripeSignature(now - 3600, body),
    });
    expect(stale.statusCode).toBe(403);
    // Tampered: signed, then the amount changed.
    const tampered = await post(
      '/api/payments/webhooks/stripe/',
      body.replace('"amount_total":299', '"amount_total":2990'),
      { 'stripe-signature': stripeSignature(now, body) },
    );
    expect(tampered.statusCode).toBe(403);
    // Signed for a time ahead of the clock (beyond a few minutes of skew): it would outlive any
    // replay window. A sender's clock a minute fast is still heard.
    for (const ahead of [3600, 86_400 * 365]) {
      const future = await post('/api/payments/webhooks/stripe/', body, {
        'stripe-signature': stripeSignature(now + ahead, body),
      });
      expect(future.statusCode).toBe(403);
    }
    expect((await orderRow(created.uuid)).status).toBe('pending');
    expect(await balanceOf(headers)).toBe(0);
    const fast = JSON.stringify({
      ...completed,
      id: 'evt_signed_fast',
      type: 'checkout.session.expired',
      created: now,
    });
    const heard = await post('/api/payments/webhooks/stripe/', fast, {
      'stripe-signature': stripeSignature(now + 60, fast),
    });
    expect(heard.statusCode).toBe(200);
  });

  it('answers 400 to a correctly signed event it cannot read (object null, a string, without id), applying nothing', async () => {
    const { headers } = await buyer('DE');
    const created = await order(headers, 'stripe');
    const now = Math.floor(Date.now() / 1000);
    const objects: unknown[] = [
      null,
      'cs_just_a_string',
      { mode: 'payment', client_reference_id: created.uuid, payment_status: 'paid', amount_total: 299 },
    ];
    const types = [
      'checkout.session.completed',
      'invoice.paid',
      'charge.refunded',
      'customer.subscription.updated',
    ];
    for (const [i, object] of objects.entries()) {
      for (const type of types) {
        const body = JSON.stringify({
          id: `evt_malformed_${i}_${type}`,
          type,
          created: now,
          data: { object },
        });
        const answer = await post('/api/payments/webhooks/stripe/', body, {
          'stripe-signature': stripeSignature(now, body),
        });
        expect(answer.statusCode, `${type} ${JSON.stringify(object)}`).toBe(400);
        expect(answer.json()).toMatchObject({ code: 'payments.notification_invalid' });
      }
    }
    const noData = JSON.stringify({ id: 'evt_no_data', type: 'checkout.session.completed', created: now });
    const answer = await post('/api/payments/webhooks/stripe/', noData, {
      'stripe-signature': stripeSignature(now, noData),
    });
    expect(answer.statusCode).toBe(400);
    expect((await orderRow(created.uuid)).status).toBe('pending');
    expect(await balanceOf(headers)).toBe(0);
  });

  it('a declined card leaves the order unpaid', async () => {
    const { headers } = await buyer('DE');
    const created = await order(headers, 'stripe');
    const sessionId = (await orderRow(created.uuid)).providerPaymentId!;
    await stripe.act(sessionId, 'decline');
    expect(stripe.sessions.get(sessionId)).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    expect((await orderRow(created.uuid)).status).toBe('pending');
    expect(await balanceOf(headers)).toBe(0);
  });

  it('cancelled on Checkout: back through the cancel link, the session is expired and the order cancelled, once', async () => {
    const { headers } = await buyer('DE');
    const created = await order(headers, 'stripe');
    const sessionId = (await orderRow(created.uuid)).providerPaymentId!;
    const session = stripe.sessions.get(sessionId)!;
    expect(session.success_url).toBe(`${appUrl}/generate/simple/?payment=${created.uuid}`);
    expect(session.cancel_url).toBe(`${appUrl}/generate/simple/?payment=${created.uuid}&payment_cancelled=1`);

    // Stripe does nothing when the buyer cancels: the app, back on the cancel link, closes it.
    const cancel = () =>
      t.app.inject({ method: 'POST', url: `/api/payments/orders/${created.uuid}/cancel/`, headers });
    const first = await cancel();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ uuid: created.uuid, status: 'cancelled' });
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
    // The expired session's event comes too, and a second cancel: neither changes anything.
    await expect
      .poll(() => stripe.events.find((e) => e.type === 'checkout.session.expired')?.status, {
        timeout: 10_000,
      })
      .toBe(200);
    expect((await cancel()).json()).toMatchObject({ status: 'cancelled' });
    // A tab left open on the session can no longer pay it.
    await stripe.act(sessionId, 'pay');
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
    expect(await balanceOf(headers)).toBe(0);

    // Someone else's order is not found.
    const other = await buyer('DE');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/payments/orders/${created.uuid}/cancel/`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('a payment that got there before the cancel stands: the order answers paid', async () => {
    const { headers } = await buyer('DE');
    const created = await order(headers, 'stripe');
    const sessionId = (await orderRow(created.uuid)).providerPaymentId!;
    await stripe.act(sessionId, 'pay');
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/payments/orders/${created.uuid}/cancel/`,
      headers,
    });
    expect(answer.json()).toMatchObject({ status: 'paid' });
    expect(stripe.sessions.get(sessionId)!.status).toBe('complete');
    expect(await balanceOf(headers)).toBe(100);
  });
});

describe('Cryptomus', () => {
  it('pays an invoice, granting only on the final paid status, once', async () => {
    const { headers } = await buyer('DE');
    const created = await order(headers, 'cryptomus');
    const row = await orderRow(created.uuid);
    const invoice = cryptomus.invoices.get(row.providerPaymentId!)!;
    expect(invoice).toMatchObject({ order_id: created.uuid, amount: '2.99', currency: 'USD' });
    expect(created.confirmation_url).toBe(invoice.url);
    await cryptomus.act(invoice.uuid as string, 'pay');
    // confirm_check (not final) then paid: both accepted, only the second grants.
    expect(cryptomus.callbacks.slice(-2).map((c) => c.status)).toEqual([200, 200]);
    expect(await balanceOf(headers)).toBe(100);
    // Replays of the signed callback change nothing.
    const last = cryptomus.callbacks.at(-1)!.body;
    await deliverFiveTimesGrantingOnce('/api/payments/webhooks/cryptomus/', last, headers);

    await refundTakesCreditsBack(created.uuid, headers);
  });

  it('refuses callbacks not signed with the key, and a wrong amount pays nothing', async () => {
    const { headers } = await buyer('DE');
    const created = await order(headers, 'cryptomus');
    const row = await orderRow(created.uuid);
    const body = {
      type: 'payment',
      uuid: row.providerPaymentId,
      order_id: created.uuid,
      amount: '2.99',
      is_final: true,
      status: 'paid',
      currency: 'USD',
      url: 'https://example.com/a/b',
    };
    const forged = phpJsonEncode({ ...body, sign: cryptomusSign(phpJsonEncode(body), 'not-the-key') });
    expect((await post('/api/payments/webhooks/cryptomus/', forged)).statusCode).toBe(403);
    // Signed without PHP's escaping of "/": not what Cryptomus signs, refused.
    const unescaped = JSON.stringify({
      ...body,
      sign: cryptomusSign(JSON.stringify(body), cryptomus.apiKey),
    });
    expect((await post('/api/payments/webhooks/cryptomus/', unescaped)).statusCode).toBe(403);
    // Signed exactly as Cryptomus signs: accepted.
    const genuine = phpJsonEncode({ ...body, sign: cryptomusSign(phpJsonEncode(body), cryptomus.apiKey) });
    expect((await post('/api/payments/webhooks/cryptomus/', genuine)).statusCode).toBe(200);
    expect(await balanceOf(headers)).toBe(100);

    const short = await order(headers, 'cryptomus');
    await cryptomus.act((await orderRow(short.uuid)).providerPaymentId!, 'wrong_amount');
    expect((await orderRow(short.uuid)).status).toBe('failed');
    expect(await balanceOf(headers)).toBe(100);
  });
});

describe('Telegram Stars', () => {
  let nextTelegramId = 700_000_000 + Math.floor(Math.random() * 100_000_000);
  const miniAppBuyer = async (startParam?: string) => {
    const tgUser = { id: nextTelegramId++, first_name: 'Ada', language_code: 'en', allows_write_to_pm: true };
    return {
      tgUser,
      headers: { authorization: `TG ${miniAppInitData(tgUser, startParam)}`, 'x-country': 'DE' },
    };
  };

  it('sells for Stars inside the Mini App: an invoice link, the pre-checkout answered, credits on successful_payment once', async () => {
    const { tgUser, headers } = await miniAppBuyer();
    const catalogue = (await t.app.inject({ url: '/api/payments/catalogue/', headers })).json();
    expect(catalogue.methods).toContain('stars');
    expect(catalogue.stars_methods).toEqual(['stars']);
    expect(catalogue.products.find((p: { id: string }) => p.id === 'credits_100').stars).toBe(150);
    const created = await order(headers, 'stars');
    expect(created.confirmation_url).toMatch(/^https:\/\/t\.me\/\$/);
    const invoice = [...telegram.invoices().values()].find((i) => i.payload === created.uuid)!;
    expect(invoice).toMatchObject({ currency: 'XTR', amount: 150, subscriptionPeriod: null });

    // Someone else cannot pay this order.
    const stranger = await telegram.payInvoice(
      created.confirmation_url,
      telegram.newUser({ language_code: 'ru' }),
    );
    expect(stranger.status).toBe('failed');
    // Telegram shows the refusal to the buyer: in their language.
    expect(telegram.calls('answerPreCheckoutQuery').at(-1)!.params).toMatchObject({
      ok: false,
      error_message: translate('ru', 'bot.order_unavailable'),
    });

    const paid = await telegram.payInvoice(
      created.confirmation_url,
      telegram.newUser({ ...tgUser, is_bot: false }),
    );
    expect(paid.status).toBe('paid');
    expect(await balanceOf(headers)).toBe(100);
    expect((await orderRow(created.uuid)).providerPaymentId).toBe(paid.chargeId);

    // The same successful_payment delivered again: deduplicated by telegram_payment_charge_id.
    const delivery = telegram
      .deliveries()
      .find((d) => (d.update.message as { successful_payment?: unknown })?.successful_payment)!;
    await telegram.deliverUpdate({ ...delivery.update, update_id: delivery.update.update_id + 1_000_000 });
    expect(await balanceOf(headers)).toBe(100);
    // A paid order is not paid twice.
    expect(
      (await telegram.payInvoice(created.confirmation_url, telegram.newUser({ ...tgUser }))).status,
    ).toBe('failed');

    // Refund through the Bot API: final once Telegram answers, so the order reads refunded the
    // moment the refund returns (staff see it at once), its credits taken back once; the
    // refunded_payment message that follows is the same event and changes nothing more.
    expect(await refundOrder(t.deps, created.uuid)).toBe('refunded');
    expect((await orderRow(created.uuid)).status).toBe('refunded');
    expect(await balanceOf(headers)).toBe(0);
    expect(telegram.calls('refundStarPayment').at(-1)!.params).toMatchObject({
      user_id: tgUser.id,
      telegram_payment_charge_id: paid.chargeId,
    });
    await expect
      .poll(
        () =>
          telegram
            .deliveries()
            .find((d) => (d.update.message as { refunded_payment?: unknown })?.refunded_payment)?.status,
        { timeout: 10_000 },
      )
      .toBe(200);
    const applied = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.orderUuid, created.uuid));
    expect(applied.filter((e) => e.type === 'refund.succeeded')).toHaveLength(1);
    expect(await balanceOf(headers)).toBe(0);
  });

  it('finds a paid invoice whose successful_payment was lost in the bot’s Star transactions, once', async () => {
    const { tgUser, headers } = await miniAppBuyer();
    // Another buyer's invoice still unpaid, and this one paid with the message lost.
    const other = await order((await miniAppBuyer()).headers, 'stars');
    const created = await order(headers, 'stars');
    const paid = await telegram.payInvoice(
      created.confirmation_url,
      telegram.newUser({ ...tgUser, is_bot: false }),
      { loseSuccessfulPayment: true },
    );
    expect(paid.status).toBe('paid');
    expect((await orderRow(created.uuid)).status).toBe('pending');

    t.setNow(new Date(Date.now() + 15 * 60_000));
    try {
      await reconcilePendingOrders(t.deps);
    } finally {
      t.setNow(undefined);
    }
    expect(telegram.calls('getStarTransactions').at(-1)!.params).toMatchObject({ offset: 0, limit: 100 });
    expect(await orderRow(created.uuid)).toMatchObject({ status: 'paid', providerPaymentId: paid.chargeId });
    expect(await balanceOf(headers)).toBe(100);
    expect((await orderRow(other.uuid)).status).toBe('pending');

    // The message arriving late after all is the same payment: nothing more is granted.
    const payment = {
      currency: 'XTR',
      total_amount: 150,
      invoice_payload: created.uuid,
      telegram_payment_charge_id: paid.chargeId,
      provider_payment_charge_id: `${tgUser.id}_1`,
    };
    await telegram.deliverUpdate({
      update_id: 900_000_000 + Math.floor(Math.random() * 1000),
      message: {
        message_id: 1,
        from: telegram.newUser({ ...tgUser }),
        chat: { id: tgUser.id, type: 'private' },
        date: Math.floor(Date.now() / 1000),
        successful_payment: payment,
      } as never,
    });
    expect(await balanceOf(headers)).toBe(100);
  });

  it('a partner sees a team member who paid in Stars as paid (Stars earn no commission), until it is refunded', async () => {
    const partner = await buyer('RU');
    const { tgUser, headers } = await miniAppBuyer(`ref_${partner.user.referralCode}`);
    // The buyer's first request makes the account, joined through the partner's link.
    expect((await t.app.inject({ url: '/api/payments/catalogue/', headers })).statusCode).toBe(200);
    const team = async (query = '') =>
      (await t.app.inject({ url: `/api/linear/${query}`, headers: partner.headers })).json()
        .results as Array<{ name: string; paid: boolean }>;
    expect(await team()).toEqual([expect.objectContaining({ paid: false })]);

    const created = await order(headers, 'stars');
    const paid = await telegram.payInvoice(
      created.confirmation_url,
      telegram.newUser({ ...tgUser, is_bot: false }),
    );
    expect(paid.status).toBe('paid');
    expect(await team()).toEqual([expect.objectContaining({ paid: true })]);
    expect(await team('?paid=true')).toHaveLength(1);
    expect(await team('?paid=false')).toEqual([]);

    // Wholly refunded, the purchase no longer makes them a paying member.
    expect(await refundOrder(t.deps, created.uuid)).toBe('refunded');
    expect(await team()).toEqual([expect.objectContaining({ paid: false })]);
    expect(await team('?paid=true')).toEqual([]);
  });

  it('refuses a forged update without the webhook secret', async () => {
    const forged = await post(
      '/api/tg/webhook/',
      JSON.stringify({
        update_id: 1,
        message: { message_id: 1, chat: { id: 1, type: 'private' }, successful_payment: {} },
      }),
      {
        'x-telegram-bot-api-secret-token': 'wrong',
      },
    );
    expect(forged.statusCode).toBe(403);
  });
});

describe('what subscriptions need from the providers', () => {
  /** The subscriptions module's side, as a recorder: every event of a `subscription` order. */
  const seen: Array<{ order: PaymentOrderView; event: PaymentEvent }> = [];
  beforeAll(() => {
    t.deps.purposeHandlers.subscription = async (_tx, order, event) => {
      seen.push({ order, event });
    };
  });
  const plan = (
    userId: number,
    method: Parameters<typeof startPayment>[1]['method'],
    amount: number,
    currency: number,
  ) =>
    startPayment(t.deps, {
      userId,
      purpose: 'subscription',
      purposeRef: `sub-${userId}`,
      method,
      product: 'premium_month',
      amount,
      currency,
      description: 'Mirra Premium, 1 month',
      returnPath: '/settings/subscription/',
      consent: { agreeOffer: true, agreePrivacy: true },
      // As subscriptions start it: Mirra charges a kept YooKassa card, the others renew by themselves.
      ...(method.startsWith('yookassa_') ? { saveMethod: true } : { recurring: { periodDays: 30 } }),
    });

  it('YooKassa: the first payment saves the method, renewals charge it with no buyer present', async () => {
    const { user } = await buyer('RU');
    const first = await plan(user.id, 'yookassa_bank_card', 99_000, 643);
    const payment = yookassa.payments.get((await orderRow(first.uuid)).providerPaymentId!)!;
    expect(payment.save_payment_method).toBe(true);
    await yookassa.act(payment.id, 'pay');
    const paid = seen.find((s) => s.order.uuid === first.uuid && s.event.type === 'payment.succeeded')!;
    expect(paid.order).toMatchObject({
      purpose: 'subscription',
      purposeRef: `sub-${user.id}`,
      status: 'paid',
    });
    expect(paid.event.savedMethodId).toBe(payment.payment_method!.id);
    // No credits for a subscription order: its module decides what it grants.
    expect(await balanceOf((await buyerHeaders(user)).headers)).toBe(0);

    const renew = () =>
      chargeSavedMethod(t.deps, {
        userId: user.id,
        purpose: 'subscription',
        purposeRef: `sub-${user.id}`,
        product: 'premium_month',
        amount: 99_000,
        currency: 643,
        description: 'Mirra Premium, renewal',
        provider: 'yookassa',
        savedMethodId: paid.event.savedMethodId!,
      });
    const renewal = await renew();
    expect(renewal.status).toBe('paid');
    const charged = yookassa.payments.get((await orderRow(renewal.uuid)).providerPaymentId!)!;
    expect(charged.metadata.order_id).toBe(renewal.uuid);
    expect(charged.confirmation).toBeUndefined();
    // The immediate answer and the notification after it: applied once.
    await expect.poll(() => yookassa.notifications.filter((n) => n.objectId === charged.id).length).toBe(1);
    expect(
      seen.filter((s) => s.order.uuid === renewal.uuid && s.event.type === 'payment.succeeded'),
    ).toHaveLength(1);

    // An expired card: the renewal fails and says so.
    yookassa.declineSavedMethod(paid.event.savedMethodId!);
    const failed = await renew();
    expect(failed.status).toBe('failed');
  });

  it('Stripe: Checkout in subscription mode, renewals and failures as events, cancel at the period end', async () => {
    const { user } = await buyer('DE');
    const first = await plan(user.id, 'stripe', 999, 840);
    const session = stripe.sessions.get((await orderRow(first.uuid)).providerPaymentId!)!;
    expect(session.mode).toBe('subscription');
    await stripe.act(session.id as string, 'pay');
    const paid = seen.find((s) => s.order.uuid === first.uuid && s.event.type === 'payment.succeeded')!;
    expect(paid.event.providerSubscriptionId).toBe(session.subscription);
    const subscriptionId = session.subscription as string;

    await stripe.renew(subscriptionId);
    // Each later period is an order of its own, paid, pointing at the first.
    const renewed = seen.find(
      (s) => s.order.renewalOf === first.uuid && s.event.type === 'subscription.renewed',
    )!;
    expect(renewed.order).toMatchObject({ status: 'paid', purpose: 'subscription', amount: 999 });
    expect(renewed.event).toMatchObject({
      amount: 999,
      currency: 840,
      providerSubscriptionId: subscriptionId,
    });
    expect(renewed.event.periodEnd!.getTime()).toBeGreaterThan(Date.now() + 50 * 86_400_000);

    await stripe.renew(subscriptionId, 'failed');
    expect(
      seen.some((s) => s.order.uuid === first.uuid && s.event.type === 'subscription.payment_failed'),
    ).toBe(true);

    await cancelProviderSubscription(t.deps, {
      provider: 'stripe',
      providerSubscriptionId: subscriptionId,
      userId: user.id,
    });
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    await expect
      .poll(() =>
        seen.some((s) => s.event.type === 'subscription.updated' && s.event.cancelAtPeriodEnd === true),
      )
      .toBe(true);
  });
});

describe('Telegram Stars subscriptions', () => {
  it('a link with subscription_period 2592000; renewals as events; cancel through editUserStarSubscription', async () => {
    const seen: Array<{ order: PaymentOrderView; event: PaymentEvent }> = [];
    t.deps.purposeHandlers.subscription = async (_tx, order, event) => {
      seen.push({ order, event });
    };
    const tgUser = telegram.newUser();
    const me = (
      await t.app.inject({
        url: '/api/users/me/',
        headers: { authorization: `TG ${miniAppInitData(tgUser)}` },
      })
    ).json();
    const userId = (await t.deps.db.select().from(users).where(eq(users.uuid, me.uuid)))[0]!.id;
    const first = await startPayment(t.deps, {
      userId,
      purpose: 'subscription',
      purposeRef: 'stars-sub',
      method: 'stars',
      product: 'premium_month',
      amount: 500,
      currency: CURRENCY_XTR,
      description: 'Mirra Premium',
      returnPath: '/',
      consent: { agreeOffer: true, agreePrivacy: true },
      recurring: { periodDays: 30 },
    });
    const invoice = [...telegram.invoices().values()].find((i) => i.payload === first.uuid)!;
    expect(invoice.subscriptionPeriod).toBe(2_592_000);
    const paid = await telegram.payInvoice(first.confirmation_url, tgUser);
    expect(paid.status).toBe('paid');
    const started = seen.find((s) => s.event.type === 'payment.succeeded')!;
    expect(started.event.providerSubscriptionId).toBe(paid.chargeId);
    expect(started.event.periodEnd!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    await telegram.renewStarSubscription(paid.chargeId!);
    expect(seen.find((s) => s.event.type === 'subscription.renewed')?.order.renewalOf).toBe(first.uuid);
    await cancelProviderSubscription(t.deps, {
      provider: 'stars',
      providerSubscriptionId: paid.chargeId!,
      userId,
    });
    expect(telegram.calls('editUserStarSubscription').at(-1)!.params).toMatchObject({
      user_id: tgUser.id,
      telegram_payment_charge_id: paid.chargeId,
      is_canceled: true,
    });
  });
});

async function buyerHeaders(user: { email: string | null; password: string }) {
  const { access } = await login(t, user.email!, user.password);
  return { headers: { ...bearer(access), 'x-country': 'RU' } };
}
