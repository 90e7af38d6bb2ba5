import type { z } from 'zod';
import {
  CURRENCY_XTR,
  type TAdminSubscription,
  type TPaymentMethod,
  type TPaymentRegion,
  type TPremiumState,
  type ZPremiumCheckout,
  type ZPremiumCheckoutStarted,
} from '@mirra/contracts';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { addJob } from '../../shared/jobs.js';
import { stopProviderSubscriptionJob } from './subscriptions.jobs.definitions.js';
import { applyCreditChange, lockCredits } from '../credits/index.js';
import { notifyUser } from '../notifications/index.js';
import {
  WALLET_BALANCE,
  cancelProviderSubscription,
  chargeSavedMethod,
  chargesInStars,
  methodFacts,
  guardShownPrice,
  hasPendingCharge,
  recurringMethods,
  regionOf,
  startPayment,
  subscriptionMethods,
  trialMethods,
  type Caller,
  type PaymentEvent,
  type PaymentOrderView,
  type ProviderName,
} from '../payments/index.js';
import type { SubscriptionsDeps } from './subscriptions.deps.js';
import {
  failedRenewal,
  hasPremiumAccess,
  paidTerm,
  pricePlan,
  refundedTerm,
  renewalPrice,
  trialSubjects,
  visibleStatus,
  type PremiumPlanConfig,
} from './subscriptions.models.js';
import { subscriptionsRepository, type SubscriptionRow } from './subscriptions.repository.js';

/** A renewal paid from the wallet has no provider's method: the wallet itself is charged again. */
const WALLET_METHOD = 'wallet';
const DESCRIPTION = 'Mirra Premium';

/** The plan in force: the configured one, or what the staff console last set. */
export async function planOf(deps: Pick<SubscriptionsDeps, 'pricing'>): Promise<PremiumPlanConfig> {
  return (await deps.pricing.current()).plan;
}

async function trialAvailable(deps: Pick<SubscriptionsDeps, 'db'>, plan: PremiumPlanConfig, userId: number) {
  if (plan.trial_days <= 0) return false;
  const subjects = trialSubjects(userId, await subscriptionsRepository.telegramIdOf(deps.db, userId));
  return !(await subscriptionsRepository.anyTrialClaimed(deps.db, subjects));
}

function priceFor(
  deps: SubscriptionsDeps,
  plan: PremiumPlanConfig,
  region: TPaymentRegion,
  method: TPaymentMethod,
) {
  if (!chargesInStars(deps, method)) return pricePlan(plan, region);
  if (!plan.prices.xtr) {
    throw new AppError({
      code: 'payments.method_unavailable',
      detail: 'This payment method is not available.',
    });
  }
  return { amount: plan.prices.xtr, currency: CURRENCY_XTR };
}

export async function getSubscription(deps: SubscriptionsDeps, caller: Caller): Promise<TPremiumState> {
  const plan = await planOf(deps);
  const region = await regionOf(deps, caller);
  const price = pricePlan(plan, region);
  const sub = await subscriptionsRepository.findByUser(deps.db, caller.userId);
  const now = deps.now();
  const premium = hasPremiumAccess(sub, now);
  const renewing = Boolean(
    sub && premium && sub.autoRenew && (sub.savedMethodId || sub.providerSubscriptionId),
  );
  const methods = subscriptionMethods(deps, { region, inMiniApp: caller.inMiniApp ?? false });
  const trial = await trialAvailable(deps, plan, caller.userId);
  return {
    plan: {
      id: plan.id,
      period_days: plan.period_days,
      trial_days: plan.trial_days,
      credits: plan.credits,
      trial_credits: plan.trial_credits,
      amount: price.amount,
      currency: price.currency,
      stars: plan.prices.xtr ?? null,
    },
    region,
    methods,
    status: visibleStatus(sub, now),
    premium,
    trial_available: trial,
    trial_methods: trial ? trialMethods(deps, methods) : [],
    ...methodFacts(deps, methods),
    auto_renew: renewing,
    access_until: premium ? (sub!.accessUntil?.toISOString() ?? null) : null,
    next_charge_at: renewing ? (sub!.nextChargeAt?.toISOString() ?? null) : null,
    amount: sub && premium ? sub.amount : null,
    currency: sub && premium ? sub.currency : null,
    failed_attempts: sub && premium ? sub.failedAttempts : 0,
  };
}

/**
 * "Get access": with premium still running but renewals cancelled and a card saved, renewals
 * simply switch back on. Otherwise a checkout at the region's price (the trial, once per person,
 * where the method allows it), with the consent stored; the answer is where to pay.
 */
