import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import {
  CURRENCY_XTR,
  WALLET_PAY_IN_LIMITS,
  WALLET_TOP_UP_PRODUCT,
  type TAdminPaymentOrder,
  type TPaymentCatalogue,
  type TPaymentInvoiceState,
  type TPaymentMethod,
  type TPaymentOrder,
  type TPaymentRegion,
  type ZPaymentOrderCreate,
} from '@mirra/contracts';
import type { PaymentsDeps } from './payments.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { applyCreditChange, lockCredits } from '../credits/index.js';
import { findUserById } from '../users/index.js';
import { cancelWalletEntry, recordWalletEntry, settleWalletEntry } from '../wallet/index.js';
import {
  providerOfMethod,
  type InboundWebhook,
  type PaymentEvent,
  type PaymentPurpose,
  type ProviderName,
  type ProviderOrder,
  type YooKassaMethodType,
} from './payment-provider.js';
import {
  currencyOfRegion,
  extendUntil,
  priceProduct,
  refundCredits,
  refundedShare,
  regionOfCountry,
  returnUrlFor,
  safeReturnPath,
  shortenUntil,
  type CatalogueEntry,
} from './payments.models.js';
import {
  availableMethods,
  configuredProviders,
  providerNamed,
  recurringMethods,
} from './payments.providers.js';
import { cardCheckHold } from './providers/yookassa.provider.js';
import { paymentsRepository, type PaymentOrderRow } from './payments.repository.js';
import { recordPayment, recordWebhookError, type PaymentOutcome } from '../../shared/metrics.js';

export { testProviderOf } from './payments.providers.js';

type Deps = Pick<
  PaymentsDeps,
  | 'db'
  | 'config'
  | 'pricing'
  | 'logger'
  | 'now'
  | 'geo'
  | 'linkSecret'
  | 'telegramBot'
  | 'purposeHandlers'
  | 'paymentListeners'
>;
type EventDeps = Pick<PaymentsDeps, 'logger' | 'now' | 'purposeHandlers' | 'paymentListeners'>;

const CONSENT_REQUIRED_DETAIL = 'Please check the boxes to agree with the offer.';

/** The products on sale: the configured catalogue, or what the staff console last set. */
async function catalogueOf(deps: Pick<PaymentsDeps, 'pricing'>): Promise<CatalogueEntry[]> {
  return (await deps.pricing.current()).catalogue;
}

export function consentRequired(): AppError {
  return new AppError({ code: 'payments.consent_required', detail: CONSENT_REQUIRED_DETAIL });
}

/**
 * YooKassa fiscalises every payment (54-FZ) and a receipt goes to the buyer's email: a live shop
 * with receipts on refuses a payment without one, so none is started.
 */
const emailRequired = () =>
  new AppError({
    code: 'payments.email_required',
    detail: 'Enter an email for the receipt.',
  });

/**
 * The buyer agreed to the price they were shown (`amount` in `currency`, both sent): if the server
 * would charge anything else now (the catalogue or the region changed meanwhile), nothing is
 * charged and the answer names the price it would take instead.
 */
export function guardShownPrice(
  shown: { amount?: number | undefined; currency?: number | undefined },
  charged: { amount: number; currency: number },
): void {
  if (shown.amount === undefined && shown.currency === undefined) return;
  if (shown.amount === charged.amount && shown.currency === charged.currency) return;
  throw new AppError({
    code: 'payments.price_changed',
    detail: 'The price has changed. Check the new price and pay again.',
    extra: { amount: charged.amount, currency: charged.currency },
  });
}

const methodUnavailable = () =>
  new AppError({ code: 'payments.method_unavailable', detail: 'This payment method is not available.' });

export interface Caller {
  userId: number;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  /** Signed in with the Mini App's init data: Stars are offered. */
  inMiniApp?: boolean;
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
  const products = (await catalogueOf(deps)).map((entry) => priceProduct(entry, region));
  return {
    region,
    currency: products[0]!.currency,
    products,
    methods: availableMethods(deps, { region, inMiniApp: caller.inMiniApp ?? false }),
  };
}

export async function changeRegion(deps: Deps, caller: Caller, region: TPaymentRegion) {
  await paymentsRepository.saveRegion(deps.db, caller.userId, deps.now(), region);
  return getCatalogue(deps, caller);
}

