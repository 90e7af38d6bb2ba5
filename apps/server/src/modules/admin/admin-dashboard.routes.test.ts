import { GenerationStatus, type TAdminDashboard } from '@mirra/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generations, models, paymentOrders, payoutRequests, users } from '../../shared/db/schema.js';
import { signInAgain, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let admin: Person;
let author: Person;

// The app's clock: every window (today, 7 days, 30 days) is measured from it, in UTC.
const NOW = new Date('2030-03-15T10:00:00Z');
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await createTestApp();
  t.setNow(NOW);
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
  author = await signedInPerson(t, { credits: 0 });
});
afterAll(() => t?.close());

async function dashboard(): Promise<TAdminDashboard> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/admin/dashboard/',
    headers: admin.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function joinedAt(date: Date) {
  const person = await signedInPerson(t, { credits: 0 });
  await t.deps.db.update(users).set({ dateJoined: date }).where(eq(users.id, person.user.id));
}

async function generation(values: {
  status: number;
  engine: string;
  mode?: string;
  createdAt: Date;
  userId?: number;
  cost?: number;
  providerCostUsd?: number;
  refunded?: boolean;
  errorReason?: string;
}) {
  await t.deps.db.insert(generations).values({
    userId: values.userId ?? author.user.id,
    mode: values.mode ?? 'simple',
    status: values.status,
    guidance: 7,
    seed: 1,
    cost: values.cost ?? 1,
    engine: values.engine,
    createdAt: values.createdAt,
    providerCostUsd: values.providerCostUsd ?? null,
    refunded: values.refunded ?? false,
    errorReason: values.errorReason ?? null,
  });
}

async function paidOrder(values: {
  provider: string;
  currency: number;
  amount: number;
  paidAt: Date;
  refundedAt?: Date;
  credits?: number;
}) {
  await t.deps.db.insert(paymentOrders).values({
    userId: author.user.id,
    product: 'credits_100',
    provider: values.provider,
    status: values.refundedAt ? 'refunded' : 'paid',
    amount: values.amount,
    currency: values.currency,
    returnPath: '/',
    offerVersion: '1',
    privacyVersion: '1',
    consentedAt: values.paidAt,
    paidAt: values.paidAt,
    refundedAt: values.refundedAt ?? null,
    credits: values.credits ?? 0,
  });
}

