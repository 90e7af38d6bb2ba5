import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  WALLET_PAY_IN_LIMITS,
  WALLET_TOP_UP_PRODUCT,
  type TPaymentCatalogue,
  type TPaymentMethod,
  type TPaymentOrder,
  type TPaymentRegion,
  type ZPaymentOrderCreate,
} from '@mirra/contracts';
import type { PaymentsDeps } from './payments.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { applyCreditChange, lockCredits } from '../credits/index.js';
import {
  cancelWalletEntry,
  getWalletBalance,
  recordWalletEntry,
  settleWalletEntry,
} from '../wallet/index.js';
import type { PaymentEvent, PaymentProvider, WebhookHeaders } from './payment-provider.js';
import {
  currencyOfRegion,
  extendUntil,
  parseCatalogue,
  priceProduct,
  refundCredits,
  regionOfCountry,
  returnUrlFor,
  safeReturnPath,
  shortenUntil,
  type CatalogueEntry,
} from './payments.models.js';
import { paymentsRepository, type PaymentOrderRow } from './payments.repository.js';
import { createTestProvider, testProviderKey } from './test-provider.js';

type Deps = Pick<
  PaymentsDeps,
  'db' | 'config' | 'logger' | 'now' | 'geo' | 'linkSecret' | 'purposeHandlers' | 'paymentListeners'
>;
type EventDeps = Pick<PaymentsDeps, 'logger' | 'now' | 'purposeHandlers' | 'paymentListeners'>;

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

/** The payment providers this server has: only those configured. */
export function availableProviders(deps: Pick<PaymentsDeps, 'config' | 'linkSecret'>): PaymentProvider[] {
  return deps.config.payments.testProvider ? [testProviderOf(deps)] : [];
}

/** The ways to pay offered: the configured providers, then the wallet's balance. */
export function availableMethods(deps: Pick<PaymentsDeps, 'config' | 'linkSecret'>): TPaymentMethod[] {
  return [...availableProviders(deps).map((p) => p.method), 'balance'];
}

/** The providers that can charge a saved method again (renewals need one). */
export function recurringMethods(deps: Pick<PaymentsDeps, 'config' | 'linkSecret'>): TPaymentMethod[] {
  return availableProviders(deps)
    .filter((p) => p.chargeSavedMethod)
    .map((p) => p.method);
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
export async function regionOf(
  deps: Pick<PaymentsDeps, 'db' | 'geo'>,
  caller: Caller,
): Promise<TPaymentRegion> {
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
    methods: availableMethods(deps),
  };
}

export async function changeRegion(deps: Deps, caller: Caller, region: TPaymentRegion) {
  await paymentsRepository.saveRegion(deps.db, caller.userId, deps.now(), region);
  return getCatalogue(deps, caller);
}

export function consentRequired(): AppError {
  return new AppError({ code: 'payments.consent_required', detail: CONSENT_REQUIRED_DETAIL });
}

/** What an order pays for, priced by the server. */
export interface PaymentRequest {
  userId: number;
  purpose: 'product' | 'subscription' | 'wallet_topup';
  /** The purpose's own id (a subscription's uuid). */
  purposeRef: string | null;
  method: TPaymentMethod;
  product: string;
  amount: number;
  currency: number;
  returnPath: string;
  consent: { agreeOffer: boolean; agreePrivacy: boolean };
  /** The buyer agrees that the method is kept for renewals. */
  saveMethod?: boolean;
  credits?: number;
  unlimitedDays?: number;
}

/**
 * Starts a payment: the order with the consent stored (document versions and time), then the
 * provider's page to pay it. Paying from the balance needs no page: the money leaves the wallet and
 * the order is paid in one transaction, and the answer leads straight back to the app.
 */
export async function startPayment(
  deps: Deps,
  request: PaymentRequest,
): Promise<{ uuid: string; confirmation_url: string }> {
  if (!request.consent.agreeOffer || !request.consent.agreePrivacy) throw consentRequired();
  const balance = request.method === 'balance';
  if (balance && (request.purpose === 'wallet_topup' || request.saveMethod)) {
    throw new AppError({
      code: 'payments.method_unavailable',
      detail: 'This payment method is not available.',
    });
  }
  const provider = balance ? null : providerFor(deps, request.method);
  const now = deps.now();
  const values = {
    userId: request.userId,
    product: request.product,
    provider: request.method,
    purpose: request.purpose,
    purposeRef: request.purposeRef,
    saveMethod: request.saveMethod ?? false,
    amount: request.amount,
    currency: request.currency,
    credits: request.credits ?? 0,
    unlimitedDays: request.unlimitedDays ?? 0,
    returnPath: safeReturnPath(request.returnPath),
    offerVersion: deps.config.payments.offerVersion,
    privacyVersion: deps.config.payments.privacyVersion,
    consentedAt: now,
  };
  if (!provider) {
    const order = await deps.db.transaction(async (tx) => {
      const created = await paymentsRepository.insertOrder(tx, values);
      await recordWalletEntry(
        tx,
        {
          userId: created.userId,
          currency: created.currency,
          amount: -created.amount,
          kind: 'purchase',
          ref: created.uuid,
          idempotencyKey: `payment:${created.uuid}:balance`,
        },
        now,
      );
      await applyPaymentEvent(deps, tx, 'balance', {
        type: 'payment.succeeded',
        orderUuid: created.uuid,
        providerPaymentId: `balance:${created.uuid}`,
        amount: created.amount,
        currency: created.currency,
      });
      return created;
    });
    return { uuid: order.uuid, confirmation_url: returnUrlFor(order.returnPath, order.uuid) };
  }
  const order = await deps.db.transaction(async (tx) => {
    const created = await paymentsRepository.insertOrder(tx, values);
    // A top-up shows in the wallet as pending until its payment settles it.
    if (created.purpose === 'wallet_topup') {
      await recordWalletEntry(
        tx,
        {
          userId: created.userId,
          currency: created.currency,
          amount: created.amount,
          kind: 'pay_in',
          pending: true,
          ref: created.uuid,
          idempotencyKey: `payment:${created.uuid}:pay_in`,
        },
        now,
      );
    }
    return created;
  });
  const { confirmationUrl } = await provider.createPayment(order);
  return { uuid: order.uuid, confirmation_url: confirmationUrl };
}

