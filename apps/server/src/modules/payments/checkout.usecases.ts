import type { z } from 'zod';
import {
  CURRENCY_XTR,
  WALLET_PAY_IN_LIMITS,
  WALLET_TOP_UP_PRODUCT,
  type TPaymentCatalogue,
  type TPaymentInvoiceState,
  type TPaymentMethod,
  type TPaymentOrder,
  type TPaymentRegion,
  type ZPaymentOrderCreate,
} from '@mirra/contracts';
import { AppError } from '../../shared/errors.js';
import { recordPayment } from '../../shared/metrics.js';
import { findUserById } from '../users/index.js';
import { cancelWalletEntry, recordWalletEntry } from '../wallet/index.js';
import {
  describeOrder,
  isInvoiceToken,
  methodUnavailable,
  orderNotFound,
  providerOrderOf,
  serializeOrder,
} from './payment-orders.js';
import { WALLET_BALANCE, type PaymentPurpose } from './payment-provider.js';
import type { PaymentsDeps } from './payments.deps.js';
import {
  currencyOfRegion,
  priceProduct,
  regionOfCountry,
  returnUrlFor,
  safeReturnPath,
  type CatalogueEntry,
} from './payments.models.js';
import {
  availableMethods,
  chargesInStars,
  methodFacts,
  providerNamed,
  providerOfMethod,
} from './payments.providers.js';
import { paymentsRepository } from './payments.repository.js';
import { applyPaymentEvent, reconcileOrder, type EventDeps } from './provider-events.usecases.js';

// Checkout: the catalogue and the region, an order priced by the server and started with the
// provider of the way to pay picked (or paid from the wallet at once), the buyer's view of it.

type CatalogueDeps = Pick<
  PaymentsDeps,
  'db' | 'geo' | 'pricing' | 'now' | 'config' | 'linkSecret' | 'telegramBot'
>;
type CheckoutDeps = EventDeps & Pick<PaymentsDeps, 'geo' | 'pricing'>;

const CONSENT_REQUIRED_DETAIL = 'Please check the boxes to agree with the offer.';

export function consentRequired(): AppError {
  return new AppError({ code: 'payments.consent_required', detail: CONSENT_REQUIRED_DETAIL });
}

/** The products on sale: the configured catalogue, or what the staff console last set. */
async function catalogueOf(deps: Pick<PaymentsDeps, 'pricing'>): Promise<CatalogueEntry[]> {
  return (await deps.pricing.current()).catalogue;
}

/**
 * A provider that fiscalises every payment (`capabilities.receiptEmail`, 54-FZ) sends the receipt
 * to the buyer's email and refuses a payment without one, so none is started.
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

export interface Caller {
  userId: number;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  /** Signed in with the Mini App's init data: the Mini App's own ways to pay are offered. */
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

export async function getCatalogue(deps: CatalogueDeps, caller: Caller): Promise<TPaymentCatalogue> {
  const region = await regionOf(deps, caller);
  const products = (await catalogueOf(deps)).map((entry) => priceProduct(entry, region));
  const methods = availableMethods(deps, { region, inMiniApp: caller.inMiniApp ?? false });
  return { region, currency: products[0]!.currency, products, methods, ...methodFacts(deps, methods) };
}

export async function changeRegion(deps: CatalogueDeps, caller: Caller, region: TPaymentRegion) {
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
  deps: EventDeps,
  input: StartPaymentInput,
): Promise<{ uuid: string; confirmation_url: string }> {
  if (!input.consent.agreeOffer || !input.consent.agreePrivacy) throw consentRequired();
  const provider = input.method === WALLET_BALANCE ? null : providerOfMethod(deps, input.method);
  const receiptEmail = input.receiptEmail ?? (await findUserById(deps.db, input.userId))?.email ?? null;
  if (provider?.capabilities.receiptEmail && !receiptEmail) throw emailRequired();
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
  if (input.method === WALLET_BALANCE) return payFromBalance(deps, { ...values, provider: WALLET_BALANCE });
  if (!provider) throw methodUnavailable();
  // Each provider takes orders in its own currencies only (Telegram Stars in XTR, and nothing else).
  if (!provider.capabilities.currencies.includes(input.currency)) throw methodUnavailable();
  const order = await deps.db.transaction(async (tx) => {
    const created = await paymentsRepository.insertOrder(tx, { ...values, provider: provider.name });
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
  deps: EventDeps,
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
    const paid = await applyPaymentEvent(deps, tx, WALLET_BALANCE, {
      type: 'payment.succeeded',
      eventId: `balance:${created.uuid}`,
      orderUuid: created.uuid,
      providerPaymentId: `balance:${created.uuid}`,
      amount: created.amount,
      currency: created.currency,
    });
    return { order: created, changed: paid };
  });
  if (changed) recordPayment(WALLET_BALANCE, changed.currency, changed.outcome);
  return { uuid: order.uuid, confirmation_url: returnUrlFor(order.returnPath, order.uuid) };
}

const describeProduct = (entry: CatalogueEntry) =>
  entry.kind === 'credits' ? `Mirra: ${entry.credits} credits` : `Mirra: unlimited for ${entry.days} days`;

/**
 * A credit pack or the unlimited package at the price of the person's region (or in Stars), or a
 * wallet top-up of the buyer's amount, with their consent stored; returns where to pay it.
 */
export async function createOrder(
  deps: CheckoutDeps,
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
  const inStars = chargesInStars(deps, body.method);
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

export async function getOrder(
  deps: Pick<PaymentsDeps, 'db'>,
  userId: number,
  uuid: string,
): Promise<TPaymentOrder> {
  const order = await paymentsRepository.findUserOrder(deps.db, userId, uuid);
  if (!order) throw orderNotFound();
  return serializeOrder(order);
}

/**
 * The buyer came back through the checkout's cancel link: the provider closes the checkout (so a
 * tab left open can no longer pay it) and the order is re-fetched, which ends it as cancelled, or
 * paid when the payment got there first. An order no longer pending is answered as it is.
 */
export async function cancelOrder(deps: EventDeps, userId: number, uuid: string): Promise<TPaymentOrder> {
  const order = await paymentsRepository.findUserOrder(deps.db, userId, uuid);
  if (!order) throw orderNotFound();
  const provider = providerNamed(deps, order.provider);
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
  deps: EventDeps,
  uuid: string,
  token: string | undefined,
): Promise<TPaymentInvoiceState> {
  const order = isInvoiceToken(deps, uuid, token)
    ? await paymentsRepository.findOrder(deps.db, uuid)
    : undefined;
  if (!order) throw orderNotFound();
  if (order.status === 'pending') await reconcileOrder(deps, order);
  const current = (await paymentsRepository.findOrder(deps.db, uuid))!;
  return {
    uuid: current.uuid,
    status: current.status,
    amount: current.amount,
    currency: current.currency,
    product: current.product,
    held: providerNamed(deps, current.provider)?.heldOnCard?.(current) ?? 0,
    return_path: returnUrlFor(current.returnPath, current.uuid),
  };
}
