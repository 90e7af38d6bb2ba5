import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditEntries, entitlements, paymentOrders } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyCreditChange } from '../credits/credits.usecases.js';
import { createEngineRegistry } from '../../engines/index.js';
import { testProviderOf } from './index.js';
import { TEST_SIGNATURE_HEADER } from './providers/test.provider.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      ENGINE_SIMPLE: 'test',
      FREE_DAILY_PHOTOS: '1',
      FREE_DELAY_SECONDS: '600',
      PRICE_SIMPLE: '1',
    },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [createScriptedEngine('test')]);
});
afterAll(() => t.close());

async function buyer(country = 'DE') {
  const user = await createActiveUser(t);
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: { ...bearer(access), 'x-country': country } };
}

const balanceOf = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/credits/', headers })).json().balance as number;

async function order(headers: Record<string, string>, product = 'credits_100', ret = '/generate/simple/') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/payments/orders/',
    headers,
    payload: { product, method: 'test', agree_offer: true, agree_privacy: true, return: ret },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { uuid: string; confirmation_url: string };
}

/** A notification signed as the test provider signs it, delivered to the webhook route. */
async function deliver(uuid: string, type: string, paymentId = `pay-${uuid}`) {
  const row = (await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid)))[0]!;
  const signed = testProviderOf(t.deps).signEvent({
    type: type as 'payment.succeeded',
    orderUuid: uuid,
    providerPaymentId: paymentId,
    amount: row.amount,
    currency: row.currency,
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/test/',
    headers: signed.headers,
    payload: signed.body,
  });
}

