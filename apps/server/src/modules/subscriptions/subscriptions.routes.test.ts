import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, paymentOrders, premiumSubscriptions, users } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyCreditChange } from '../credits/index.js';
import { createEngineRegistry } from '../../engines/index.js';
import { applyPaymentEvent, refundOrder, type PaymentOrderView } from '../payments/index.js';
import { recordWalletEntry } from '../wallet/index.js';
import { renewDueSubscriptions } from './index.js';

const DAY = 86_400_000;
const refunded: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      ENGINE_SIMPLE: 'test',
      FREE_DAILY_PHOTOS: '0',
      FREE_DELAY_SECONDS: '600',
      PRICE_SIMPLE: '1',
      PREMIUM_PLAN: JSON.stringify({
        id: 'premium_monthly',
        period_days: 30,
        trial_days: 3,
        trial_credits: 20,
        credits: 300,
        prices: { ru: 99_000, intl: 1_299, xtr: 650 },
      }),
    },
    overrides: {
      paymentListeners: [
        { onRefunded: async (_tx, order: PaymentOrderView) => void refunded.push(order.uuid) },
      ],
    },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [createScriptedEngine('test')]);
});
afterAll(() => t.close());

interface Who {
  user: { id: number; email: string | null; password: string };
  country: string;
  signedIn?: { at: number; headers: Record<string, string> };
}

async function person(country = 'RU', telegramId?: number) {
  const user = await createActiveUser(t);
  if (telegramId) await t.deps.db.update(users).set({ telegramId }).where(eq(users.id, user.id));
  const who: Who = { user, country };
  return { user, headers: who };
}

/** A session valid at the app's clock (the tests move it by days). */
async function headersOf(who: Who): Promise<Record<string, string>> {
  const now = t.deps.now().getTime();
  if (!who.signedIn || Math.abs(now - who.signedIn.at) > 60_000) {
    const { access } = await login(t, who.user.email!, who.user.password);
    who.signedIn = { at: now, headers: { ...bearer(access), 'x-country': who.country } };
  }
  return who.signedIn.headers;
}
const get = async (url: string, who: Who) =>
  t.app.inject({ method: 'GET', url, headers: await headersOf(who) }).then((r) => r.json());
const post = async (url: string, who: Who, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: await headersOf(who), payload });
const press = (url: string, action: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `action=${action}`,
  });
const checkout = { method: 'test', agree_offer: true, agree_privacy: true };
const credits = async (headers: Who) => (await get('/api/credits/', headers)).balance as number;
const state = (headers: Who) => get('/api/subscriptions/me/', headers);

/** Starts premium on the test checkout page: the trial when the person may still have it. */
async function subscribe(headers: Who, action = 'pay') {
  const started = await post('/api/subscriptions/', headers, checkout);
  expect(started.statusCode).toBe(200);
  const { uuid, confirmation_url } = started.json();
  const page = await t.app.inject({ method: 'GET', url: confirmation_url });
  expect(page.body).toContain('data-testid="checkout-save-method"');
  const back = await press(confirmation_url, action);
  expect(back.headers.location).toBe(`/settings/subscription/?payment=${uuid}`);
  return uuid as string;
}

/** Moves the clock (and the subscription's dates stay where they were). */
function at(date: Date | undefined) {
  t.setNow(date);
}