/** What a payment is started with, by payments itself or by the subscriptions and wallet modules. */
export interface StartPaymentInput {
  userId: number;
  purpose: PaymentPurpose;
  /** The purpose's own id (a subscription's uuid). */
  purposeRef: string | null;
  method: TPaymentMethod;
  product: string;
  /** Minor units; whole Stars when `currency` is CURRENCY_XTR. Priced by the server, never the client. */
  amount: number;
  currency: number;
  /** Shown on the provider's page and the receipt; unset: named after the product. */
  description?: string;
  /** The app path to come back to. */
  returnPath: string | undefined;
  consent: { agreeOffer: boolean; agreePrivacy: boolean };
  /** The buyer agrees that the method is kept for renewals (charged again by Mirra). */
  saveMethod?: boolean;
  /** A subscription the provider itself renews (Stripe `subscription` mode, Stars `subscription_period`). */
  recurring?: { periodDays: number };
  /** With `recurring`: a free trial of `days`, then `amount` each period (the order's amount is 0). */
  trial?: { days: number; amount: number };
  credits?: number;
  unlimitedDays?: number;
  /**
   * The receipt's email the buyer typed (YooKassa, an account without an email): kept on the
   * order, never on the account. Unset: the account's email.
   */
  receiptEmail?: string;
}
/** The same, as the subscriptions and wallet modules name it. */
export type PaymentRequest = StartPaymentInput;

/**
 * An order with the buyer's consent to the offer and the privacy policy stored (document versions
 * and time), started with its provider; answers where to pay it.
 */