export async function startSubscription(
  deps: SubscriptionsDeps,
  caller: Caller,
  body: z.infer<typeof ZPremiumCheckout>,
): Promise<z.infer<typeof ZPremiumCheckoutStarted>> {
  const plan = await planOf(deps);
  const region = await regionOf(deps, caller);
  const now = deps.now();
  const existing = await subscriptionsRepository.findByUser(deps.db, caller.userId);
  if (existing && hasPremiumAccess(existing, now)) {
    const renews = existing.savedMethodId || existing.providerSubscriptionId;
    // A renewal that keeps failing may be paid afresh (with another card); otherwise one plan is enough.
    if (existing.autoRenew && renews && existing.status !== 'past_due') {
      throw new AppError({ code: 'subscriptions.already_active', detail: 'Premium is already active.' });
    }
    if (existing.savedMethodId && existing.status !== 'past_due') {
      const resumed = await deps.db.transaction(async (tx) => {
        const sub = await subscriptionsRepository.lockByUuid(tx, existing.uuid);
        if (!sub?.accessUntil || !sub.savedMethodId) return false;
        const term = paidTerm(sub.accessUntil, sub.accessUntil, 0, deps.config.premium);
        await subscriptionsRepository.update(tx, sub.uuid, now, {
          autoRenew: true,
          cancelledAt: null,
          nextChargeAt: term.nextChargeAt,
          nextAttemptAt: new Date(Math.max(term.nextAttemptAt.getTime(), now.getTime())),
          failedAttempts: 0,
        });
        return true;
      });
      if (resumed) return { uuid: null, confirmation_url: null };
    }
  }
  const methods = subscriptionMethods(deps, { region, inMiniApp: caller.inMiniApp ?? false });
  if (!methods.includes(body.method)) {
    throw new AppError({
      code: 'payments.method_unavailable',
      detail: 'This payment method is not available.',
    });
  }
  const price = priceFor(deps, plan, region, body.method);
  // The shown price is the plan's (a trial's end charges it too): not what this checkout takes now.
  guardShownPrice(body, price);
  const trial =
    !existing?.accessUntil &&
    trialMethods(deps, methods).includes(body.method) &&
    (await trialAvailable(deps, plan, caller.userId));
  const sub = await deps.db.transaction((tx) =>
    subscriptionsRepository.lockForUser(tx, caller.userId, {
      plan: plan.id,
      amount: price.amount,
      currency: price.currency,
      periodDays: plan.period_days,
    }),
  );
  if (!hasPremiumAccess(sub, now)) {
    // The price of the renewals is the one of this checkout.
    await subscriptionsRepository.update(deps.db, sub.uuid, now, {
      plan: plan.id,
      amount: price.amount,
      currency: price.currency,
      periodDays: plan.period_days,
    });
  }
  const started = await startPayment(deps, {
    userId: caller.userId,
    purpose: 'subscription',
    purposeRef: sub.uuid,
    method: body.method,
    product: plan.id,
    // The trial charges nothing now: the card is kept and first charged when the trial ends.
    amount: trial ? 0 : price.amount,
    currency: price.currency,
    description: DESCRIPTION,
    returnPath: body.return ?? '/settings/subscription/',
    consent: { agreeOffer: body.agree_offer, agreePrivacy: body.agree_privacy },
    ...(body.email ? { receiptEmail: body.email } : {}),
    // The period's credits are granted by payments with the order, once.
    credits: trial ? plan.trial_credits : plan.credits,
    // Mirra charges the kept card where the provider can charge it again; other providers renew
    // their own subscription (running the trial in it too, where they have one).
    ...(body.method === WALLET_BALANCE
      ? {}
      : recurringMethods(deps).includes(body.method)
        ? { saveMethod: true }
        : {
            recurring: { periodDays: plan.period_days },
            ...(trial ? { trial: { days: plan.trial_days, amount: price.amount } } : {}),
          }),
  });
  return { uuid: started.uuid, confirmation_url: started.confirmation_url };
}

/** Renewals stop (the provider's own too); access runs to its date. */
export async function cancelSubscription(deps: SubscriptionsDeps, userId: number): Promise<void> {
  const now = deps.now();
  const sub = await subscriptionsRepository.findByUser(deps.db, userId);
  if (!sub || !hasPremiumAccess(sub, now)) {
    throw new AppError({ code: 'subscriptions.not_found', detail: 'Not found.' });
  }
  if (sub.providerSubscriptionId && sub.provider) {
    await cancelProviderSubscription(deps, {
      provider: sub.provider as ProviderName,
      providerSubscriptionId: sub.providerSubscriptionId,
      userId,
    });
  }
  await subscriptionsRepository.update(deps.db, sub.uuid, now, {
    autoRenew: false,
    cancelledAt: now,
    nextChargeAt: null,
    nextAttemptAt: null,
  });
}

