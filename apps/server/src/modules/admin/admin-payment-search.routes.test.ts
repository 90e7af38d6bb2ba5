import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentOrders, users } from '../../shared/db/schema.js';
import { signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let admin: Person;
let moderator: Person;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
  moderator = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, moderator.user.email!, 'moderator');
});
afterAll(() => t?.close());

async function order(person: Person, values: { status?: 'paid' | 'refunded'; amountRefunded?: number } = {}) {
  const uuid = randomUUID();
  const paidAt = new Date(Date.now() - 60_000);
  await t.deps.db.insert(paymentOrders).values({
    uuid,
    userId: person.user.id,
    product: 'credits_100',
    provider: 'stripe',
    method: 'card',
    status: values.status ?? 'paid',
    amount: 1_500,
    currency: 978,
    credits: 100,
    amountRefunded: values.amountRefunded ?? 0,
    returnPath: '/',
    providerPaymentId: `pi_${uuid.replaceAll('-', '')}`,
    offerVersion: '1',
    privacyVersion: '1',
    consentedAt: paidAt,
    paidAt,
  });
  return { uuid, providerPaymentId: `pi_${uuid.replaceAll('-', '')}` };
}

const search = (query: Record<string, string>, headers = admin.headers) =>
  t.app.inject({ method: 'GET', url: '/api/admin/payments/', query, headers });

async function found(query: Record<string, string>) {
  const response = await search(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    results: { order: { uuid: string; amount_refunded: number }; buyer: { uuid: string } }[];
    next: string | null;
  };
}

describe('the payment search', () => {
  it('finds an order by its uuid, the provider payment id, and the buyer email, Telegram id and uuid', async () => {
    const buyer = await signedInPerson(t, { credits: 0 });
    const telegramId = 700_000_000 + Math.floor(Math.random() * 99_000_000);
    await t.deps.db.update(users).set({ telegramId }).where(eq(users.id, buyer.user.id));
    const older = await order(buyer, { amountRefunded: 500 });
    const newer = await order(buyer);
    const other = await order(await signedInPerson(t, { credits: 0 }));

    const byUuid = await found({ q: newer.uuid });
    expect(byUuid.results.map((row) => row.order.uuid)).toEqual([newer.uuid]);
    expect(byUuid.results[0]).toEqual({
      order: expect.objectContaining({
        uuid: newer.uuid,
        provider: 'stripe',
        method: 'card',
        amount: 1_500,
        currency: 978,
        status: 'paid',
        amount_refunded: 0,
        provider_payment_id: newer.providerPaymentId,
        refundable: true,
      }),
      buyer: { uuid: buyer.user.uuid, email: buyer.user.email, telegram_id: telegramId },
    });

    const byProviderId = await found({ q: older.providerPaymentId });
    expect(byProviderId.results.map((row) => row.order.uuid)).toEqual([older.uuid]);
    expect(byProviderId.results[0]!.order.amount_refunded).toBe(500);

    for (const q of [buyer.user.email!, String(telegramId), buyer.user.uuid]) {
      const byBuyer = await found({ q });
      expect(
        byBuyer.results.map((row) => row.order.uuid),
        q,
      ).toEqual([newer.uuid, older.uuid]);
    }

    const everything = await found({});
    expect(everything.results[0]!.order.uuid).toBe(other.uuid);
  });

  it('pages newest first', async () => {
    const buyer = await signedInPerson(t, { credits: 0 });
    const orders = [await order(buyer), await order(buyer), await order(buyer)];
    const first = await found({ q: buyer.user.uuid, limit: '2' });
    expect(first.results.map((row) => row.order.uuid)).toEqual([orders[2]!.uuid, orders[1]!.uuid]);
    expect(first.next).not.toBeNull();
    const second = await found({ q: buyer.user.uuid, limit: '2', cursor: first.next! });
    expect(second.results.map((row) => row.order.uuid)).toEqual([orders[0]!.uuid]);
    expect(second.next).toBeNull();
  });

  it('finds nothing for a term that names no order and no one', async () => {
    await order(await signedInPerson(t, { credits: 0 }));
    expect((await found({ q: 'nobody-at-all' })).results).toEqual([]);
    expect((await found({ q: randomUUID() })).results).toEqual([]);
  });

  it('answers 404 to a moderator and a normal user', async () => {
    expect((await search({}, moderator.headers)).statusCode).toBe(404);
    const person = await signedInPerson(t, { credits: 0 });
    expect((await search({ q: person.user.email! }, person.headers)).statusCode).toBe(404);
  });
});