export async function startPayment(
  deps: Deps,
  input: StartPaymentInput,
): Promise<{ uuid: string; confirmation_url: string }> {
  if (!input.consent.agreeOffer || !input.consent.agreePrivacy) throw consentRequired();
  const providerName = input.method === 'balance' ? null : providerOfMethod(input.method);
  const receiptEmail = input.receiptEmail ?? (await findUserById(deps.db, input.userId))?.email ?? null;
  if (providerName === 'yookassa' && !receiptEmail) throw emailRequired();
  const now = deps.now();
  const values = {
    userId: input.userId,
    product: input.product,
    method: input.method,
    purpose: input.purpose,
    purposeRef: input.purposeRef,
    saveMethod: input.saveMethod ?? false,
    recurringDays: input.recurring?.periodDays ?? null,
    amount: input.amount,
    currency: input.currency,
    credits: input.credits ?? 0,
    unlimitedDays: input.unlimitedDays ?? 0,
    returnPath: safeReturnPath(input.returnPath),
    receiptEmail,
    offerVersion: deps.config.payments.offerVersion,
    privacyVersion: deps.config.payments.privacyVersion,
    consentedAt: now,
  };
  if (!providerName) return payFromBalance(deps, { ...values, provider: 'balance' });
  const provider = providerNamed(deps, providerName);
  if (!provider) throw methodUnavailable();
  if ((providerName === 'stars') !== (input.currency === CURRENCY_XTR)) throw methodUnavailable();
  const order = await deps.db.transaction(async (tx) => {
    const created = await paymentsRepository.insertOrder(tx, { ...values, provider: providerName });
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
  let started: Awaited<ReturnType<typeof provider.createPayment>>;
  try {
    started = await provider.createPayment({
      ...(await providerOrderOf(deps, order, input.description ?? describeOrder(order))),
      ...(input.trial && input.recurring ? { trial: input.trial } : {}),
    });
  } catch (error) {
    // The provider could not start it: the order is failed and a top-up's money no longer shown
    // as on its way (a payment the provider made after all still applies by its notification).
    await deps.db.transaction(async (tx) => {
      await paymentsRepository.updateOrder(tx, order.uuid, deps.now(), { status: 'failed' });
      if (order.purpose === 'wallet_topup') {
        await cancelWalletEntry(tx, `payment:${order.uuid}:pay_in`, deps.now());
      }
    });
    throw error;
  }
  if (started.providerPaymentId) {
    await paymentsRepository.updateOrder(deps.db, order.uuid, deps.now(), {
      providerPaymentId: started.providerPaymentId,
    });
  }
  return { uuid: order.uuid, confirmation_url: started.confirmationUrl };
}

/**
 * Paying from the wallet needs no page: the money leaves the wallet and the order is paid in one
 * transaction, and the answer leads straight back to the app.
 */
async function payFromBalance(
  deps: Deps,
  values: Parameters<typeof paymentsRepository.insertOrder>[1],
): Promise<{ uuid: string; confirmation_url: string }> {
  if (values.purpose === 'wallet_topup' || values.saveMethod || values.currency === CURRENCY_XTR) {
    throw methodUnavailable();
  }
  const now = deps.now();
  const { order, changed } = await deps.db.transaction(async (tx) => {
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
    const paid = await applyPaymentEvent(deps, tx, 'balance', {
      type: 'payment.succeeded',
      eventId: `balance:${created.uuid}`,
      orderUuid: created.uuid,
      providerPaymentId: `balance:${created.uuid}`,
      amount: created.amount,
      currency: created.currency,
    });
    return { order: created, changed: paid };
  });
  if (changed) recordPayment('balance', changed.currency, changed.outcome);
  return { uuid: order.uuid, confirmation_url: returnUrlFor(order.returnPath, order.uuid) };
}

/**
 * The key of an invoice's open page: the page's address carries it beside the invoice's uuid, so
 * the uuid alone (in logs, in another person's hands) opens nothing.
 */
function invoiceToken(deps: Pick<PaymentsDeps, 'linkSecret'>, uuid: string): string {
  return createHmac('sha256', deps.linkSecret).update(`mirra:invoice:${uuid}`).digest('hex').slice(0, 32);
}

function isInvoiceToken(deps: Pick<PaymentsDeps, 'linkSecret'>, uuid: string, token: string | undefined) {
  if (typeof token !== 'string' || !/^[0-9a-f]{32}$/.test(token)) return false;
  return timingSafeEqual(Buffer.from(token), Buffer.from(invoiceToken(deps, uuid)));
}

/** Where the buyer comes back to: SberPay to its live invoice page, everyone else to the app. */
function absoluteReturnUrl(
  deps: Pick<PaymentsDeps, 'config' | 'linkSecret'>,
  order: PaymentOrderRow,
): string {
  const path =
    order.method === 'yookassa_sberbank'
      ? `/sberpay/${order.uuid}/?key=${invoiceToken(deps, order.uuid)}`
      : returnUrlFor(order.returnPath, order.uuid);
  return `${deps.config.publicUrl}${path}`;
}

async function providerOrderOf(
  deps: Pick<PaymentsDeps, 'db' | 'config' | 'linkSecret'>,
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
    ...(order.method.startsWith('yookassa_')
      ? { methodType: order.method.slice('yookassa_'.length) as YooKassaMethodType }
      : {}),
    ...(order.recurringDays ? { recurring: { periodDays: order.recurringDays } } : {}),
    ...(order.saveMethod ? { saveMethod: true } : {}),
  };
}

const describeProduct = (entry: CatalogueEntry) =>
  entry.kind === 'credits' ? `Mirra: ${entry.credits} credits` : `Mirra: unlimited for ${entry.days} days`;

/** What the provider's page and the receipt call an order Mirra did not describe. */
function describeOrder(order: PaymentOrderRow): string {
  if (order.purpose === 'wallet_topup') return 'Mirra: wallet top-up';
  if (order.purpose === 'subscription') return 'Mirra Premium';
  return `Mirra: ${order.product}`;
}

/**
 * A credit pack or the unlimited package at the price of the person's region (or in Stars), or a
 * wallet top-up of the buyer's amount, with their consent stored; returns where to pay it.
 */
export async function createOrder(
  deps: Deps,
  caller: Caller,
  body: z.infer<typeof ZPaymentOrderCreate>,
): Promise<{ uuid: string; confirmation_url: string }> {
  const consent = { agreeOffer: body.agree_offer, agreePrivacy: body.agree_privacy };
  if (!consent.agreeOffer || !consent.agreePrivacy) throw consentRequired();
  const region = await regionOf(deps, caller);
  if (!availableMethods(deps, { region, inMiniApp: caller.inMiniApp ?? false }).includes(body.method)) {
    throw methodUnavailable();
  }
  if (body.product === WALLET_TOP_UP_PRODUCT) {
    const currency = body.currency ?? currencyOfRegion(region);
    const limits = WALLET_PAY_IN_LIMITS[currency];
    if (!limits) {
      throw new AppError({ code: 'wallet.currency_unknown', detail: 'This currency is not supported.' });
    }
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
      ...(body.email ? { receiptEmail: body.email } : {}),
    });
  }
  const entry = (await catalogueOf(deps)).find((e) => e.id === body.product);
  if (!entry) throw new AppError({ code: 'payments.product_unknown', detail: 'No such product.' });
  const product = priceProduct(entry, region);
  const inStars = body.method === 'stars';
  if (inStars && !product.stars) throw methodUnavailable();
  const price = inStars
    ? { amount: product.stars, currency: CURRENCY_XTR }
    : { amount: product.amount, currency: product.currency };
  guardShownPrice(body, price);
  return startPayment(deps, {
    userId: caller.userId,
    purpose: 'product',
    purposeRef: null,
    method: body.method,
    product: product.id,
    amount: price.amount,
    currency: price.currency,
    description: describeProduct(entry),
    returnPath: body.return,
    consent,
    credits: product.credits,
    unlimitedDays: product.days,
    ...(body.email ? { receiptEmail: body.email } : {}),
  });
}

/**
 * A renewal charged to a method saved by an earlier payment (YooKassa `payment_method_id`), with
 * no buyer present: a new order (its uuid is the idempotency key), the result applied at once
 * when final and otherwise by its notification or the reconciler.
 */
