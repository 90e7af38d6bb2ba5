import { GenerationStatus, type TAdminDashboard } from '@mirra/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generations, paymentOrders, payoutRequests, users } from '../../shared/db/schema.js';
import { signedInPerson, type Person } from '../../test/posts-factories.js';
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

async function generation(values: { status: number; engine: string; mode?: string; createdAt: Date }) {
  await t.deps.db.insert(generations).values({
    userId: author.user.id,
    mode: values.mode ?? 'simple',
    status: values.status,
    guidance: 7,
    seed: 1,
    cost: 1,
    engine: values.engine,
    createdAt: values.createdAt,
  });
}

async function paidOrder(values: {
  provider: string;
  currency: number;
  amount: number;
  paidAt: Date;
  refundedAt?: Date;
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
