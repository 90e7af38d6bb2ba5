import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TPaymentOrder } from '@mirra/contracts';
import { AppError } from '../../shared/errors.js';
import { findUserById } from '../users/index.js';
import type { ProviderOrder } from './payment-provider.js';
import type { PaymentsDeps } from './payments.deps.js';
import { returnUrlFor } from './payments.models.js';
import { providerNamed } from './payments.providers.js';
import type { PaymentOrderRow } from './payments.repository.js';

// What the payments use cases share about an order: how it is shown, named and handed to its provider.

/** What the provider registry reads to find an order's provider. */
export type RegistryDeps = Pick<PaymentsDeps, 'config' | 'db' | 'linkSecret' | 'telegramBot' | 'now'>;

export const methodUnavailable = () =>
  new AppError({ code: 'payments.method_unavailable', detail: 'This payment method is not available.' });

export const orderNotFound = () => new AppError({ code: 'payments.order_not_found', detail: 'Not found.' });

/**
 * The key of an invoice's open page: the page's address carries it beside the invoice's uuid, so
 * the uuid alone (in logs, in another person's hands) opens nothing.
 */
function invoiceToken(deps: Pick<PaymentsDeps, 'linkSecret'>, uuid: string): string {
  return createHmac('sha256', deps.linkSecret).update(`mirra:invoice:${uuid}`).digest('hex').slice(0, 32);
}

export function isInvoiceToken(
  deps: Pick<PaymentsDeps, 'linkSecret'>,
  uuid: string,
  token: string | undefined,
) {
  if (typeof token !== 'string' || !/^[0-9a-f]{32}$/.test(token)) return false;
  return timingSafeEqual(Buffer.from(token), Buffer.from(invoiceToken(deps, uuid)));
}

/**
 * Where the buyer comes back to: the open invoice page for a method whose bank app may return them
 * to another browser (the provider says which: SberPay), everyone else to the app.
 */
function absoluteReturnUrl(deps: RegistryDeps, order: PaymentOrderRow): string {
  const invoicePage = providerNamed(deps, order.provider)?.capabilities.invoicePageMethods.some(
    (method) => method === order.method,
  );
  const path = invoicePage
    ? `/sberpay/${order.uuid}/?key=${invoiceToken(deps, order.uuid)}`
    : returnUrlFor(order.returnPath, order.uuid);
  return `${deps.config.publicUrl}${path}`;
}

/** The order as its provider is asked to take it. */
export async function providerOrderOf(
  deps: RegistryDeps,
  order: PaymentOrderRow,
  description: string,
): Promise<ProviderOrder> {
  const user = await findUserById(deps.db, order.userId);
  return {
    uuid: order.uuid,
    userId: order.userId,
    amount: order.amount,
    currency: order.currency,
    product: order.product,
    description,
    customerEmail: order.receiptEmail ?? user?.email ?? null,
    returnUrl: absoluteReturnUrl(deps, order),
    cancelUrl: `${deps.config.publicUrl}${returnUrlFor(order.returnPath, order.uuid, true)}`,
    method: order.method,
    ...(order.recurringDays ? { recurring: { periodDays: order.recurringDays } } : {}),
    ...(order.saveMethod ? { saveMethod: true } : {}),
  };
}

/** What the provider's page and the receipt call an order Mirra did not describe. */
export function describeOrder(order: PaymentOrderRow): string {
  if (order.purpose === 'wallet_topup') return 'Mirra: wallet top-up';
  if (order.purpose === 'subscription') return 'Mirra Premium';
  return `Mirra: ${order.product}`;
}

/** An order as its buyer sees it. */
export function serializeOrder(order: PaymentOrderRow): TPaymentOrder {
  return {
    uuid: order.uuid,
    product: order.product,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    credits: order.credits,
    unlimited_days: order.unlimitedDays,
    purpose: order.purpose,
    created_at: order.createdAt.toISOString(),
  };
}