export async function chargeSavedMethod(
  deps: Deps,
  input: Omit<StartPaymentInput, 'method' | 'returnPath' | 'consent' | 'recurring' | 'saveMethod'> & {
    /** The method (or provider name) the saved method belongs to: `yookassa_bank_card`, `yookassa`, `test`. */
    method?: string;
    provider?: ProviderName;
    savedMethodId: string;
  },
): Promise<{ uuid: string; status: 'pending' | 'paid' | 'failed' }> {
  const name = input.provider ?? providerOfMethod((input.method ?? '') as TPaymentMethod);
  const provider = providerNamed(deps, name);
  if (!provider?.chargeSavedMethod) throw methodUnavailable();
  const now = deps.now();
  // The receipt goes where the first payment's went (typed at checkout when the account has none).
  const receiptEmail =
    input.receiptEmail ??
    (input.purposeRef ? await paymentsRepository.latestReceiptEmail(deps.db, input.purposeRef) : null);
  const order = await paymentsRepository.insertOrder(deps.db, {
    userId: input.userId,
    product: input.product,
    provider: provider.name,
    receiptEmail,
    method: input.method ?? provider.name,
    purpose: input.purpose,
    purposeRef: input.purposeRef,
    amount: input.amount,
    currency: input.currency,
    credits: input.credits ?? 0,
    unlimitedDays: input.unlimitedDays ?? 0,
    returnPath: '/',
    savedMethodId: input.savedMethodId,
    // The consent given with the first payment covers its renewals.
    offerVersion: deps.config.payments.offerVersion,
    privacyVersion: deps.config.payments.privacyVersion,
    consentedAt: now,
  });
  let charged: Awaited<ReturnType<NonNullable<typeof provider.chargeSavedMethod>>>;
  try {
    charged = await provider.chargeSavedMethod(
      await providerOrderOf(deps, order, input.description ?? describeOrder(order)),
      input.savedMethodId,
    );
  } catch (error) {
    // Refused outright (a 4xx): a failed renewal, retried later with a new order.
    deps.logger.warn({ err: error, order: order.uuid }, 'charging a saved method failed');
    const providerPaymentId = `failed:${randomUUID()}`;
    charged = {
      providerPaymentId,
      event: {
        type: 'payment.failed',
        eventId: providerPaymentId,
        orderUuid: order.uuid,
        providerPaymentId,
        amount: order.amount,
        currency: order.currency,
      },
    };
  }
  await paymentsRepository.updateOrder(deps.db, order.uuid, deps.now(), {
    providerPaymentId: charged.providerPaymentId,
  });
  if (charged.event) await applyEvents(deps, provider.name, [charged.event]);
  const after = (await paymentsRepository.findOrder(deps.db, order.uuid))!;
  return {
    uuid: order.uuid,
    status: after.status === 'paid' ? 'paid' : after.status === 'pending' ? 'pending' : 'failed',
  };
}

/**
 * Whether a charge of a saved method for this item (a subscription's uuid) is still pending at its
 * provider: a renewal is not charged again while the last one has not been answered.
 */
export function hasPendingCharge(deps: Pick<PaymentsDeps, 'db'>, purposeRef: string): Promise<boolean> {
  return paymentsRepository.hasPendingOrderFor(deps.db, purposeRef);
}

/** Stops a provider's own renewals of a subscription (Stripe, Stars); access runs to its date. */
export async function cancelProviderSubscription(
  deps: Deps,
  input: { provider: ProviderName; providerSubscriptionId: string; userId: number },
): Promise<void> {
  const provider = providerNamed(deps, input.provider);
  if (!provider?.cancelSubscription) throw methodUnavailable();
  await provider.cancelSubscription(input);
}

/** Writes the staff audit row of a refund in the refund's own transaction, given its outcome. */
export type RecordRefund = (tx: DbOrTx, outcome: 'refunded' | 'requested') => Promise<void>;

/**
 * Gives a paid order's money back (`amount` minor units of it; unset: all that is left): a balance
 * payment returns to the wallet at once, and so does a Stars payment once Telegram answers; a
 * provider's refund is asked for, and applied when its notification arrives. `record` (a staff
 * refund's audit row) is written in the transaction that returns a balance payment; for a
 * provider's refund, in a transaction around the provider's request, so a refused request leaves
 * no row and a row that cannot be written asks nothing.
 */
