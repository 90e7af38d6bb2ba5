import type { DbOrTx } from '../../shared/db/client.js';
import { addJob } from '../../shared/jobs.js';
import { applyCreditChange, lockCredits } from '../credits/index.js';
import { notifyUser } from '../notifications/index.js';
import { WALLET_BALANCE, type PaymentEvent, type PaymentOrderView } from '../payments/index.js';
import type { SubscriptionsDeps } from './subscriptions.deps.js';
import { stopProviderSubscriptionJob } from './subscriptions.jobs.definitions.js';
import {
  failedRenewal,
  paidTerm,
  refundedTerm,
  renewalPrice,
  trialSubjects,
  type PremiumPlanConfig,
} from './subscriptions.models.js';
import { subscriptionsRepository, type SubscriptionRow } from './subscriptions.repository.js';

// What a subscription order's payment events do to the subscription: payments' handler for the
// `subscription` purpose, in the payment's transaction (periods, trials, failed renewals, the
// provider's own subscription mirrored, refunds).

/** A renewal paid from the wallet has no provider's method: the wallet itself is charged again. */
const WALLET_METHOD = 'wallet';

/** The plan in force: the configured one, or what the staff console last set. */
export async function planOf(deps: Pick<SubscriptionsDeps, 'pricing'>): Promise<PremiumPlanConfig> {
  return (await deps.pricing.current()).plan;
}

/** The credits of one paid period, once per key. */
async function grantPeriodCredits(tx: DbOrTx, userId: number, credits: number, key: string, ref: string) {
  if (credits <= 0) return;
  await applyCreditChange(tx, {
    userId,
    delta: credits,
    kind: 'subscription_grant',
    ref,
    idempotencyKey: key,
  });
}

/** A refunded period's credits that are still unspent go back (never below zero). */
async function takeBackPeriodCredits(tx: DbOrTx, userId: number, credits: number, key: string, ref: string) {
  const balance = await lockCredits(tx, userId);
  const takeBack = Math.max(0, Math.min(credits, balance));
  if (takeBack <= 0) return;
  await applyCreditChange(tx, {
    userId,
    delta: -takeBack,
    kind: 'purchase_refund',
    ref,
    idempotencyKey: key,
  });
}

/**
 * A wholly refunded period ends now (or where the refund leaves it) and its unspent credits go
 * back, once per provider payment. Renewals go on from the new end when `nextCharge` says so.
 */
async function endRefundedPeriod(
  tx: DbOrTx,
  sub: SubscriptionRow,
  credits: number,
  providerPaymentId: string,
  orderUuid: string,
  now: Date,
  { nextCharge }: { nextCharge: boolean },
) {
  const until = refundedTerm(sub.accessUntil, now, sub.periodDays);
  await subscriptionsRepository.update(
    tx,
    sub.uuid,
    now,
    nextCharge ? { accessUntil: until, nextChargeAt: until } : { accessUntil: until },
  );
  await subscriptionsRepository.setPremiumUntil(tx, sub.userId, until);
  await takeBackPeriodCredits(
    tx,
    sub.userId,
    credits,
    `subscription:${sub.uuid}:payment:${providerPaymentId}:refund`,
    orderUuid,
  );
}

export type HandlerDeps = Pick<SubscriptionsDeps, 'config' | 'now' | 'logger' | 'pricing'>;

export async function recordFailedRenewal(
  deps: HandlerDeps,
  tx: DbOrTx,
  sub: SubscriptionRow,
  dedupe: string,
) {
  const now = deps.now();
  const settings = deps.config.premium;
  const next = failedRenewal(sub.failedAttempts, now, settings);
  // A provider that renews by itself retries on its own schedule: Mirra only records and tells.
  const ownRetries = Boolean(sub.savedMethodId);
  await subscriptionsRepository.update(tx, sub.uuid, now, {
    status: 'past_due',
    failedAttempts: next.failedAttempts,
    ...(ownRetries ? { nextAttemptAt: next.nextAttemptAt } : {}),
    ...(ownRetries && next.givesUp ? { autoRenew: false, nextChargeAt: null } : {}),
  });
  await notifyUser(tx, {
    userId: sub.userId,
    kind: 'subscription_renewal_failed',
    data: {
      attempts_left: next.givesUp ? 0 : settings.renewAttempts - next.failedAttempts,
      access_until: sub.accessUntil?.toISOString() ?? null,
      next_attempt_at: next.nextAttemptAt?.toISOString() ?? null,
    },
    dedupeKey: `subscription-renewal-failed:${dedupe}`,
  });
}