/**
 * An order of the catalogue (or a wallet top-up of the buyer's amount) at the price of the
 * person's region, with their consent stored; returns where to pay it.
 */
export async function createOrder(
  deps: Deps,
  caller: Caller,
  body: z.infer<typeof ZPaymentOrderCreate>,
): Promise<{ uuid: string; confirmation_url: string }> {
  const consent = { agreeOffer: body.agree_offer, agreePrivacy: body.agree_privacy };
  if (!consent.agreeOffer || !consent.agreePrivacy) throw consentRequired();
  const region = await regionOf(deps, caller);
  if (body.product === WALLET_TOP_UP_PRODUCT) {
    const currency = body.currency ?? currencyOfRegion(region);
    const limits = WALLET_PAY_IN_LIMITS[currency];
    if (!limits)
      throw new AppError({ code: 'wallet.currency_unknown', detail: 'This currency is not supported.' });
    const amount = body.amount ?? 0;
    if (amount < limits.min || amount > limits.max) {
      throw new AppError({
        code: 'wallet.amount_invalid',
        detail: 'The amount is outside the allowed range.',
        extra: { min: limits.min, max: limits.max, currency },
      });
    }
    return startPayment(deps, {
      userId: caller.userId,
      purpose: 'wallet_topup',
      purposeRef: null,
      method: body.method,
      product: WALLET_TOP_UP_PRODUCT,
      amount,
      currency,
      returnPath: body.return ?? '/',
      consent,
    });
  }
  const entry = catalogueOf(deps).find((e) => e.id === body.product);
  if (!entry) throw new AppError({ code: 'payments.product_unknown', detail: 'No such product.' });
  const product = priceProduct(entry, region);
  return startPayment(deps, {
    userId: caller.userId,
    purpose: 'product',
    purposeRef: null,
    method: body.method,
    product: product.id,
    amount: product.amount,
    currency: product.currency,
    credits: product.credits,
    unlimitedDays: product.days,
    returnPath: body.return ?? '/',
    consent,
  });
}

/**
 * Charges a method saved by an earlier order, without the buyer (a subscription renewal): a new
 * order (the provider's idempotency key is its uuid), and the provider's immediate answer applied
 * through the same path as its notifications. A pending answer is settled by the notification.
 */
export async function chargeSavedMethod(
  deps: Deps,
  request: Omit<PaymentRequest, 'consent' | 'saveMethod' | 'returnPath'> & { savedMethodId: string },
): Promise<{ uuid: string; status: 'pending' | 'paid' | 'failed' }> {
  const provider = providerFor(deps, request.method);
  if (!provider.chargeSavedMethod) {
    throw new AppError({
      code: 'payments.method_unavailable',
      detail: 'This payment method is not available.',
    });
  }
  const now = deps.now();
  const order = await paymentsRepository.insertOrder(deps.db, {
    userId: request.userId,
    product: request.product,
    provider: provider.method,
    purpose: request.purpose,
    purposeRef: request.purposeRef,
    savedMethodId: request.savedMethodId,
    amount: request.amount,
    currency: request.currency,
    credits: request.credits ?? 0,
    unlimitedDays: request.unlimitedDays ?? 0,
    returnPath: '/',
    // Agreed when the method was saved; this charge is the one that consent covers.
    offerVersion: deps.config.payments.offerVersion,
    privacyVersion: deps.config.payments.privacyVersion,
    consentedAt: now,
  });
  let charge;
  try {
    charge = await provider.chargeSavedMethod(order, request.savedMethodId);
  } catch (error) {
    deps.logger.warn({ err: error, order: order.uuid }, 'charging a saved method failed');
    charge = { status: 'failed' as const, providerPaymentId: `failed:${randomUUID()}` };
  }
  if (charge.status === 'pending') return { uuid: order.uuid, status: 'pending' };
  await deps.db.transaction((tx) =>
    applyPaymentEvent(deps, tx, provider.method, {
      type: charge.status === 'succeeded' ? 'payment.succeeded' : 'payment.failed',
      orderUuid: order.uuid,
      providerPaymentId: charge.providerPaymentId,
      amount: order.amount,
      currency: order.currency,
    }),
  );
  return { uuid: order.uuid, status: charge.status === 'succeeded' ? 'paid' : 'failed' };
}