export async function refundOrder(
  deps: Deps,
  orderUuid: string,
  amount?: number,
  record?: RecordRefund,
): Promise<'refunded' | 'requested'> {
  const order = await paymentsRepository.findOrder(deps.db, orderUuid);
  if (!order) throw new AppError({ code: 'payments.order_not_found', detail: 'Not found.' });
  if (order.status !== 'paid') {
    throw new AppError({ code: 'payments.not_refundable', detail: 'Only a paid order can be refunded.' });
  }
  const left = order.amount - order.amountRefunded;
  if (amount !== undefined && (!Number.isInteger(amount) || amount <= 0 || amount > left)) {
    throw new AppError({
      code: 'payments.not_refundable',
      detail: 'The refund is more than what is left of the payment.',
    });
  }
  // Stripe and YooKassa refund part of a payment; Telegram Stars, Cryptomus and the wallet only all of it.
  if (amount !== undefined && amount < left && !['stripe', 'yookassa'].includes(order.provider)) {
    throw new AppError({
      code: 'payments.not_refundable',
      detail: 'This payment can only be refunded in full.',
    });
  }
  if (order.provider === 'balance') {
    const changed = await deps.db.transaction(async (tx) => {
      const refunded = await applyPaymentEvent(deps, tx, 'balance', {
        type: 'refund.succeeded',
        eventId: `balance:${order.uuid}:refund`,
        orderUuid: order.uuid,
        providerPaymentId: order.providerPaymentId ?? `balance:${order.uuid}`,
        amount: order.amount,
        currency: order.currency,
      });
      await record?.(tx, 'refunded');
      return refunded;
    });
    if (changed) recordPayment('balance', changed.currency, changed.outcome);
    return 'refunded';
  }
  const provider = providerNamed(deps, order.provider as ProviderName);
  if (!provider || !order.providerPaymentId) throw methodUnavailable();
  const providerOrder = await providerOrderOf(deps, order, describeOrder(order));
  const providerPaymentId = order.providerPaymentId;
  const ask = () =>
    provider.refund({
      ...providerOrder,
      providerPaymentId,
      alreadyRefunded: order.amountRefunded,
      ...(amount !== undefined && amount < left ? { refundAmount: amount } : {}),
    });
  // The order is not locked here: the provider may notify the refund while it is being asked.
  const done = record
    ? await deps.db.transaction(async (tx) => {
        await record(tx, provider.refundsAtOnce ? 'refunded' : 'requested');
        return ask();
      })
    : await ask();
  if (!done) return 'requested';
  // Final already (Telegram Stars): applied now, so whoever refunded sees it refunded.
  await applyEvents(deps, provider.name, [done]);
  return 'refunded';
}

/** A person's latest orders as staff see them, newest first. */
export async function listOrdersForStaff(
  deps: Pick<Deps, 'db'>,
  userId: number,
  limit = 50,
): Promise<TAdminPaymentOrder[]> {
  const rows = await paymentsRepository.listUserOrders(deps.db, userId, limit);
  return rows.map(toStaffOrder);
}

function toStaffOrder(order: PaymentOrderRow): TAdminPaymentOrder {
  return {
    uuid: order.uuid,
    product: order.product,
    purpose: order.purpose,
    provider: order.provider,
    method: order.method,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    credits: order.credits,
    provider_payment_id: order.providerPaymentId,
    created_at: order.createdAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
    refunded_at: order.refundedAt?.toISOString() ?? null,
    amount_refunded: order.amountRefunded,
    refundable: order.status === 'paid',
  };
}

const UUID_TERM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Orders for the staff payment search, newest first, a page at a time: the term is tried as the
 * order's uuid, the provider's payment id, and as any of `buyerIds` (the people the term named);
 * no term lists every order. Each order comes with its buyer's id.
 */
export async function searchOrdersForStaff(
  deps: Pick<Deps, 'db'>,
  term: string | null,
  buyerIds: number[],
  cursor: string | undefined,
  limit: number,
): Promise<{ results: { order: TAdminPaymentOrder; userId: number }[]; next: string | null }> {
  const terms = term
    ? {
        orderUuid: UUID_TERM.test(term) ? term.toLowerCase() : null,
        providerPaymentId: term,
        userIds: buyerIds,
      }
    : null;
  // The cursor is the last order's uuid; anything else starts from the newest.
  const after = cursor && UUID_TERM.test(cursor) ? cursor.toLowerCase() : null;
  const rows = await paymentsRepository.searchOrders(deps.db, terms, after, limit + 1);
  const page = rows.slice(0, limit);
  return {
    results: page.map((order) => ({ order: toStaffOrder(order), userId: order.userId })),
    next: rows.length > limit ? page.at(-1)!.uuid : null,
  };
}

/** The person an order belongs to (staff audit the refund on the order and see whose it was). */
export async function findOrderOwner(deps: Pick<Deps, 'db'>, orderUuid: string): Promise<number | null> {
  return (await paymentsRepository.findOrder(deps.db, orderUuid))?.userId ?? null;
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
 * The buyer came back through the checkout's cancel link: the provider closes the checkout (so a
 * tab left open can no longer pay it) and the order is re-fetched, which ends it as cancelled, or
 * paid when the payment got there first. An order no longer pending is answered as it is.
 */
export async function cancelOrder(deps: Deps, userId: number, uuid: string): Promise<TPaymentOrder> {
  const order = await paymentsRepository.findUserOrder(deps.db, userId, uuid);
  if (!order) throw new AppError({ code: 'payments.order_not_found', detail: 'Not found.' });
  const provider = providerNamed(deps, order.provider as ProviderName);
  if (order.status === 'pending' && provider?.closeCheckout) {
    try {
      await provider.closeCheckout(order);
    } catch (error) {
      // The provider is unreachable: the order stays pending, its checkout expires by itself, and
      // the reconciler settles it.
      deps.logger.warn({ err: error, order: order.uuid }, 'could not close a checkout');
    }
    await reconcileOrder(deps, order);
  }
  return serializeOrder((await paymentsRepository.findUserOrder(deps.db, userId, uuid))!);
}

