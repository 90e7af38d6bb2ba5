import type { z } from 'zod';
import type {
  TPaymentCatalogue,
  TPaymentMethod,
  TPaymentOrder,
  TPaymentRegion,
  ZPaymentOrderCreate,
} from '@mirra/contracts';
import type { PaymentsDeps } from './payments.deps.js';
import type { PaidPurchase } from './purchase-listener.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { applyCreditChange, lockCredits } from '../credits/index.js';
import type { PaymentEvent, PaymentProvider, WebhookHeaders } from './payment-provider.js';
import {
  extendUntil,
  parseCatalogue,
  priceProduct,
  refundCredits,
  regionOfCountry,
  safeReturnPath,
  shortenUntil,
  type CatalogueEntry,
} from './payments.models.js';
import { paymentsRepository, type PaymentOrderRow } from './payments.repository.js';
import { createTestProvider, testProviderKey } from './test-provider.js';

type Deps = Pick<
  PaymentsDeps,
  'db' | 'config' | 'logger' | 'now' | 'geo' | 'linkSecret' | 'purchaseListener'
>;

export const CONSENT_REQUIRED_DETAIL = 'Please check the boxes to agree with the offer.';

const catalogues = new WeakMap<object, CatalogueEntry[]>();
function catalogueOf(deps: Pick<PaymentsDeps, 'config'>): CatalogueEntry[] {
  let entries = catalogues.get(deps.config);
  if (!entries) {
    entries = parseCatalogue(deps.config.payments.catalogueJson);
    catalogues.set(deps.config, entries);
  }
  return entries;
}

const testProviders = new Map<string, ReturnType<typeof createTestProvider>>();
/** The test provider of this server (its key derives from the server secret). */
export function testProviderOf(deps: Pick<PaymentsDeps, 'linkSecret'>) {
  let provider = testProviders.get(deps.linkSecret);
  if (!provider) {
    provider = createTestProvider(testProviderKey(deps.linkSecret));
    testProviders.set(deps.linkSecret, provider);
  }
  return provider;
}

/** The payment methods this server offers: only those configured. */
export function availableProviders(deps: Pick<PaymentsDeps, 'config' | 'linkSecret'>): PaymentProvider[] {
  return deps.config.payments.testProvider ? [testProviderOf(deps)] : [];
}

function providerFor(deps: Pick<PaymentsDeps, 'config' | 'linkSecret'>, method: string): PaymentProvider {
  const provider = availableProviders(deps).find((p) => p.method === method);
  if (!provider) {
    throw new AppError({
      code: 'payments.method_unavailable',
      detail: 'This payment method is not available.',
    });
  }
  return provider;
}