describe('premium subscription', () => {
  it('shows the plan at the region’s price, and the consent boxes are required', async () => {
    const ru = await person('RU');
    expect(await state(ru.headers)).toMatchObject({
      plan: {
        id: 'premium_monthly',
        period_days: 30,
        trial_days: 3,
        credits: 300,
        amount: 99_000,
        currency: 643,
        stars: 650,
      },
      region: 'ru',
      methods: ['test', 'balance'],
      status: 'none',
      premium: false,
      trial_available: true,
      next_charge_at: null,
    });
    const intl = await person('DE');
    expect((await state(intl.headers)).plan).toMatchObject({ amount: 1_299, currency: 840 });
    const refused = await post('/api/subscriptions/', ru.headers, { method: 'test' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'payments.consent_required',
      detail: 'Please check the boxes to agree with the offer.',
    });
  });

  it('refuses to start a checkout at another price than the one shown, naming the price it would charge', async () => {
    const ru = await person('RU');
    const consent = { method: 'test', agree_offer: true, agree_privacy: true };
    // Shown in dollars (the page was opened before the region changed): nothing is ordered.
    const stale = await post('/api/subscriptions/', ru.headers, { ...consent, amount: 1_299, currency: 840 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'payments.price_changed', amount: 99_000, currency: 643 });
    expect((await state(ru.headers)).status).toBe('none');
    const agreed = await post('/api/subscriptions/', ru.headers, {
      ...consent,
      amount: 99_000,
      currency: 643,
    });
    expect(agreed.statusCode, agreed.body).toBe(200);
  });

  it('trial, then a renewal charged to the saved card ahead of the date: premium and credits each period', async () => {
    const start = new Date('2032-01-10T10:00:00Z');
    at(start);
    try {
      const { headers } = await person('RU');
      await subscribe(headers);
      const trial = await state(headers);
      expect(trial).toMatchObject({
        status: 'trialing',
        premium: true,
        auto_renew: true,
        trial_available: false,
      });
      expect(trial.access_until).toBe(new Date(start.getTime() + 3 * DAY).toISOString());
      expect(trial.next_charge_at).toBe(trial.access_until);
      expect(await credits(headers)).toBe(20);

      // Nothing is due before the day ahead of the charge date.
      at(new Date(start.getTime() + 1 * DAY));
      await renewDueSubscriptions(t.deps);
      expect(await credits(headers)).toBe(20);
      at(new Date(start.getTime() + 2 * DAY + 3_600_000));
      await Promise.all([renewDueSubscriptions(t.deps), renewDueSubscriptions(t.deps)]);
      const renewed = await state(headers);
      expect(renewed).toMatchObject({ status: 'active', premium: true, amount: 99_000, currency: 643 });
      expect(renewed.access_until).toBe(new Date(start.getTime() + 33 * DAY).toISOString());
      expect(await credits(headers)).toBe(320);
      // The same period is never charged twice.
      await renewDueSubscriptions(t.deps);
      expect(await credits(headers)).toBe(320);
    } finally {
      at(undefined);
    }
  });

  it('does not charge a renewal again while the last charge is still pending at the provider', async () => {
    const start = new Date('2035-02-01T00:00:00Z');
    at(start);
    try {
      const { user, headers } = await person('RU');
      await subscribe(headers);
      const [sub] = await t.deps.db
        .select()
        .from(premiumSubscriptions)
        .where(eq(premiumSubscriptions.userId, user.id));
      // A renewal sent earlier that the provider has not answered yet.
      await t.deps.db.insert(paymentOrders).values({
        userId: user.id,
        product: 'premium_monthly',
        provider: 'test',
        purpose: 'subscription',
        purposeRef: sub!.uuid,
        savedMethodId: sub!.savedMethodId,
        amount: 99_000,
        currency: 643,
        credits: 300,
        returnPath: '/',
        offerVersion: 'v',
        privacyVersion: 'v',
        consentedAt: start,
      });
      at(new Date(start.getTime() + 2 * DAY + 3_600_000));
      await renewDueSubscriptions(t.deps);
      const orders = await t.deps.db
        .select()
        .from(paymentOrders)
        .where(eq(paymentOrders.purposeRef, sub!.uuid));
      expect(orders.map((o) => o.status).sort()).toEqual(['paid', 'pending']);
      expect(await credits(headers)).toBe(20);
    } finally {
      at(undefined);
    }
  });

  it('a period the provider renews by itself (Stripe, Stars) extends access and grants its credits once', async () => {
    const { headers } = await person('RU');
    const orderUuid = await subscribe(headers);
    const before = await state(headers);
    const periodEnd = new Date(new Date(before.access_until).getTime() + 30 * DAY);
    const renewed = {
      type: 'subscription.renewed' as const,
      eventId: `evt_renewed_${orderUuid}`,
      orderUuid,
      providerPaymentId: `in_${orderUuid}`,
      amount: 99_000,
      currency: 643,
      periodEnd,
    };
    for (let i = 0; i < 3; i++) {
      await t.deps.db.transaction((tx) => applyPaymentEvent(t.deps, tx, 'test', renewed));
    }
    expect(await state(headers)).toMatchObject({ status: 'active', access_until: periodEnd.toISOString() });
    expect(await credits(headers)).toBe(20 + 300);
    await t.deps.db.transaction((tx) =>
      applyPaymentEvent(t.deps, tx, 'test', {
        ...renewed,
        type: 'subscription.cancelled',
        eventId: `evt_cancelled_${orderUuid}`,
      }),
    );
    expect(await state(headers)).toMatchObject({ premium: true, auto_renew: false, next_charge_at: null });
  });

  it('gives the trial once per account and once per Telegram id', async () => {
    const first = await person('RU', 7_000_001);
    await subscribe(first.headers);
    expect((await state(first.headers)).trial_available).toBe(false);
    // The same Telegram account, now on another Mirra account: no second trial.
    await t.deps.db.update(users).set({ telegramId: null }).where(eq(users.id, first.user.id));
    const second = await person('RU', 7_000_001);
    expect((await state(second.headers)).trial_available).toBe(false);
    const { uuid } = (await post('/api/subscriptions/', second.headers, checkout)).json();
    const row = await get(`/api/payments/orders/${uuid}/`, second.headers);
    expect(row).toMatchObject({ amount: 99_000, purpose: 'subscription' });
  });

  it('a failed renewal is retried with a notice, then renewals stop and the subscription expires', async () => {
    const start = new Date('2033-03-01T00:00:00Z');
    at(start);
    try {
      const { user, headers } = await person('DE');
      await subscribe(headers, 'pay_decline_later');
      at(new Date(start.getTime() + 2 * DAY + 60_000));
      await renewDueSubscriptions(t.deps);
      expect(await state(headers)).toMatchObject({ status: 'past_due', premium: true, failed_attempts: 1 });
      const notices = await t.deps.db.select().from(notifications).where(eq(notifications.userId, user.id));
      expect(notices).toMatchObject([{ kind: 'subscription_renewal_failed', data: { attempts_left: 2 } }]);
      // While renewals fail, the person may pay afresh: the checkout opens instead of "already active".
      const again = await post('/api/subscriptions/', headers, checkout);
      expect(again.statusCode).toBe(200);
      expect(again.json().confirmation_url).toMatch(/^\/api\/payments\/test\/checkout\//);
      at(new Date(start.getTime() + 3 * DAY + 120_000));
      await renewDueSubscriptions(t.deps);
      at(new Date(start.getTime() + 4 * DAY + 180_000));
      await renewDueSubscriptions(t.deps);
      expect(await state(headers)).toMatchObject({ status: 'expired', premium: false, auto_renew: false });
      const all = await t.deps.db.select().from(notifications).where(eq(notifications.userId, user.id));
      expect(all.map((n) => (n.data as { attempts_left: number }).attempts_left).sort()).toEqual([0, 1, 2]);
      at(new Date(start.getTime() + 9 * DAY));
      await renewDueSubscriptions(t.deps);
      expect(await credits(headers)).toBe(20);
    } finally {
      at(undefined);
    }
  });

  it('cancel stops renewals while access runs to its date; get access switches them back on', async () => {
    const start = new Date('2034-05-01T00:00:00Z');
    at(start);
    try {
      const { headers } = await person('RU');
      await subscribe(headers);
      const cancelled = (await post('/api/subscriptions/cancel/', headers)).json();
      expect(cancelled).toMatchObject({
        status: 'trialing',
        premium: true,
        auto_renew: false,
        next_charge_at: null,
      });
      at(new Date(start.getTime() + 2 * DAY + 3_600_000));
      await renewDueSubscriptions(t.deps);
      expect(await credits(headers)).toBe(20);
      const resumed = (await post('/api/subscriptions/', headers, checkout)).json();
      expect(resumed).toEqual({ uuid: null, confirmation_url: null });
      expect(await state(headers)).toMatchObject({
        auto_renew: true,
        next_charge_at: cancelled.access_until,
      });
      expect((await post('/api/subscriptions/', headers, checkout)).json()).toMatchObject({
        code: 'subscriptions.already_active',
      });
      await post('/api/subscriptions/cancel/', headers);
      at(new Date(start.getTime() + 3 * DAY + 1000));
      await renewDueSubscriptions(t.deps);
      expect(await state(headers)).toMatchObject({ status: 'expired', premium: false });
      expect((await post('/api/subscriptions/cancel/', headers)).statusCode).toBe(404);
    } finally {
      at(undefined);
    }
  });

  it('a refund of a paid period ends its access, takes its unspent credits back and emits the refund event', async () => {
    const { user, headers } = await person('RU', 7_000_777);
    await t.deps.db.transaction((tx) =>
      recordWalletEntry(
        tx,
        {
          userId: user.id,
          currency: 643,
          amount: 100_000,
          kind: 'adjustment',
          idempotencyKey: `gift:${user.id}`,
        },
        t.deps.now(),
      ),
    );
    // Paid from the balance: no trial, the full period at once.
    const started = (await post('/api/subscriptions/', headers, { ...checkout, method: 'balance' })).json();
    expect(await state(headers)).toMatchObject({ status: 'active', premium: true, auto_renew: true });
    expect(await credits(headers)).toBe(300);
    await refundOrder(t.deps, started.uuid);
    await refundOrder(t.deps, started.uuid).catch(() => undefined);
    expect(await state(headers)).toMatchObject({ status: 'expired', premium: false, auto_renew: false });
    expect(await credits(headers)).toBe(0);
    expect((await get('/api/wallet/', headers)).balances[0]).toMatchObject({ available: 100_000 });
    expect(refunded.filter((uuid) => uuid === started.uuid)).toHaveLength(1);
  });

  it('premium lifts the free-tier pause and puts its generations ahead in the queue', async () => {
    const { user, headers } = await person('RU');
    await t.deps.db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: user.id,
        delta: 10,
        kind: 'adjustment',
        idempotencyKey: `gift:${user.id}`,
      }),
    );
    const generate = () =>
      post('/api/generations/', headers, { mode: 'simple', prompt: 'a red fox in snow' });
    const free = await generate();
    expect(free.statusCode).toBe(201);
    await t.deps.db.update(users).set({ freeDayStartedAt: null }).where(eq(users.id, user.id));
    // FREE_DAILY_PHOTOS=0: without premium the next one must wait.
    expect((await generate()).statusCode).toBe(429);
    await subscribe(headers);
    const premium = await generate();
    expect(premium.statusCode).toBe(201);
    const { rows } = await t.deps.database.pool.query<{
      priority: number;
      payload: { generationId: number };
    }>(
      `SELECT job.priority, job.payload FROM graphile_worker._private_jobs job
       JOIN graphile_worker._private_tasks task ON task.id = job.task_id
       WHERE task.identifier = 'generations:run'`,
    );
    const byUuid = async (uuid: string) =>
      (await t.deps.db.execute(sql`SELECT id FROM generations WHERE uuid = ${uuid}`)).rows[0] as {
        id: number;
      };
    const freeId = Number((await byUuid(free.json().uuid)).id);
    const premiumId = Number((await byUuid(premium.json().uuid)).id);
    expect(rows.find((r) => r.payload.generationId === freeId)?.priority).toBe(0);
    expect(rows.find((r) => r.payload.generationId === premiumId)?.priority).toBe(-10);
    const sub = await t.deps.db
      .select()
      .from(premiumSubscriptions)
      .where(eq(premiumSubscriptions.userId, user.id));
    expect(sub[0]?.status).toBe('trialing');
  });
});
