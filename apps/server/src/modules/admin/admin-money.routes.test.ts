import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentOrders, premiumSubscriptions, staffAuditLog } from '../../shared/db/schema.js';
import { balanceOf, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
});
afterAll(() => t?.close());

async function paidOrder(person: Person, provider: string, values: { amount: number; credits: number }) {
  const uuid = randomUUID();
  const paidAt = new Date(Date.now() - 60_000);
  await t.deps.db.insert(paymentOrders).values({
    uuid,
    userId: person.user.id,
    product: 'credits_100',
    provider,
    method: provider,
    status: 'paid',
    amount: values.amount,
    currency: 643,
    credits: values.credits,
    returnPath: '/',
    providerPaymentId: `${provider}:${uuid}`,
    offerVersion: '1',
    privacyVersion: '1',
    consentedAt: paidAt,
    paidAt,
  });
  return uuid;
}

const money = async (person: Person) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/admin/users/${person.user.uuid}/money/`,
    headers: admin.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const refund = (uuid: string, reason = 'charged twice') =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/payments/${uuid}/refund/`,
    headers: admin.headers,
    payload: { reason },
  });

describe("a person's money in the console", () => {
  it('shows their orders, wallet and premium subscription', async () => {
    const person = await signedInPerson(t, { credits: 100 });
    const order = await paidOrder(person, 'yookassa', { amount: 49_000, credits: 100 });
    const accessUntil = new Date(Date.now() + 5 * 86_400_000);
    await t.deps.db.insert(premiumSubscriptions).values({
      userId: person.user.id,
      plan: 'premium_month',
      status: 'active',
      provider: 'yookassa',
      amount: 39_000,
      currency: 643,
      periodDays: 30,
      accessUntil,
    });
    const body = await money(person);
    expect(body.orders).toEqual([
      expect.objectContaining({
        uuid: order,
        provider: 'yookassa',
        status: 'paid',
        amount: 49_000,
        currency: 643,
        refundable: true,
      }),
    ]);
    expect(body.wallet.balances).toContainEqual(expect.objectContaining({ currency: 643, available: 0 }));
    expect(body.wallet.entries).toEqual([]);
    expect(body.subscription).toMatchObject({
      plan: 'premium_month',
      status: 'active',
      amount: 39_000,
      access_until: accessUntil.toISOString(),
    });
    const nobody = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${randomUUID()}/money/`,
      headers: admin.headers,
    });
    expect(nobody.statusCode).toBe(404);
  });

  it('refunds a wallet payment at once: money back to the wallet, credits taken back, once, audited', async () => {
    const person = await signedInPerson(t, { credits: 100 });
    const order = await paidOrder(person, 'balance', { amount: 30_000, credits: 100 });
    const response = await refund(order);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ outcome: 'refunded' });
    const [row] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, order));
    expect(row!.status).toBe('refunded');
    expect(await balanceOf(t, person.user.id)).toBe(0);
    const body = await money(person);
    expect(body.orders[0]).toMatchObject({ status: 'refunded', refundable: false });
    expect(body.wallet.balances).toContainEqual(
      expect.objectContaining({ currency: 643, available: 30_000 }),
    );
    expect(body.wallet.entries[0]).toMatchObject({ amount: 30_000, currency: 643 });

    const again = await refund(order);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'payments.not_refundable' });
    expect(await balanceOf(t, person.user.id)).toBe(0);

    const audit = await t.deps.db.select().from(staffAuditLog).where(eq(staffAuditLog.targetId, order));
    expect(audit).toEqual([
      expect.objectContaining({
        staffUserId: admin.user.id,
        action: 'payment.refund',
        targetKind: 'payment',
        reason: 'charged twice',
        before: { status: 'paid', user_uuid: person.user.uuid },
        after: { outcome: 'refunded' },
      }),
    ]);
  });

  it("asks a provider's refund, applied when the provider says so; a reason is required", async () => {
    const person = await signedInPerson(t, { credits: 0 });
    const order = await paidOrder(person, 'test', { amount: 10_000, credits: 0 });
    expect((await refund(order, '  ')).statusCode).toBe(400);
    const response = await refund(order);
    expect(response.json()).toEqual({ outcome: 'requested' });
    const [row] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, order));
    expect(row!.status).toBe('paid');
    expect((await refund(randomUUID())).statusCode).toBe(404);
  });

  it("writes a staff refund's audit row in the refund's transaction: none when it fails, one when it succeeds", async () => {
    // Test-only triggers: a refund whose order cannot be updated, and an audit row that cannot be written.
    await t.deps.db.execute(
      sql.raw(`
      CREATE OR REPLACE FUNCTION test_refuse_refund() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.amount = 30303 AND NEW.status = 'refunded' THEN RAISE EXCEPTION 'refund refused by test'; END IF;
        RETURN NEW;
      END $$;
      CREATE OR REPLACE FUNCTION test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.reason = 'audit cannot be written' THEN RAISE EXCEPTION 'audit refused by test'; END IF;
        RETURN NEW;
      END $$;
      CREATE OR REPLACE TRIGGER test_refuse_refund BEFORE UPDATE ON payment_orders
        FOR EACH ROW EXECUTE FUNCTION test_refuse_refund();
      CREATE OR REPLACE TRIGGER test_refuse_audit BEFORE INSERT ON staff_audit_log
        FOR EACH ROW EXECUTE FUNCTION test_refuse_audit();
    `),
    );
    const auditOf = (uuid: string) =>
      t.deps.db.select().from(staffAuditLog).where(eq(staffAuditLog.targetId, uuid));
    const statusOf = async (uuid: string) =>
      (await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid)))[0]!.status;
    try {
      const person = await signedInPerson(t, { credits: 100 });
      const failing = await paidOrder(person, 'balance', { amount: 30_303, credits: 100 });
      expect((await refund(failing)).statusCode).toBe(500);
      expect(await statusOf(failing)).toBe('paid');
      expect(await auditOf(failing)).toEqual([]);

      // The refund is undone when its audit row cannot be written: no money moves unaudited.
      const unaudited = await paidOrder(person, 'balance', { amount: 20_000, credits: 0 });
      expect((await refund(unaudited, 'audit cannot be written')).statusCode).toBe(500);
      expect(await statusOf(unaudited)).toBe('paid');
      expect((await money(person)).wallet.balances).toContainEqual(
        expect.objectContaining({ currency: 643, available: 0 }),
      );

      const fine = await paidOrder(person, 'balance', { amount: 10_000, credits: 0 });
      expect((await refund(fine)).json()).toEqual({ outcome: 'refunded' });
      expect(await statusOf(fine)).toBe('refunded');
      expect(await auditOf(fine)).toHaveLength(1);
    } finally {
      await t.deps.db.execute(
        sql.raw(`DROP TRIGGER test_refuse_refund ON payment_orders;
          DROP TRIGGER test_refuse_audit ON staff_audit_log;`),
      );
    }
  });
});
