import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, staffAuditLog } from '../../shared/db/schema.js';
import { signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { recordWalletEntry } from '../wallet/index.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp({ env: { PAYOUT_MIN_RUB: '10' } });
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
});
afterAll(() => t?.close());

/** A partner with earned roubles in the wallet who asked for part of them to be paid out to a card. */
async function partnerAsking(amount: number) {
  const partner = await signedInPerson(t, { credits: 0 });
  await t.deps.db.transaction((tx) =>
    recordWalletEntry(
      tx,
      {
        userId: partner.user.id,
        currency: 643,
        amount: 5000,
        kind: 'referral_bonus',
        idempotencyKey: `seed:${partner.user.id}`,
      },
      t.deps.now(),
    ),
  );
  const asked = await t.app.inject({
    method: 'POST',
    url: '/api/wallet/payouts/',
    headers: partner.headers,
    payload: {
      currency: 643,
      amount,
      method: 'card',
      card: '4111111111111111',
      holder: 'Rosa Luxemburg',
      client_key: `payout-${partner.user.id}`,
    },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  return { partner, payout: asked.json().uuid as string };
}

const wallet = async (who: Person) =>
  (await t.app.inject({ method: 'GET', url: '/api/wallet/', headers: who.headers }))
    .json()
    .balances.find((b: { currency: number }) => b.currency === 643);

const decide = (uuid: string, action: 'approve' | 'reject', payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/payouts/${uuid}/${action}/`,
    headers: admin.headers,
    payload,
  });

const kindsTold = async (userId: number) =>
  (await t.deps.db.select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.kind);

describe('pay-out queue', () => {
  it('lists pending requests with where to send the money; approving pays, tells the partner, audits', async () => {
    const { partner, payout } = await partnerAsking(3000);
    const queue = await t.app.inject({ method: 'GET', url: '/api/admin/payouts/', headers: admin.headers });
    expect(queue.statusCode).toBe(200);
    expect(queue.json().results).toContainEqual(
      expect.objectContaining({
        uuid: payout,
        user_uuid: partner.user.uuid,
        user_email: partner.user.email,
        amount: 3000,
        currency: 643,
        method: 'card',
        requisites: { card: '4111111111111111', holder: 'Rosa Luxemburg' },
        status: 'pending',
      }),
    );
    const approved = await decide(payout, 'approve', { reason: 'sent', reference: 'SBER-42' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ uuid: payout, status: 'paid', reference: 'SBER-42' });
    // The partner sees the transfer's reference on their pay-out.
    const own = await t.app.inject({ method: 'GET', url: '/api/wallet/payouts/', headers: partner.headers });
    expect(own.json().results).toContainEqual(
      expect.objectContaining({ uuid: payout, status: 'paid', reference: 'SBER-42' }),
    );
    expect(await wallet(partner)).toMatchObject({ available: 2000, reserved: 0 });
    expect(await kindsTold(partner.user.id)).toContain('payout_paid');
    // Again: nothing changes, nothing more is audited.
    expect((await decide(payout, 'approve', { reason: 'again' })).json()).toMatchObject({ status: 'paid' });
    const audit = await t.deps.db.select().from(staffAuditLog).where(eq(staffAuditLog.targetId, payout));
    expect(audit).toEqual([
      expect.objectContaining({
        staffUserId: admin.user.id,
        action: 'payout.approve',
        targetKind: 'payout',
        reason: 'sent',
        before: expect.objectContaining({ status: 'pending', amount: 3000 }),
        after: expect.objectContaining({ status: 'paid', reference: 'SBER-42' }),
      }),
    ]);
    const after = await t.app.inject({ method: 'GET', url: '/api/admin/payouts/', headers: admin.headers });
    expect(after.json().results.map((entry: { uuid: string }) => entry.uuid)).not.toContain(payout);
    const late = await decide(payout, 'reject', { reason: 'late' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'partners.payout_decided' });
  });

  it('rejecting returns the money with the reason, tells the partner, audits', async () => {
    const { partner, payout } = await partnerAsking(4000);
    expect((await decide(payout, 'reject', { reason: ' ' })).statusCode).toBe(400);
    const rejected = await decide(payout, 'reject', { reason: 'The card is closed' });
    expect(rejected.json()).toMatchObject({ status: 'rejected', reason: 'The card is closed' });
    expect(await wallet(partner)).toMatchObject({ available: 5000, reserved: 0 });
    expect(await kindsTold(partner.user.id)).toContain('payout_rejected');
    const own = await t.app.inject({ method: 'GET', url: '/api/wallet/payouts/', headers: partner.headers });
    expect(own.json().results[0]).toMatchObject({ status: 'rejected', reference: null });
    const [audit] = await t.deps.db.select().from(staffAuditLog).where(eq(staffAuditLog.targetId, payout));
    expect(audit).toMatchObject({ action: 'payout.reject', reason: 'The card is closed' });
  });
});