/**
 * An invoice's live state for the open SberPay return page (no sign-in: SberPay may return the
 * buyer to another browser). Its uuid with the page's token opens it; it shows nothing personal.
 */
export async function getInvoiceState(
  deps: Deps,
  uuid: string,
  token: string | undefined,
): Promise<TPaymentInvoiceState> {
  const order = isInvoiceToken(deps, uuid, token)
    ? await paymentsRepository.findOrder(deps.db, uuid)
    : undefined;
  if (!order) throw new AppError({ code: 'payments.order_not_found', detail: 'Not found.' });
  if (order.status === 'pending') await reconcileOrder(deps, order);
  const current = (await paymentsRepository.findOrder(deps.db, uuid))!;
  return {
    uuid: current.uuid,
    status: current.status,
    amount: current.amount,
    currency: current.currency,
    product: current.product,
    held: current.provider === 'yookassa' ? cardCheckHold(current) : 0,
    return_path: returnUrlFor(current.returnPath, current.uuid),
  };
}

/**
 * A provider's notification: verified as the provider signs it (or, for YooKassa, by its source
 * network and the payment re-fetched), then each event applied in one transaction. A forged one
 * changes nothing (`payments.signature_invalid`).
 */
export async function receiveWebhook(deps: Deps, name: string, inbound: InboundWebhook): Promise<void> {
  const provider = configuredProviders(deps).get(name as ProviderName);
  const events = provider ? await provider.parseWebhook(inbound) : null;
  if (!provider || !events) {
    throw new AppError({ code: 'payments.signature_invalid', detail: 'The notification is not signed.' });
  }
  await applyEvents(deps, provider.name, events);
}

/** Applies verified events of one provider, each in its own transaction. */
export async function applyEvents(deps: Deps, provider: ProviderName, events: PaymentEvent[]): Promise<void> {
  for (const event of events) {
    const changed = await deps.db.transaction((tx) => applyPaymentEvent(deps, tx, provider, event));
    if (changed) recordPayment(provider, changed.currency, changed.outcome);
  }
}

/** How an applied event changed its order's money, for the payments metric; null if it did not. */
export interface PaymentChange {
  outcome: PaymentOutcome;
  currency: number;
}

/**
 * The order an event belongs to, row-locked: the one holding the payment it names (a later period
 * of a provider-run subscription is an order of its own), else by its uuid, else by the
 * subscription id.
 */
async function lockOrderOf(tx: DbOrTx, provider: ProviderName | 'balance', event: PaymentEvent) {
  const byPayment =
    event.type === 'refund.succeeded' || event.type === 'payment.disputed'
      ? await paymentsRepository.findOrderUuidByProviderRef(tx, provider, event.providerPaymentId, undefined)
      : undefined;
  const uuid =
    byPayment ??
    event.orderUuid ??
    (await paymentsRepository.findOrderUuidByProviderRef(
      tx,
      provider,
      event.providerPaymentId,
      event.providerSubscriptionId,
    ));
  return uuid ? paymentsRepository.lockOrder(tx, uuid) : undefined;
}

/**
 * Applies one verified event to its order under the order's row lock, once per the provider's
 * event id, so duplicate, late and out-of-order events change nothing twice: a payment is granted
 * once (credits in the ledger under `payment:<order>:grant`, the unlimited package extended, a
 * top-up settled in the wallet), a refund taken back once. The purpose's handler (subscriptions)
 * and the domain events (PaymentListener) run in the same transaction.
 */