describe('the console home', () => {
  it('counts people, generations, failures, the queue, money and pay-outs from the database', async () => {
    const before = await dashboard();
    expect(before.users.new_today).toBe(0);
    expect(before.generations_today).toMatchObject({ finished: 0, failed: 0, failure_rate: null });
    expect(before.revenue).toEqual([]);
    expect(before.series.days).toHaveLength(30);
    expect(before.series.days.at(-1)).toBe('2030-03-15');
    expect(before.series.days[0]).toBe('2030-02-14');

    await joinedAt(at('2030-03-15T00:00:01Z'));
    await joinedAt(at('2030-03-15T09:59:00Z'));
    await joinedAt(at('2030-03-10T12:00:00Z'));
    await joinedAt(at('2030-03-01T12:00:00Z'));

    const today = at('2030-03-15T08:00:00Z');
    await generation({ status: GenerationStatus.COMPLETED, engine: 'fal', createdAt: today });
    await generation({ status: GenerationStatus.COMPLETED, engine: 'fal', createdAt: today });
    await generation({ status: GenerationStatus.FAILED, engine: 'fal', createdAt: today });
    await generation({ status: GenerationStatus.ERROR, engine: 'local', mode: 'video', createdAt: today });
    await generation({ status: GenerationStatus.IN_QUEUE, engine: 'local', createdAt: today });
    await generation({
      status: GenerationStatus.FAILED,
      engine: 'fal',
      createdAt: at('2030-03-14T23:59:00Z'),
    });

    await paidOrder({ provider: 'yookassa', currency: 643, amount: 49_000, paidAt: today });
    await paidOrder({
      provider: 'yookassa',
      currency: 643,
      amount: 99_000,
      paidAt: at('2030-03-02T10:00:00Z'),
      refundedAt: at('2030-03-03T10:00:00Z'),
    });
    await paidOrder({ provider: 'stripe', currency: 840, amount: 999, paidAt: at('2030-03-14T10:00:00Z') });
    // Older than 30 days: in no window.
    await paidOrder({ provider: 'stripe', currency: 840, amount: 5_000, paidAt: at('2030-01-01T10:00:00Z') });

    for (const [amount, currency] of [
      [150_000, 643],
      [250_000, 643],
      [4_000, 840],
    ] as const) {
      await t.deps.db.insert(payoutRequests).values({
        userId: author.user.id,
        currency,
        amount,
        method: 'card',
        requisites: { method: 'card', card: '4242424242424242', holder: 'A B' },
        clientKey: `payout-${amount}`,
        createdAt: today,
      });
    }
    await t.deps.db.execute(
      sql`SELECT graphile_worker.add_job('admin:waiting', '{}'::json, run_at => now() - interval '10 minutes')`,
    );
    await t.deps.db.execute(
      sql`SELECT graphile_worker.add_job('admin:later', '{}'::json, run_at => now() + interval '1 hour')`,
    );

    const after = await dashboard();
    expect(after.users.total - before.users.total).toBe(4);
    expect(after.users.new_today).toBe(2);
    expect(after.users.new_7d).toBe(3);

    const g = after.generations_today;
    expect(g.finished).toBe(4);
    expect(g.failed).toBe(2);
    expect(g.failure_rate).toBe(0.5);
    expect(g.by_engine).toEqual([
      { engine: 'fal', count: 3, failed: 1 },
      { engine: 'local', count: 2, failed: 1 },
    ]);
    expect(g.by_mode).toEqual([
      { mode: 'simple', count: 4 },
      { mode: 'video', count: 1 },
    ]);
    expect(g.by_status).toEqual(
      expect.arrayContaining([
        { status: GenerationStatus.COMPLETED, count: 2 },
        { status: GenerationStatus.FAILED, count: 1 },
        { status: GenerationStatus.ERROR, count: 1 },
        { status: GenerationStatus.IN_QUEUE, count: 1 },
      ]),
    );

    expect(after.queue.depth - before.queue.depth).toBe(2);
    expect(after.queue.oldest_age_seconds).toBeGreaterThanOrEqual(600);
    expect(after.queue.oldest_age_seconds).toBeLessThan(1200);

    expect(after.revenue).toEqual([
      { provider: 'stripe', currency: 840, today: 0, last_30d: 999, refunded_30d: 0 },
      { provider: 'yookassa', currency: 643, today: 49_000, last_30d: 148_000, refunded_30d: 99_000 },
    ]);
    expect(after.payouts_pending).toEqual([
      { currency: 643, count: 2, amount: 400_000 },
      { currency: 840, count: 1, amount: 4_000 },
    ]);

    const day = (iso: string) => after.series.days.indexOf(iso);
    expect(after.series.signups[day('2030-03-15')]).toBe(2);
    expect(after.series.signups[day('2030-03-10')]).toBe(1);
    expect(after.series.generations[day('2030-03-15')]).toBe(5);
    expect(after.series.failed[day('2030-03-15')]).toBe(2);
    expect(after.series.failed[day('2030-03-14')]).toBe(1);
    expect(after.series.revenue).toEqual([
      { currency: 643, amounts: expect.any(Array) },
      { currency: 840, amounts: expect.any(Array) },
    ]);
    const roubles = after.series.revenue[0]!.amounts;
    expect(roubles[day('2030-03-15')]).toBe(49_000);
    expect(roubles[day('2030-03-02')]).toBe(99_000);
    expect(roubles.reduce((a, b) => a + b, 0)).toBe(148_000);
  });
});