/**
 * The provider's own subscription changed (`subscription.updated` / `cancelled`, its state in
 * Mirra's terms): it is mirrored, so what the person sees and what Mirra does follow what the
 * provider will do. Cancelled at the period's end (in the provider's portal): renewals are off, access runs to its
 * date; un-cancelled: renewals are on again with the next charge at the period's end. `past_due`
 * shows as such; `active` again clears it; ended: renewals off, and expired once access ran out.
 * Applying the same state twice changes nothing, and a state older than the last one applied
 * (delivered late) is ignored. Access itself is extended only by paid periods (`invoice.paid`).
 */
async function mirrorProviderSubscription(tx: DbOrTx, sub: SubscriptionRow, event: PaymentEvent, now: Date) {
  // Only the subscription this row follows (an earlier one of the same person says nothing of it).
  if (
    event.providerSubscriptionId &&
    sub.providerSubscriptionId &&
    event.providerSubscriptionId !== sub.providerSubscriptionId
  ) {
    return;
  }
  if (event.occurredAt && sub.providerStateAt && event.occurredAt < sub.providerStateAt) return;
  const stamp = event.occurredAt ? { providerStateAt: event.occurredAt } : {};
  const status = event.subscriptionStatus ?? 'other';
  const accessLeft = Boolean(sub.accessUntil && sub.accessUntil > now);
  // Mirra's own decision that access ended (a refund) is not undone by the provider's state.
  const settled = sub.status === 'expired' || sub.status === 'pending';
  if (event.type === 'subscription.cancelled' || status === 'ended') {
    await subscriptionsRepository.update(tx, sub.uuid, now, {
      ...stamp,
      autoRenew: false,
      cancelledAt: sub.cancelledAt ?? now,
      nextChargeAt: null,
      nextAttemptAt: null,
      ...(!accessLeft && !settled ? { status: 'expired' as const } : {}),
    });
    return;
  }
  const renews = event.cancelAtPeriodEnd !== true;
  const nextStatus = settled
    ? sub.status
    : status === 'past_due'
      ? ('past_due' as const)
      : status === 'trialing'
        ? ('trialing' as const)
        : status === 'active'
          ? ('active' as const)
          : sub.status;
  // The next charge falls when the access paid for ends, as for every period Mirra applied.
  const periodEnd = sub.accessUntil ?? event.periodEnd ?? null;
  await subscriptionsRepository.update(tx, sub.uuid, now, {
    ...stamp,
    status: nextStatus,
    autoRenew: renews,
    cancelledAt: renews ? null : (sub.cancelledAt ?? now),
    nextChargeAt: renews ? periodEnd : null,
    ...(nextStatus === 'active' && sub.status === 'past_due' ? { failedAttempts: 0 } : {}),
  });
}

/**
 * What a subscription order's event does to the subscription, in the payment's transaction
 * (payments' handler for the `subscription` purpose):
 * - paid (the first order, or a renewal Mirra charged): the trial (claimed once per account and
 *   Telegram id) or a period of access, its credits (once per order), the card kept for renewals,
 *   the next charge scheduled, premium on until the new date;
 * - a later period paid by the provider itself (`subscription.renewed`): the same, once per payment;
 * - a renewal declined: retried with a notice, until the attempts run out;
 * - the provider's subscription ended: renewals stop, access runs to its date;
 * - refunded or charged back: the period it bought ends, its unspent credits go back, renewals stop.
 */