export async function applyPaymentEvent(
  deps: EventDeps,
  tx: DbOrTx,
  provider: ProviderName | 'balance',
  event: PaymentEvent,
): Promise<PaymentChange | null> {
  const order = await lockOrderOf(tx, provider, event);
  if (!order || order.provider !== provider) {
    deps.logger.warn({ provider, event: event.eventId }, 'payment event for no known order; ignored');
    recordWebhookError(provider, 'unknown');
    return null;
  }
  if (!(await paymentsRepository.claimEvent(tx, provider, event.eventId, order.uuid, event.type)))
    return null;
  const renewal = event.type.startsWith('subscription.');
  // A bank disputes what it likes of a payment; the order found by the payment is what it hit.
  const disputed = event.type === 'payment.disputed' || event.chargeback === true;
  if (!renewal && !disputed && (order.amount !== event.amount || order.currency !== event.currency)) {
    deps.logger.error({ order: order.uuid, event }, 'payment amount does not match its order; not applied');
    return null;
  }
  const now = deps.now();
  if (event.type === 'subscription.renewed') {
    const renewal = await applyProviderRenewal(deps, tx, order, event, now);
    return renewal ? { outcome: 'paid', currency: renewal.currency } : null;
  }
  const before = order.status;
  let after: PaymentOrderRow = order;
  switch (event.type) {
    case 'payment.succeeded':
      if (order.status === 'paid' || order.status === 'refunded') return null;
      after = await paymentsRepository.updateOrder(tx, order.uuid, now, {
        status: 'paid',
        providerPaymentId: event.providerPaymentId,
        paidAt: now,
        ...(event.savedMethodId && (order.saveMethod || order.recurringDays)
          ? { savedMethodId: event.savedMethodId }
          : {}),
        ...(event.providerSubscriptionId ? { providerSubscriptionId: event.providerSubscriptionId } : {}),
      });
      await grantPurchase(tx, after, now);
      break;
    case 'payment.failed':
    case 'payment.cancelled':
      if (order.status !== 'pending') return null;
      after = await paymentsRepository.updateOrder(tx, order.uuid, now, {
        status: event.type === 'payment.failed' ? 'failed' : 'cancelled',
      });
      if (order.purpose === 'wallet_topup') await cancelWalletEntry(tx, `payment:${order.uuid}:pay_in`, now);
      break;
    case 'payment.disputed':
      // Held: the bank has the money until the dispute closes; lost, it comes as a chargeback.
      if (order.status !== 'paid' || order.disputedAt) return null;
      after = await paymentsRepository.updateOrder(tx, order.uuid, now, { disputedAt: now });
      deps.logger.warn({ order: order.uuid, event: event.eventId }, 'payment disputed by the buyer’s bank');
      break;
    case 'refund.succeeded': {
      // A refund of a provider-run subscription's later period names that period's payment.
      if (order.providerPaymentId !== null && event.providerPaymentId !== order.providerPaymentId) break;
      if (order.status !== 'paid') return null;
      // A chargeback (a dispute lost) takes the whole order back, like a full refund.
      const refunded = event.chargeback
        ? order.amount
        : Math.min(order.amount, event.refundedAmount ?? order.amount);
      // The provider's total refunded so far: one already applied (a second notification of the
      // same refund, or an older one arriving late) takes nothing more.
      if (refunded < order.amount && refunded <= order.amountRefunded) return null;
      after = await takeBackPurchase(tx, order, refunded, now);
      break;
    }
    default:
      // Renewals, failed renewals and changes of provider-run subscriptions: the purpose's own.
      break;
  }
  if (order.purpose === 'subscription') await deps.purposeHandlers.subscription?.(tx, after, event, before);
  const refundedMore =
    (after.status === 'refunded' && before !== 'refunded') || after.amountRefunded > order.amountRefunded;
  for (const listener of deps.paymentListeners) {
    if (after.status === 'paid' && before !== 'paid') await listener.onPaid?.(tx, after);
    if (refundedMore) await listener.onRefunded?.(tx, after);
  }
  return paymentChangeOf(before, after, refundedMore);
}

function paymentChangeOf(
  before: PaymentOrderRow['status'],
  after: PaymentOrderRow,
  refundedMore: boolean,
): PaymentChange | null {
  const outcome: PaymentOutcome | null = refundedMore
    ? 'refunded'
    : after.status === 'paid' && before !== 'paid'
      ? 'paid'
      : after.status === 'failed' && before !== 'failed'
        ? 'failed'
        : null;
  return outcome ? { outcome, currency: after.currency } : null;
}

/**
 * A later period a provider charged by itself (Stripe `invoice.paid`, a Stars renewal) is an order
 * of its own, paid, holding that payment — once per payment, however often it is notified — so
 * a refund of that period finds it, and the domain events see each period's money (commission on
 * it, clawback when it is refunded). The subscription's handler gives the period (access, credits).
 */
async function applyProviderRenewal(
  deps: EventDeps,
  tx: DbOrTx,
  first: PaymentOrderRow,
  event: PaymentEvent,
  now: Date,
): Promise<PaymentOrderRow | null> {
  if (first.purpose !== 'subscription') return null;
  const parent = first.renewalOf ? await paymentsRepository.findOrder(tx, first.renewalOf) : first;
  if (!parent) return null;
  const renewal = await paymentsRepository.insertOrderOnce(tx, {
    userId: parent.userId,
    product: parent.product,
    provider: parent.provider,
    method: parent.method,
    purpose: parent.purpose,
    purposeRef: parent.purposeRef,
    renewalOf: parent.uuid,
    status: 'paid',
    amount: event.amount,
    currency: event.currency,
    returnPath: parent.returnPath,
    providerPaymentId: event.providerPaymentId,
    // The consent given with the first payment covers its renewals.
    offerVersion: parent.offerVersion,
    privacyVersion: parent.privacyVersion,
    consentedAt: parent.consentedAt,
    paidAt: now,
  });
  if (!renewal) return null;
  await deps.purposeHandlers.subscription?.(tx, renewal, event, 'pending');
  for (const listener of deps.paymentListeners) await listener.onPaid?.(tx, renewal);
  return renewal;
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
  if (order.purpose === 'wallet_topup') {
    const settled = await settleWalletEntry(tx, `payment:${order.uuid}:pay_in`);
    // Paid after it was reported failed or cancelled (its pending entry cancelled then): the money
    // arrived all the same, so it is recorded as a pay-in of its own.
    if (!settled.applied && settled.entry.status === 'cancelled') {
      await recordWalletEntry(
        tx,
        {
          userId: order.userId,
          currency: order.currency,
          amount: order.amount,
          kind: 'pay_in',
          ref: order.uuid,
          idempotencyKey: `payment:${order.uuid}:pay_in:late`,
        },
        now,
      );
    }
  }
}

