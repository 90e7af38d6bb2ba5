import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { recordWalletEntry } from '../wallet/index.js';
import type { PaymentOrderView } from './index.js';
import { configuredProviders } from './payments.providers.js';

const events: Array<{ type: 'paid' | 'refunded'; order: string }> = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { GEO_COUNTRY_HEADER: 'x-country', WELCOME_CREDITS: '0' },
    overrides: {
      paymentListeners: [
        {
          onPaid: async (_tx, order: PaymentOrderView) =>
            void events.push({ type: 'paid', order: order.uuid }),
          onRefunded: async (_tx, order: PaymentOrderView) =>
            void events.push({ type: 'refunded', order: order.uuid }),
        },
      ],
    },
  });
});
afterAll(() => t.close());

async function buyer(country = 'RU') {
  const user = await createActiveUser(t);
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: { ...bearer(access), 'x-country': country } };
}

const get = (url: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url, headers }).then((r) => r.json());
const post = (url: string, headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'POST', url, headers, payload });
const press = (url: string, action: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `action=${action}`,
  });
const consent = { agree_offer: true, agree_privacy: true };

describe('wallet pay-in and paying from the balance', () => {
  it('tops the wallet up through the test provider: pending until paid, then available', async () => {
    const { headers } = await buyer();
    const started = await post('/api/payments/orders/', headers, {
      product: 'wallet_top_up',
      amount: 50_000,
      method: 'test',
      return: '/wallet/transactions/643/',
      ...consent,
    });
    expect(started.statusCode).toBe(201);
    const { uuid, confirmation_url } = started.json();
    expect(await get('/api/wallet/', headers)).toMatchObject({
      balances: [{ currency: 643, available: 0, pending: 50_000 }, { currency: 840 }],
    });
    const paid = await press(confirmation_url, 'pay');
    expect(paid.headers.location).toBe(`/wallet/transactions/643/?payment=${uuid}`);
    expect((await get('/api/wallet/', headers)).balances[0]).toMatchObject({ available: 50_000, pending: 0 });
    const list = await get('/api/wallet/transactions/643/?filter=purchases', headers);
    expect(list.results).toMatchObject([{ kind: 'pay_in', status: 'in', amount: 50_000, ref: uuid }]);
    expect(events).toContainEqual({ type: 'paid', order: uuid });
    // A top-up the buyer declines stays out of the balance, shown as cancelled.
    const declined = (
      await post('/api/payments/orders/', headers, {
        product: 'wallet_top_up',
        amount: 20_000,
        method: 'test',
        ...consent,
      })
    ).json();
    await press(declined.confirmation_url, 'decline');
    const wallet = (await get('/api/wallet/', headers)).balances[0];
    expect(wallet).toMatchObject({ available: 50_000, pending: 0 });
    expect((await get('/api/wallet/transactions/643/', headers)).results[0]).toMatchObject({
      status: 'cancelled',
      ref: declined.uuid,
    });
  });

  it('a top-up paid after it was declined still reaches the wallet, once', async () => {
    const { headers } = await buyer();
    const started = (
      await post('/api/payments/orders/', headers, {
        product: 'wallet_top_up',
        amount: 30_000,
        method: 'test',
        ...consent,
      })
    ).json();
    await press(started.confirmation_url, 'decline');
    expect((await get('/api/wallet/', headers)).balances[0]).toMatchObject({ available: 0, pending: 0 });
    // The provider reports the money arrived after all (a late success after a decline).
    await press(started.confirmation_url, 'pay');
    expect(await get(`/api/payments/orders/${started.uuid}/`, headers)).toMatchObject({ status: 'paid' });
    expect((await get('/api/wallet/', headers)).balances[0]).toMatchObject({ available: 30_000, pending: 0 });
    await press(started.confirmation_url, 'pay');
    expect((await get('/api/wallet/', headers)).balances[0]).toMatchObject({ available: 30_000 });
  });

  it('a top-up the provider cannot start is failed, not left pending in the wallet', async () => {
    const { headers } = await buyer();
    const provider = configuredProviders(t.deps).get('test')!;
    const createPayment = provider.createPayment;
    provider.createPayment = async () => {
      throw new Error('provider unreachable');
    };
    try {
      const refused = await post('/api/payments/orders/', headers, {
        product: 'wallet_top_up',
        amount: 20_000,
        method: 'test',
        ...consent,
      });
      expect(refused.statusCode).toBe(500);
    } finally {
      provider.createPayment = createPayment;
    }
    expect((await get('/api/wallet/', headers)).balances[0]).toMatchObject({ available: 0, pending: 0 });
    expect((await get('/api/wallet/transactions/643/', headers)).results[0]).toMatchObject({
      kind: 'pay_in',
      status: 'cancelled',
    });
  });

  it('refuses a top-up outside the limits, and a top-up paid from the balance itself', async () => {
    const { headers } = await buyer();
    const tooSmall = await post('/api/payments/orders/', headers, {
      product: 'wallet_top_up',
      amount: 5,
      method: 'test',
      ...consent,
    });
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json()).toMatchObject({ code: 'wallet.amount_invalid', min: 10_000 });
    const circular = await post('/api/payments/orders/', headers, {
      product: 'wallet_top_up',
      amount: 20_000,
      method: 'balance',
      ...consent,
    });
    expect(circular.json()).toMatchObject({ code: 'payments.method_unavailable' });
  });

  it('pays a credit pack from the balance in one transaction, and refuses when the money is short', async () => {
    const { user, headers } = await buyer();
    const short = await post('/api/payments/orders/', headers, {
      product: 'credits_100',
      method: 'balance',
      ...consent,
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'wallet.insufficient', available: 0, required: 19_900 });
    expect((await get('/api/credits/', headers)).balance).toBe(0);

    await t.deps.db.transaction((tx) =>
      recordWalletEntry(
        tx,
        {
          userId: user.id,
          currency: 643,
          amount: 30_000,
          kind: 'adjustment',
          idempotencyKey: `gift:${user.id}`,
        },
        t.deps.now(),
      ),
    );
    const bought = await post('/api/payments/orders/', headers, {
      product: 'credits_100',
      method: 'balance',
      return: '/generate/simple/',
      ...consent,
    });
    expect(bought.statusCode).toBe(201);
    const { uuid, confirmation_url } = bought.json();
    // Nothing to open: the answer leads straight back, paid.
    expect(confirmation_url).toBe(`/generate/simple/?payment=${uuid}`);
    expect(await get(`/api/payments/orders/${uuid}/`, headers)).toMatchObject({
      status: 'paid',
      credits: 100,
    });
    expect((await get('/api/credits/', headers)).balance).toBe(100);
    expect((await get('/api/wallet/', headers)).balances[0]).toMatchObject({ available: 10_100 });
    expect((await get('/api/wallet/transactions/643/?filter=purchases', headers)).results[0]).toMatchObject({
      kind: 'purchase',
      status: 'out',
      amount: -19_900,
      ref: uuid,
    });
    // Two more at once with 101 roubles left: neither fits, and nothing is granted.
    const twice = await Promise.all(
      [1, 2].map(() =>
        post('/api/payments/orders/', headers, { product: 'credits_100', method: 'balance', ...consent }),
      ),
    );
    expect(twice.map((r) => r.statusCode).sort()).toEqual([400, 400]);
    expect((await get('/api/credits/', headers)).balance).toBe(100);
  });

  it('a consent is required for the balance too', async () => {
    const { headers } = await buyer();
    const refused = await post('/api/payments/orders/', headers, {
      product: 'credits_100',
      method: 'balance',
    });
    expect(refused.json()).toMatchObject({ code: 'payments.consent_required' });
  });
});