export async function applySubscriptionPayment(
  deps: HandlerDeps,
  tx: DbOrTx,
  order: PaymentOrderView,
  event: PaymentEvent,
  before: PaymentOrderView['status'],
): Promise<void> {
  if (!order.purposeRef) return;
  const sub = await subscriptionsRepository.lockByUuid(tx, order.purposeRef);
  if (!sub) {
    deps.logger.error({ order: order.uuid }, 'subscription order without its subscription');
    return;
  }
  const now = deps.now();
  const plan = await planOf(deps);
  const settings = deps.config.premium;

  if (event.type === 'subscription.renewed') {
    const term = paidTerm(sub.accessUntil, now, sub.periodDays, settings);
    const until = event.periodEnd && event.periodEnd > now ? event.periodEnd : term.accessUntil;
    await subscriptionsRepository.update(tx, sub.uuid, now, {
      status: 'active',
      accessUntil: until,
      nextChargeAt: until,
      failedAttempts: 0,
    });
    await subscriptionsRepository.setPremiumUntil(tx, sub.userId, until);
    await grantPeriodCredits(
      tx,
      sub.userId,
      plan.credits,
      `subscription:${sub.uuid}:payment:${event.providerPaymentId}`,
      order.uuid,
    );
    return;
  }
  if (event.type === 'subscription.payment_failed') {
    await recordFailedRenewal(deps, tx, sub, event.eventId);
    return;
  }
  if (event.type === 'subscription.cancelled' || event.type === 'subscription.updated') {
    await mirrorProviderSubscription(tx, sub, event, now);
    return;
  }
  if (event.type === 'refund.succeeded' && order.renewalOf) {
    // A later period the provider charged by itself (an order of its own) was wholly refunded:
    // that period ends and its unspent credits go back; renewals go on. A partial refund of it is
    // a discount on that period: access and credits stay (the partners' share shrinks with it).
    if (order.status !== 'refunded' || before !== 'paid') return;
    await endRefundedPeriod(tx, sub, plan.credits, event.providerPaymentId, order.uuid, now, {
      nextCharge: true,
    });
    return;
  }
  if (
    event.type === 'refund.succeeded' &&
    order.status === 'paid' &&
    before === 'paid' &&
    event.providerPaymentId !== order.providerPaymentId
  ) {
    // A period renewed before renewals were orders of their own: the first order stays paid.
    await endRefundedPeriod(tx, sub, plan.credits, event.providerPaymentId, order.uuid, now, {
      nextCharge: false,
    });
    return;
  }
  if (order.status === 'paid' && before !== 'paid') {
    const isTrial = order.amount === 0;
    let trialGranted = false;
    if (isTrial) {
      const subjects = trialSubjects(sub.userId, await subscriptionsRepository.telegramIdOf(tx, sub.userId));
      trialGranted = await subscriptionsRepository.claimTrial(tx, subjects, sub.userId, now);
    }
    const days = isTrial ? (trialGranted ? plan.trial_days : 0) : sub.periodDays;
    const term = paidTerm(sub.accessUntil, now, days, settings);
    const accessUntil =
      !isTrial && event.periodEnd && event.periodEnd > now ? event.periodEnd : term.accessUntil;
    const savedMethodId =
      order.provider === WALLET_BALANCE
        ? WALLET_METHOD
        : (event.savedMethodId ?? order.savedMethodId ?? sub.savedMethodId ?? null);
    const providerSubscriptionId = event.providerSubscriptionId ?? order.providerSubscriptionId ?? null;
    // Mirra charges renewals only where it holds the method; a provider's own subscription renews itself.
    const chargedByMirra = Boolean(savedMethodId) && !providerSubscriptionId;
    // Bought again while access ran (another region, another provider): renewals follow this order.
    const price = renewalPrice(order, sub, plan);
    await subscriptionsRepository.update(tx, sub.uuid, now, {
      status: isTrial ? 'trialing' : 'active',
      plan: order.product,
      amount: price.amount,
      currency: price.currency,
      provider: order.provider,
      savedMethodId: chargedByMirra ? savedMethodId : null,
      providerSubscriptionId,
      accessUntil,
      nextChargeAt: accessUntil,
      nextAttemptAt: chargedByMirra ? term.nextAttemptAt : null,
      autoRenew: true,
      cancelledAt: null,
      failedAttempts: 0,
    });
    // The order's credits were granted by payments with it.
    await subscriptionsRepository.setPremiumUntil(tx, sub.userId, accessUntil);
    return;
  }
  if (
    order.status === 'failed' &&
    before === 'pending' &&
    sub.accessUntil &&
    sub.autoRenew &&
    sub.savedMethodId
  ) {
    // A renewal charged to the kept card was declined (a first checkout's decline changes nothing).
    await recordFailedRenewal(deps, tx, sub, order.uuid);
    return;
  }
  if (order.status === 'refunded' && before === 'paid') {
    const days = order.amount === 0 ? plan.trial_days : sub.periodDays;
    const until = refundedTerm(sub.accessUntil, now, days);
    await subscriptionsRepository.update(tx, sub.uuid, now, {
      accessUntil: until,
      status: until > now ? sub.status : 'expired',
      autoRenew: false,
      nextChargeAt: null,
      nextAttemptAt: null,
    });
    // The order's unspent credits were taken back by payments with the refund.
    await subscriptionsRepository.setPremiumUntil(tx, sub.userId, until);
    if (sub.providerSubscriptionId && sub.provider) {
      await addJob(tx, stopProviderSubscriptionJob, {
        provider: sub.provider,
        providerSubscriptionId: sub.providerSubscriptionId,
        userId: sub.userId,
      });
    }
    deps.logger.info(
      { order: order.uuid, subscription: sub.uuid },
      'subscription payment refunded; access ended',
    );
  }
}
