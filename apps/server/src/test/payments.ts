import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { testProviderOf } from '../modules/payments/index.js';
import { paymentOrders } from '../shared/db/schema.js';
import type { TestApp } from './test-app.js';

/** Orders a product through the `test` provider as the person with these headers; its uuid. */
export async function orderWithTestProvider(
  t: TestApp,
  headers: Record<string, string>,
  product = 'credits_100',
): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/payments/orders/',
    headers,
    payload: { product, method: 'test', agree_offer: true, agree_privacy: true, return: '/' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().uuid as string;
}

/**
 * The test provider's signed notification of the order's payment or its refund, delivered over
 * HTTP as the provider would; answers the order's amount (minor units).
 */
export async function deliverTestPaymentEvent(
  t: TestApp,
  uuid: string,
  type: 'payment.succeeded' | 'refund.succeeded' = 'payment.succeeded',
  /** A partial refund: the total refunded so far. */
  refundedAmount?: number,
): Promise<number> {
  const row = (await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid)))[0]!;
  const signed = testProviderOf(t.deps).signEvent({
    type,
    orderUuid: uuid,
    providerPaymentId: `pay-${uuid}`,
    amount: row.amount,
    currency: row.currency,
    ...(refundedAmount ? { refundedAmount } : {}),
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/test/',
    headers: signed.headers,
    payload: signed.body,
  });
  expect(response.statusCode).toBeLessThan(300);
  return row.amount;
}

/** A product bought and paid through the test provider; the order's uuid and amount. */
export async function buyAndPayWithTestProvider(
  t: TestApp,
  headers: Record<string, string>,
  product = 'credits_100',
): Promise<{ uuid: string; amount: number }> {
  const uuid = await orderWithTestProvider(t, headers, product);
  return { uuid, amount: await deliverTestPaymentEvent(t, uuid) };
}