/**
 * Gives a paid order's money back: a balance payment returns to the wallet at once; a provider's
 * refund is asked for, and applied when its notification arrives.
 */
export async function refundOrder(deps: Deps, orderUuid: string): Promise<void> {
  const order = await paymentsRepository.findOrder(deps.db, orderUuid);
  if (!order || order.status !== 'paid') {
    throw new AppError({ code: 'payments.order_not_found', detail: 'Not found.' });
  }
  const event: PaymentEvent = {
    type: 'refund.succeeded',
    orderUuid: order.uuid,
    providerPaymentId: order.providerPaymentId ?? `balance:${order.uuid}`,
    amount: order.amount,
    currency: order.currency,
  };
  if (order.provider === 'balance') {
    await deps.db.transaction((tx) => applyPaymentEvent(deps, tx, 'balance', event));
    return;
  }
  const provider = providerFor(deps, order.provider);
  await provider.refund({ ...order, providerPaymentId: event.providerPaymentId });
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
    purpose: order.purpose,
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
 * under `payment:<order>:grant`, the unlimited package extended, a top-up settled in the wallet,
 * the purpose's handler called), a refund taken back once. The domain events (PaymentListener)
 * fire in the same transaction.
 */
export async function applyPaymentEvent(
  deps: EventDeps,
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
  const before = order.status;
  let after: PaymentOrderRow;
  switch (event.type) {
    case 'payment.succeeded':
      if (order.status === 'paid' || order.status === 'refunded') return;
      after = await paymentsRepository.updateOrder(tx, order.uuid, now, {
        status: 'paid',
        providerPaymentId: event.providerPaymentId,
        paidAt: now,
        ...(event.savedMethodId && order.saveMethod ? { savedMethodId: event.savedMethodId } : {}),
      });
      await grantPurchase(tx, after, now);
      break;
    case 'payment.failed':
    case 'payment.cancelled':
      if (order.status !== 'pending') return;
      after = await paymentsRepository.updateOrder(tx, order.uuid, now, {
        status: event.type === 'payment.failed' ? 'failed' : 'cancelled',
      });
      if (order.purpose === 'wallet_topup') await cancelWalletEntry(tx, `payment:${order.uuid}:pay_in`, now);
      break;
    case 'refund.succeeded':
      if (order.status !== 'paid') return;
      after = await takeBackPurchase(tx, order, now);
      break;
  }
  if (order.purpose !== 'product' && order.purpose !== 'wallet_topup') {
    await deps.purposeHandlers[order.purpose]?.(tx, after, event, before);
  }
  for (const listener of deps.paymentListeners) {
    if (after.status === 'paid' && before !== 'paid') await listener.onPaid?.(tx, after);
    if (after.status === 'refunded' && before !== 'refunded') await listener.onRefunded?.(tx, after);
  }
}

/** What a paid order gives: its credits, its unlimited days, the top-up's money, once each. */
async function grantPurchase(tx: DbOrTx, order: PaymentOrderRow, now: Date): Promise<void> {
  if (order.credits > 0) {
    await applyCreditChange(tx, {
      userId: order.userId,
      delta: order.credits,
      kind: order.purpose === 'subscription' ? 'subscription_grant' : 'purchase',
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
  if (order.purpose === 'wallet_topup') await settleWalletEntry(tx, `payment:${order.uuid}:pay_in`);
}

/**
 * A refund: the purchase's unspent credits back (never below zero, the rest recorded), its term
 * ended; a top-up's money leaves the wallet as far as it is still there; a purchase paid from the
 * balance returns to it.
 */
async function takeBackPurchase(tx: DbOrTx, order: PaymentOrderRow, now: Date): Promise<PaymentOrderRow> {
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
  if (order.purpose === 'wallet_topup') {
    const wallet = await getWalletBalance(tx, order.userId, order.currency, now);
    const back = Math.min(order.amount, Math.max(0, wallet.available));
    if (back > 0) {
      await recordWalletEntry(
        tx,
        {
          userId: order.userId,
          currency: order.currency,
          amount: -back,
          kind: 'refund',
          ref: order.uuid,
          idempotencyKey: `payment:${order.uuid}:refund`,
        },
        now,
      );
    }
  }
  if (order.provider === 'balance') {
    await recordWalletEntry(
      tx,
      {
        userId: order.userId,
        currency: order.currency,
        amount: order.amount,
        kind: 'refund',
        ref: order.uuid,
        idempotencyKey: `payment:${order.uuid}:refund`,
      },
      now,
    );
  }
  return paymentsRepository.updateOrder(tx, order.uuid, now, {
    status: 'refunded',
    refundedAt: now,
    creditsTakenBack: takeBack,
    creditsUnrecovered: unrecovered,
  });
}