/**
 * A refund of `refunded` (the provider's total so far) of the order's money: a whole refund takes
 * back the purchase's unspent credits (never below zero, the rest recorded) and ends its term; a
 * partial one takes back the share of credits and days the refunded money paid for
 * (`refundedShare`), less what earlier partial refunds took. A top-up's refunded money leaves the
 * wallet as far as it is still there; a purchase paid from the balance returns to it. The order
 * stays paid until all of it is refunded.
 */
async function takeBackPurchase(
  tx: DbOrTx,
  order: PaymentOrderRow,
  refunded: number,
  now: Date,
): Promise<PaymentOrderRow> {
  const whole = refunded >= order.amount;
  const key = whole ? `payment:${order.uuid}:refund` : `payment:${order.uuid}:refund:${refunded}`;
  const creditsDue = Math.max(
    0,
    refundedShare(order.credits, order.amount, refunded) - order.creditsTakenBack - order.creditsUnrecovered,
  );
  const balance = await lockCredits(tx, order.userId);
  const { takeBack, unrecovered } = refundCredits(creditsDue, balance);
  if (takeBack > 0) {
    await applyCreditChange(tx, {
      userId: order.userId,
      delta: -takeBack,
      kind: 'purchase_refund',
      ref: order.uuid,
      idempotencyKey: key,
    });
  }
  const daysDue =
    refundedShare(order.unlimitedDays, order.amount, refunded) -
    refundedShare(order.unlimitedDays, order.amount, order.amountRefunded);
  if (daysDue > 0) {
    const until = await paymentsRepository.lockUnlimitedUntil(tx, order.userId);
    if (until) {
      await paymentsRepository.setUnlimitedUntil(tx, order.userId, shortenUntil(until, now, daysDue));
    }
  }
  const moneyDue = refunded - order.amountRefunded;
  if (order.purpose === 'wallet_topup' && moneyDue > 0) {
    // The whole refunded top-up leaves the wallet, even below zero when part of it was spent: the
    // negative balance is a debt staff see on the person's wallet, paid first by later money in.
    await recordWalletEntry(
      tx,
      {
        userId: order.userId,
        currency: order.currency,
        amount: -moneyDue,
        kind: 'refund',
        ref: order.uuid,
        allowNegative: true,
        idempotencyKey: key,
      },
      now,
    );
  }
  if (order.provider === 'balance') {
    await recordWalletEntry(
      tx,
      {
        userId: order.userId,
        currency: order.currency,
        amount: moneyDue,
        kind: 'refund',
        ref: order.uuid,
        idempotencyKey: key,
      },
      now,
    );
  }
  return paymentsRepository.updateOrder(tx, order.uuid, now, {
    ...(whole ? { status: 'refunded' as const } : {}),
    refundedAt: now,
    amountRefunded: Math.max(refunded, order.amountRefunded),
    creditsTakenBack: order.creditsTakenBack + takeBack,
    creditsUnrecovered: order.creditsUnrecovered + unrecovered,
  });
}

/** Re-checks one pending order with its provider and applies what the provider reports. */
export async function reconcileOrder(deps: Deps, order: PaymentOrderRow): Promise<void> {
  const provider = providerNamed(deps, order.provider as ProviderName);
  if (!provider) return;
  try {
    const event = await provider.fetchPayment(order);
    if (event) await applyEvents(deps, provider.name, [event]);
  } catch (error) {
    deps.logger.warn({ err: error, order: order.uuid }, 'could not re-check a pending payment');
  }
}

/**
 * The reconciler: orders still pending after PAYMENTS_RECONCILE_AFTER_SECONDS (a notification lost
 * or never sent) are re-fetched from their provider, for up to two days after they were made.
 */
export async function reconcilePendingOrders(deps: Deps): Promise<number> {
  const now = deps.now().getTime();
  const pending = await paymentsRepository.findPendingOrders(
    deps.db,
    new Date(now - 2 * 86_400_000),
    new Date(now - deps.config.payments.reconcileAfterSeconds * 1000),
    100,
  );
  for (const order of pending) await reconcileOrder(deps, order);
  return pending.length;
}

export { availableMethods, recurringMethods };