/** Stops a provider-run subscription's own renewals (after its first payment was refunded). */
export async function stopProviderSubscription(
  deps: SubscriptionsDeps,
  input: { provider: ProviderName; providerSubscriptionId: string; userId: number },
): Promise<void> {
  await cancelProviderSubscription(deps, input);
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

type HandlerDeps = Pick<SubscriptionsDeps, 'config' | 'now' | 'logger' | 'pricing'>;

async function recordFailedRenewal(deps: HandlerDeps, tx: DbOrTx, sub: SubscriptionRow, dedupe: string) {
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
    const until = refundedTerm(sub.accessUntil, now, sub.periodDays);
    await subscriptionsRepository.update(tx, sub.uuid, now, { accessUntil: until, nextChargeAt: until });
    await subscriptionsRepository.setPremiumUntil(tx, sub.userId, until);
    await takeBackPeriodCredits(
      tx,
      sub.userId,
      plan.credits,
      `subscription:${sub.uuid}:payment:${event.providerPaymentId}:refund`,
      order.uuid,
    );
    return;
  }
  if (
    event.type === 'refund.succeeded' &&
    order.status === 'paid' &&
    before === 'paid' &&
    event.providerPaymentId !== order.providerPaymentId
  ) {
    // A period renewed before renewals were orders of their own: the first order stays paid.
    const until = refundedTerm(sub.accessUntil, now, sub.periodDays);
    await subscriptionsRepository.update(tx, sub.uuid, now, { accessUntil: until });
    await subscriptionsRepository.setPremiumUntil(tx, sub.userId, until);
    await takeBackPeriodCredits(
      tx,
      sub.userId,
      plan.credits,
      `subscription:${sub.uuid}:payment:${event.providerPaymentId}:refund`,
      order.uuid,
    );
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

/**
 * Charges one due renewal with the kept card (or the wallet), once per attempt even with several
 * workers; the payment's own handler moves the subscription on.
 */
export async function renewSubscription(deps: SubscriptionsDeps, sub: SubscriptionRow): Promise<void> {
  const now = deps.now();
  if (!sub.nextAttemptAt || !sub.savedMethodId || !sub.provider) return;
  // A renewal the provider has not answered yet is settled by its notification, not charged again.
  if (await hasPendingCharge(deps, sub.uuid)) return;
  const lease = new Date(now.getTime() + deps.config.premium.retryHours * 3_600_000);
  if (!(await subscriptionsRepository.claimAttempt(deps.db, sub.uuid, sub.nextAttemptAt, lease, now))) return;
  if (sub.provider === WALLET_BALANCE) {
    try {
      await startPayment(deps, {
        userId: sub.userId,
        purpose: 'subscription',
        purposeRef: sub.uuid,
        method: WALLET_BALANCE,
        product: sub.plan,
        amount: sub.amount,
        currency: sub.currency,
        description: DESCRIPTION,
        returnPath: '/settings/subscription/',
        // Agreed when the subscription was bought; renewals are what that consent covers.
        consent: { agreeOffer: true, agreePrivacy: true },
        credits: (await planOf(deps)).credits,
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'wallet.insufficient') throw error;
      await deps.db.transaction(async (tx) => {
        const locked = await subscriptionsRepository.lockByUuid(tx, sub.uuid);
        if (locked) await recordFailedRenewal(deps, tx, locked, `${sub.uuid}:${now.getTime()}`);
      });
    }
    return;
  }
  await chargeSavedMethod(deps, {
    userId: sub.userId,
    purpose: 'subscription',
    purposeRef: sub.uuid,
    provider: sub.provider as ProviderName,
    product: sub.plan,
    amount: sub.amount,
    currency: sub.currency,
    description: DESCRIPTION,
    credits: (await planOf(deps)).credits,
    savedMethodId: sub.savedMethodId,
  });
}

/** The renewal job: every subscription whose attempt is due, one at a time (a failure skips one). */
export async function renewDueSubscriptions(deps: SubscriptionsDeps): Promise<number> {
  const due = await subscriptionsRepository.findDue(deps.db, deps.now(), 100);
  for (const sub of due) {
    try {
      await renewSubscription(deps, sub);
    } catch (error) {
      deps.logger.error({ err: error, subscription: sub.uuid }, 'renewal failed to run');
    }
  }
  return due.length;
}

/** Whether premium's features are on for the person now (for other modules). */
export async function isPremium(
  deps: Pick<SubscriptionsDeps, 'db' | 'now'>,
  userId: number,
): Promise<boolean> {
  return hasPremiumAccess(await subscriptionsRepository.findByUser(deps.db, userId), deps.now());
}

/** A person's premium subscription as staff see it (null: never had one). */
export async function findSubscriptionForStaff(
  deps: Pick<SubscriptionsDeps, 'db'>,
  userId: number,
): Promise<TAdminSubscription | null> {
  const sub = await subscriptionsRepository.findByUser(deps.db, userId);
  if (!sub) return null;
  return {
    uuid: sub.uuid,
    plan: sub.plan,
    status: sub.status,
    provider: sub.provider,
    amount: sub.amount,
    currency: sub.currency,
    period_days: sub.periodDays,
    access_until: sub.accessUntil?.toISOString() ?? null,
    next_charge_at: sub.nextChargeAt?.toISOString() ?? null,
    auto_renew: sub.autoRenew,
    failed_attempts: sub.failedAttempts,
    cancelled_at: sub.cancelledAt?.toISOString() ?? null,
    created_at: sub.createdAt.toISOString(),
  };
}