export interface Caller {
  userId: number;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The region chosen by the person, or the one of the country they are in. */
async function regionOf(deps: Deps, caller: Caller): Promise<TPaymentRegion> {
  const chosen = await paymentsRepository.findRegion(deps.db, caller.userId);
  return chosen ?? regionOfCountry(deps.geo.countryOf(caller.ip, caller.headers));
}

export async function getCatalogue(deps: Deps, caller: Caller): Promise<TPaymentCatalogue> {
  const region = await regionOf(deps, caller);
  const products = catalogueOf(deps).map((entry) => priceProduct(entry, region));
  return {
    region,
    currency: products[0]!.currency,
    products,
    methods: availableProviders(deps).map((p) => p.method),
  };
}

export async function changeRegion(deps: Deps, caller: Caller, region: TPaymentRegion) {
  await paymentsRepository.saveRegion(deps.db, caller.userId, deps.now(), region);
  return getCatalogue(deps, caller);
}

/**
 * An order at the price of the person's region, with their consent to the offer and the privacy
 * policy stored (document versions and time); returns where to pay it.
 */
export async function createOrder(
  deps: Deps,
  caller: Caller,
  body: z.infer<typeof ZPaymentOrderCreate>,
): Promise<{ uuid: string; confirmation_url: string }> {
  if (!body.agree_offer || !body.agree_privacy) {
    throw new AppError({ code: 'payments.consent_required', detail: CONSENT_REQUIRED_DETAIL });
  }
  const entry = catalogueOf(deps).find((e) => e.id === body.product);
  if (!entry) throw new AppError({ code: 'payments.product_unknown', detail: 'No such product.' });
  const provider = providerFor(deps, body.method);
  const product = priceProduct(entry, await regionOf(deps, caller));
  const now = deps.now();
  const order = await paymentsRepository.insertOrder(deps.db, {
    userId: caller.userId,
    product: product.id,
    provider: provider.method,
    amount: product.amount,
    currency: product.currency,
    credits: product.credits,
    unlimitedDays: product.days,
    returnPath: safeReturnPath(body.return),
    offerVersion: deps.config.payments.offerVersion,
    privacyVersion: deps.config.payments.privacyVersion,
    consentedAt: now,
  });
  const { confirmationUrl } = await provider.createPayment(order);
  return { uuid: order.uuid, confirmation_url: confirmationUrl };
}

export function serializeOrder(order: PaymentOrderRow): TPaymentOrder {
  return {
    uuid: order.uuid,
    product: order.product,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    credits: order.credits,
    unlimited_days: order.unlimitedDays,
    created_at: order.createdAt.toISOString(),
  };
}

export async function getOrder(deps: Deps, userId: number, uuid: string): Promise<TPaymentOrder> {
  const order = await paymentsRepository.findUserOrder(deps.db, userId, uuid);
  if (!order) throw new AppError({ code: 'payments.order_not_found', detail: 'Not found.' });
  return serializeOrder(order);
}

/**
 * A provider's notification: verified as the provider signs it, then applied in one transaction.
 * A forged one changes nothing (`payments.signature_invalid`).
 */
export async function receiveWebhook(
  deps: Deps,
  method: string,
  rawBody: string,
  headers: WebhookHeaders,
): Promise<void> {
  const provider = availableProviders(deps).find((p) => p.method === method);
  const event = provider?.parseWebhook(rawBody, headers) ?? null;
  if (!provider || !event) {
    throw new AppError({ code: 'payments.signature_invalid', detail: 'The notification is not signed.' });
  }
  await deps.db.transaction((tx) => applyPaymentEvent(deps, tx, provider.method, event));
}

/**
 * Applies one verified event to its order, under the order's row lock, so that duplicates, late
 * and out-of-order events change nothing twice: a payment is granted once (credits in the ledger
 * under `payment:<order>:grant`, the unlimited package extended), a refund taken back once.
 */
export async function applyPaymentEvent(
  deps: Pick<PaymentsDeps, 'logger' | 'now' | 'purchaseListener'>,
  tx: DbOrTx,
  method: TPaymentMethod,
  event: PaymentEvent,
): Promise<void> {
  const order = await paymentsRepository.lockOrder(tx, event.orderUuid);
  if (!order || order.provider !== method) {
    throw new AppError({ code: 'payments.order_not_found', detail: 'Not found.' });
  }
  if (order.amount !== event.amount || order.currency !== event.currency) {
    deps.logger.error({ order: order.uuid, event }, 'payment amount does not match its order; not applied');
    return;
  }
  const now = deps.now();
  switch (event.type) {
    case 'payment.succeeded':
      if (order.status === 'paid' || order.status === 'refunded') return;
      await paymentsRepository.updateOrder(tx, order.uuid, deps.now(), {
        status: 'paid',
        providerPaymentId: event.providerPaymentId,
        paidAt: now,
      });
      if (order.credits > 0) {
        await applyCreditChange(tx, {
          userId: order.userId,
          delta: order.credits,
          kind: 'purchase',
          ref: order.uuid,
          idempotencyKey: `payment:${order.uuid}:grant`,
        });
      }
      if (order.unlimitedDays > 0) {
        const until = await paymentsRepository.lockUnlimitedUntil(tx, order.userId);
        await paymentsRepository.setUnlimitedUntil(
          tx,
          order.userId,
          extendUntil(until, now, order.unlimitedDays),
        );
      }
      await deps.purchaseListener.purchasePaid(tx, purchaseOf(order, now));
      return;
    case 'payment.failed':
    case 'payment.cancelled':
      if (order.status !== 'pending') return;
      await paymentsRepository.updateOrder(tx, order.uuid, deps.now(), {
        status: event.type === 'payment.failed' ? 'failed' : 'cancelled',
      });
      return;
    case 'refund.succeeded':
      if (order.status !== 'paid') return;
      await takeBackPurchase(tx, order, now);
      await deps.purchaseListener.purchaseRefunded(tx, {
        ...purchaseOf(order, order.paidAt ?? now),
        refundedAmount: order.amount,
        refundedAt: now,
      });
  }
}

const purchaseOf = (order: PaymentOrderRow, paidAt: Date): PaidPurchase => ({
  orderUuid: order.uuid,
  buyerId: order.userId,
  product: order.product,
  amount: order.amount,
  currency: order.currency,
  paidAt,
});

/** A refund: the purchase's unspent credits back (never below zero, the rest recorded), its term ended. */
async function takeBackPurchase(tx: DbOrTx, order: PaymentOrderRow, now: Date): Promise<void> {
  const balance = await lockCredits(tx, order.userId);
  const { takeBack, unrecovered } = refundCredits(order.credits, balance);
  if (takeBack > 0) {
    await applyCreditChange(tx, {
      userId: order.userId,
      delta: -takeBack,
      kind: 'purchase_refund',
      ref: order.uuid,
      idempotencyKey: `payment:${order.uuid}:refund`,
    });
  }
  if (order.unlimitedDays > 0) {
    const until = await paymentsRepository.lockUnlimitedUntil(tx, order.userId);
    if (until) {
      await paymentsRepository.setUnlimitedUntil(
        tx,
        order.userId,
        shortenUntil(until, now, order.unlimitedDays),
      );
    }
  }
  await paymentsRepository.updateOrder(tx, order.uuid, now, {
    status: 'refunded',
    refundedAt: now,
    creditsTakenBack: takeBack,
    creditsUnrecovered: unrecovered,
  });
}