describe('payments', () => {
  it('prices the catalogue in roubles in Russia and in dollars elsewhere, and keeps a chosen region', async () => {
    const ru = await buyer('RU');
    const ruCatalogue = (
      await t.app.inject({ method: 'GET', url: '/api/payments/catalogue/', headers: ru.headers })
    ).json();
    expect(ruCatalogue).toMatchObject({ region: 'ru', currency: 643, methods: ['test', 'balance'] });
    expect(ruCatalogue.products.find((p: { id: string }) => p.id === 'credits_100')).toEqual({
      id: 'credits_100',
      kind: 'credits',
      credits: 100,
      days: 0,
      amount: 19_900,
      currency: 643,
      stars: 150,
    });
    const de = await buyer('DE');
    const deCatalogue = (
      await t.app.inject({ method: 'GET', url: '/api/payments/catalogue/', headers: de.headers })
    ).json();
    expect(deCatalogue).toMatchObject({ region: 'intl', currency: 840 });
    expect(deCatalogue.products[0]).toMatchObject({ amount: 299, currency: 840 });

    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/payments/region/',
      headers: de.headers,
      payload: { region: 'ru' },
    });
    expect(changed.json()).toMatchObject({ region: 'ru', currency: 643 });
    // The order is charged at the chosen region's price, whatever the client thinks.
    const { uuid } = await order(de.headers);
    const [row] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid));
    expect(row).toMatchObject({ amount: 19_900, currency: 643, credits: 100, status: 'pending' });
  });

  it('refuses an order without both boxes ticked, and stores the consent with the order', async () => {
    const { headers } = await buyer();
    for (const boxes of [
      {},
      { agree_offer: true },
      { agree_privacy: true },
      { agree_offer: false, agree_privacy: true },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/payments/orders/',
        headers,
        payload: { product: 'credits_100', method: 'test', ...boxes },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'payments.consent_required',
        detail: 'Please check the boxes to agree with the offer.',
      });
    }
    const { uuid, confirmation_url } = await order(headers);
    expect(confirmation_url).toMatch(
      new RegExp(`^/api/payments/test/checkout/${uuid}/\\?token=[0-9a-f]{32}$`),
    );
    const [row] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid));
    expect(row).toMatchObject({
      offerVersion: '2026-01',
      privacyVersion: '2026-01',
      returnPath: '/generate/simple/',
    });
    expect(row!.consentedAt).toBeInstanceOf(Date);
  });

  it('refuses an order at another price than the one shown, naming the price it would charge', async () => {
    const { user, headers } = await buyer('RU');
    const ordersOf = async () =>
      t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.userId, user.id));
    const ask = (amount: number, currency: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/orders/',
        headers,
        payload: {
          product: 'credits_100',
          method: 'test',
          agree_offer: true,
          agree_privacy: true,
          amount,
          currency,
        },
      });
    for (const [amount, currency] of [
      [15_900, 643],
      [299, 840],
    ] as const) {
      const refused = await ask(amount, currency);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'payments.price_changed', amount: 19_900, currency: 643 });
    }
    expect(await ordersOf()).toEqual([]);
    const agreed = await ask(19_900, 643);
    expect(agreed.statusCode, agreed.body).toBe(201);
    expect((await ordersOf()).map((o) => [o.amount, o.currency])).toEqual([[19_900, 643]]);
  });

  it('refuses a notification whose signature is forged, and applies nothing', async () => {
    const { headers } = await buyer();
    const { uuid } = await order(headers);
    const body = JSON.stringify({
      type: 'payment.succeeded',
      order_uuid: uuid,
      payment_id: 'x',
      amount: 299,
      currency: 840,
    });
    for (const signature of ['0'.repeat(64), 'not-hex', undefined]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/test/',
        headers: {
          'content-type': 'application/json',
          ...(signature ? { [TEST_SIGNATURE_HEADER]: signature } : {}),
        },
        payload: body,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('payments.signature_invalid');
    }
    // A valid signature of another body does not verify this one.
    const signed = testProviderOf(t.deps).signEvent({
      type: 'payment.failed',
      orderUuid: uuid,
      providerPaymentId: 'x',
      amount: 299,
      currency: 840,
    });
    const swapped = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/test/',
      headers: signed.headers,
      payload: body,
    });
    expect(swapped.statusCode).toBe(403);
    expect(await balanceOf(headers)).toBe(0);
    const [row] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid));
    expect(row!.status).toBe('pending');
  });

  it('grants a payment notified five times at once exactly once', async () => {
    const { user, headers } = await buyer();
    const { uuid } = await order(headers, 'credits_300');
    const responses = await Promise.all(Array.from({ length: 5 }, () => deliver(uuid, 'payment.succeeded')));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await balanceOf(headers)).toBe(300);
    const entries = await t.deps.db.select().from(creditEntries).where(eq(creditEntries.userId, user.id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'purchase',
      delta: 300,
      idempotencyKey: `payment:${uuid}:grant`,
    });
    // A late decline of a paid order changes nothing.
    await deliver(uuid, 'payment.failed');
    const [row] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid));
    expect(row).toMatchObject({ status: 'paid', providerPaymentId: `pay-${uuid}` });
  });

  it('extends the unlimited package once for a payment notified five times at once', async () => {
    const { user, headers } = await buyer();
    const { uuid } = await order(headers, 'unlimited_30');
    const before = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => deliver(uuid, 'payment.succeeded')));
    const [entitlement] = await t.deps.db.select().from(entitlements).where(eq(entitlements.userId, user.id));
    const days = (entitlement!.until.getTime() - before) / 86_400_000;
    expect(Math.round(days)).toBe(30);
  });

  it('takes back only the unspent credits of a refunded purchase, once', async () => {
    const { user, headers } = await buyer();
    const { uuid } = await order(headers, 'credits_100');
    await deliver(uuid, 'payment.succeeded');
    await t.deps.db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: user.id,
        delta: -70,
        kind: 'generation_charge',
        idempotencyKey: `spend-${uuid}`,
      }),
    );
    expect(await balanceOf(headers)).toBe(30);
    await Promise.all([deliver(uuid, 'refund.succeeded'), deliver(uuid, 'refund.succeeded')]);
    expect(await balanceOf(headers)).toBe(0);
    const [row] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid));
    expect(row).toMatchObject({ status: 'refunded', creditsTakenBack: 30, creditsUnrecovered: 70 });
    const refunds = (
      await t.deps.db.select().from(creditEntries).where(eq(creditEntries.userId, user.id))
    ).filter((e) => e.kind === 'purchase_refund');
    expect(refunds).toEqual([
      expect.objectContaining({ delta: -30, idempotencyKey: `payment:${uuid}:refund` }),
    ]);
  });

  it('lifts the free-tier pause with the unlimited package, and puts it back on refund', async () => {
    const { user, headers } = await buyer();
    await t.deps.db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: user.id,
        delta: 50,
        kind: 'adjustment',
        idempotencyKey: `rich-${user.id}`,
      }),
    );
    const generate = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/generations/',
        headers,
        payload: { mode: 'simple', prompt: 'a tree' },
      });
    expect((await generate()).statusCode).toBe(201);
    expect((await generate()).statusCode).toBe(429);

    const { uuid } = await order(headers, 'unlimited_30');
    await deliver(uuid, 'payment.succeeded');
    const [entitlement] = await t.deps.db.select().from(entitlements).where(eq(entitlements.userId, user.id));
    expect(entitlement!.until.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect((await generate()).statusCode).toBe(201);
    expect((await generate()).statusCode).toBe(201);

    await deliver(uuid, 'refund.succeeded');
    expect((await generate()).statusCode).toBe(429);
  });

  it('pays through the test checkout page and sends the buyer back where they were', async () => {
    const { headers } = await buyer();
    const { uuid, confirmation_url } = await order(headers, 'credits_100', '/generate/simple/?x=1');
    const page = await t.app.inject({
      method: 'GET',
      url: confirmation_url,
      headers: { 'accept-language': 'de' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Testzahlung – es fließt kein Geld');
    // The amount as a German reader writes it.
    expect(page.body).toContain('2,99\u00a0$');
    // The order's uuid alone (it is in the return address) opens nothing: the page needs its token.
    const bare = `/api/payments/test/checkout/${uuid}/`;
    for (const forged of [bare, `${bare}?token=${'0'.repeat(32)}`]) {
      const refused = await t.app.inject({ method: 'GET', url: forged });
      expect(refused.statusCode).toBe(404);
      const refusedPost = await t.app.inject({
        method: 'POST',
        url: forged,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'action=pay',
      });
      expect(refusedPost.json()).toEqual({ code: 'payments.order_not_found', detail: 'Not found.' });
    }
    expect(await balanceOf(headers)).toBe(0);
    const paid = await t.app.inject({
      method: 'POST',
      url: confirmation_url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=pay',
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/generate/simple/?x=1&payment=${uuid}`);
    expect(await balanceOf(headers)).toBe(100);
    const shown = await t.app.inject({ method: 'GET', url: `/api/payments/orders/${uuid}/`, headers });
    expect(shown.json()).toMatchObject({ status: 'paid', credits: 100 });

    // Paid, the page offers a refund instead; it takes the pack's unspent credits back, once.
    expect((await t.app.inject({ method: 'GET', url: confirmation_url })).body).toContain(
      'data-action="refund"',
    );
    for (let i = 0; i < 2; i++) {
      const refunded = await t.app.inject({
        method: 'POST',
        url: confirmation_url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'action=refund',
      });
      expect(refunded.statusCode).toBe(303);
      expect(refunded.headers.location).toBe(confirmation_url);
    }
    expect(await balanceOf(headers)).toBe(0);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/payments/orders/${uuid}/`, headers })).json().status,
    ).toBe('refunded');
  });

  it('records a declined payment without granting anything', async () => {
    const { headers } = await buyer();
    const { uuid, confirmation_url } = await order(headers);
    const declined = await t.app.inject({
      method: 'POST',
      url: confirmation_url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=decline',
    });
    expect(declined.headers.location).toBe(`/generate/simple/?payment=${uuid}`);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/payments/orders/${uuid}/`, headers })).json().status,
    ).toBe('failed');
    expect(await balanceOf(headers)).toBe(0);
  });
});
