import { applyCreditChange, lockCredits } from '../credits/index.js';
import { cancelWalletEntry, recordWalletEntry, settleWalletEntry } from '../wallet/index.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { recordPayment, recordWebhookError, type PaymentOutcome } from '../../shared/metrics.js';
import type { PaidThrough } from './payment-hooks.js';
import type { RegistryDeps } from './payment-orders.js';
import {
  WALLET_BALANCE,
  type InboundWebhook,
  type PaymentEvent,
  type ProviderName,
} from './payment-provider.js';
import type { PaymentsDeps } from './payments.deps.js';
import { extendUntil, refundCredits, refundedShare, shortenUntil } from './payments.models.js';
import { providerNamed } from './payments.providers.js';
import { paymentsRepository, type PaymentOrderRow } from './payments.repository.js';

// Provider events: a verified notification (or the reconciler's re-check, or a final answer) is
// applied to its order once, under the order's row lock, with what it grants or takes back.

export type EventDeps = Pick<
  PaymentsDeps,
  'logger' | 'now' | 'purposeHandlers' | 'paymentListeners' | 'config' | 'db' | 'linkSecret' | 'telegramBot'
>;

/**
 * A provider's notification: verified as the provider signs it (or, for YooKassa, by its source
 * network and the payment re-fetched), then each event applied in one transaction. A forged one
 * changes nothing (`payments.signature_invalid`).
 */
export async function receiveWebhook(deps: EventDeps, name: string, inbound: InboundWebhook): Promise<void> {
  const provider = providerNamed(deps, name);
  const events = provider ? await provider.parseWebhook(inbound) : null;
  if (!provider || !events) {
    throw new AppError({ code: 'payments.signature_invalid', detail: 'The notification is not signed.' });
  }
  await applyEvents(deps, provider.name, events);
}

/** Applies verified events of one provider, each in its own transaction. */
export async function applyEvents(
  deps: EventDeps,
  provider: ProviderName,
  events: PaymentEvent[],
): Promise<void> {
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
async function lockOrderOf(tx: DbOrTx, provider: ProviderName | typeof WALLET_BALANCE, event: PaymentEvent) {
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
  provider: ProviderName | typeof WALLET_BALANCE,
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
  const paidThrough = paidThroughOf(deps, order);
  for (const listener of deps.paymentListeners) {
    if (after.status === 'paid' && before !== 'paid') await listener.onPaid?.(tx, after, paidThrough);
    if (refundedMore) await listener.onRefunded?.(tx, after, paidThrough);
  }
  return paymentChangeOf(before, after, refundedMore);
}

/** What the order's provider says of its money (the wallet's is real money). */
function paidThroughOf(deps: RegistryDeps, order: PaymentOrderRow): PaidThrough {
  return { movesMoney: providerNamed(deps, order.provider)?.capabilities.movesMoney ?? true };
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
  for (const listener of deps.paymentListeners)
    await listener.onPaid?.(tx, renewal, paidThroughOf(deps, renewal));
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
  if (order.provider === WALLET_BALANCE) {
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
export async function reconcileOrder(deps: EventDeps, order: PaymentOrderRow): Promise<void> {
  const provider = providerNamed(deps, order.provider);
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
export async function reconcilePendingOrders(deps: EventDeps): Promise<number> {
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