describe('cost, margin, active people and failure reasons on the console home', () => {
  // A later month: nothing the test above seeded falls in these windows.
  const LATER = new Date('2031-06-15T10:00:00Z');
  const today = at('2031-06-15T08:00:00Z');
  const lastWeek = at('2031-06-10T08:00:00Z');

  async function laterDashboard(): Promise<TAdminDashboard> {
    t.setNow(LATER);
    const fresh = await signInAgain(t, admin);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/dashboard/',
      headers: fresh.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('sets what providers billed against the credits charged, valued at what dollar buyers paid', async () => {
    const empty = await laterDashboard();
    expect(empty.margin).toEqual({ credit_price_usd: null, today: [], last_30d: [] });

    await generation({ status: 100, engine: 'fal', createdAt: today, cost: 10, providerCostUsd: 0.25 });
    await generation({ status: 100, engine: 'fal', createdAt: today, cost: 10, providerCostUsd: 0.35 });
    // Refunded: the provider still billed, the credits went back.
    await generation({
      status: -200,
      engine: 'fal',
      createdAt: today,
      cost: 10,
      providerCostUsd: 0.1,
      refunded: true,
    });
    await generation({
      status: 100,
      engine: 'openai',
      mode: 'video',
      createdAt: lastWeek,
      cost: 50,
      providerCostUsd: 1.5,
    });
    // Digital models trained last week: one at fal (its LoRA keeps what fal billed), one by the
    // local engine that failed and was refunded (no provider, no cost), and one never trained.
    const model = (values: Partial<typeof models.$inferInsert>) =>
      t.deps.db.insert(models).values({ userId: author.user.id, name: 'Me', category: 'man', ...values });
    await model({
      status: 100,
      engine: 'fal',
      cost: 20,
      trainingStartedAt: lastWeek,
      providerLoras: { fal: { url: 'https://fal.test/lora.safetensors', triggerWord: 'ohwx', costUsd: 2 } },
    });
    await model({ status: -200, engine: 'local', cost: 20, refunded: true, trainingStartedAt: lastWeek });
    await model({ status: 0, cost: 0 });
    // A free trial in dollars gave 50 credits for nothing: given, not sold, it values no credit.
    await paidOrder({ provider: 'stripe', currency: 840, amount: 0, credits: 50, paidAt: today });

    const unpriced = await laterDashboard();
    expect(unpriced.margin.credit_price_usd).toBeNull();
    expect(unpriced.margin.today).toEqual([
      {
        mode: 'simple',
        engine: 'fal',
        count: 3,
        cost_usd: 0.7,
        credits: 20,
        value_usd: null,
        margin_usd: null,
      },
    ]);

    // $10 for 200 credits and $5 for 300: $15 / 500 = 3 cents a credit. Roubles, a refunded
    // dollar order and an order older than the window do not set the price.
    await paidOrder({ provider: 'stripe', currency: 840, amount: 1_000, credits: 200, paidAt: lastWeek });
    await paidOrder({ provider: 'stripe', currency: 840, amount: 500, credits: 300, paidAt: today });
    await paidOrder({ provider: 'yookassa', currency: 643, amount: 99_000, credits: 100, paidAt: today });
    await paidOrder({
      provider: 'stripe',
      currency: 840,
      amount: 100_000,
      credits: 100,
      paidAt: lastWeek,
      refundedAt: today,
    });
    await paidOrder({
      provider: 'stripe',
      currency: 840,
      amount: 100_000,
      credits: 1,
      paidAt: at('2031-04-01T10:00:00Z'),
    });

    const priced = await laterDashboard();
    expect(priced.margin.credit_price_usd).toBeCloseTo(0.03, 10);
    expect(priced.margin.today).toEqual([
      {
        mode: 'simple',
        engine: 'fal',
        count: 3,
        cost_usd: 0.7,
        credits: 20,
        value_usd: 0.6,
        margin_usd: -0.1,
      },
    ]);
    expect(priced.margin.last_30d).toEqual([
      {
        mode: 'training',
        engine: 'fal',
        count: 1,
        cost_usd: 2,
        credits: 20,
        value_usd: 0.6,
        margin_usd: -1.4,
      },
      {
        mode: 'video',
        engine: 'openai',
        count: 1,
        cost_usd: 1.5,
        credits: 50,
        value_usd: 1.5,
        margin_usd: 0,
      },
      {
        mode: 'simple',
        engine: 'fal',
        count: 3,
        cost_usd: 0.7,
        credits: 20,
        value_usd: 0.6,
        margin_usd: -0.1,
      },
      {
        mode: 'training',
        engine: 'local',
        count: 1,
        cost_usd: 0,
        credits: 0,
        value_usd: 0,
        margin_usd: 0,
      },
    ]);
  });

  it('counts distinct people who generated or signed in, today and over 7 days', async () => {
    const before = await laterDashboard();
    const signedInToday = await signedInPerson(t, { credits: 0 });
    const signedInLastWeek = await signedInPerson(t, { credits: 0 });
    const signedInLongAgo = await signedInPerson(t, { credits: 0 });
    const generatedLastWeek = await signedInPerson(t, { credits: 0 });
    const both = await signedInPerson(t, { credits: 0 });
    const lastLogin = async (person: Person, date: Date) =>
      t.deps.db.update(users).set({ lastLogin: date }).where(eq(users.id, person.user.id));
    await lastLogin(signedInToday, today);
    await lastLogin(signedInLastWeek, lastWeek);
    await lastLogin(signedInLongAgo, at('2031-05-01T08:00:00Z'));
    await lastLogin(both, today);
    await generation({
      status: 100,
      engine: 'local',
      createdAt: lastWeek,
      userId: generatedLastWeek.user.id,
    });
    await generation({ status: 100, engine: 'local', createdAt: today, userId: both.user.id });
    await generation({ status: 100, engine: 'local', createdAt: lastWeek, userId: both.user.id });

    const after = await laterDashboard();
    expect(after.active_users.today - before.active_users.today).toBe(2);
    expect(after.active_users.last_7d - before.active_users.last_7d).toBe(4);
  });

  it("lists today's failure reasons, most frequent first", async () => {
    const before = await laterDashboard();
    expect(before.failure_reasons_today).toEqual([]);
    for (const reason of [
      'no_face',
      'no_face',
      'no_face',
      'unreadable_photo',
      'needs_model',
      'needs_model',
    ]) {
      await generation({ status: -100, engine: 'local', createdAt: today, errorReason: reason });
    }
    // Yesterday's: not today's.
    await generation({
      status: -100,
      engine: 'local',
      createdAt: at('2031-06-14T23:00:00Z'),
      errorReason: 'unreadable_photo',
    });

    const after = await laterDashboard();
    expect(after.failure_reasons_today).toEqual([
      { reason: 'no_face', count: 3 },
      { reason: 'needs_model', count: 2 },
      { reason: 'unreadable_photo', count: 1 },
    ]);
  });
});
