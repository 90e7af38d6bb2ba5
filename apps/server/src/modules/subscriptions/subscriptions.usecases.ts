import type { z } from 'zod';
import type {
  TPaymentMethod,
  TPremiumState,
  ZPremiumCheckout,
  ZPremiumCheckoutStarted,
} from '@mirra/contracts';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { notifyUser } from '../notifications/index.js';
import {
  availableMethods,
  chargeSavedMethod,
  recurringMethods,
  regionOf,
  startPayment,
  type Caller,
  type PaymentEvent,
  type PaymentOrderStatus,
  type PaymentOrderView,
} from '../payments/index.js';
import type { SubscriptionsDeps } from './subscriptions.deps.js';
import {
  failedRenewal,
  hasPremiumAccess,
  paidTerm,
  parsePremiumPlan,
  pricePlan,
  refundedTerm,
  trialSubjects,
  visibleStatus,
  type PremiumPlanConfig,
} from './subscriptions.models.js';
import { subscriptionsRepository, type SubscriptionRow } from './subscriptions.repository.js';

/** A renewal paid from the wallet has no provider's method: the wallet itself is charged again. */
const WALLET_METHOD = 'wallet';

const plans = new WeakMap<object, PremiumPlanConfig>();
export function planOf(deps: Pick<SubscriptionsDeps, 'config'>): PremiumPlanConfig {
  let plan = plans.get(deps.config);
  if (!plan) {
    plan = parsePremiumPlan(deps.config.premium.planJson);
    plans.set(deps.config, plan);
  }
  return plan;
}

async function trialAvailable(deps: Pick<SubscriptionsDeps, 'db'>, plan: PremiumPlanConfig, userId: number) {
  if (plan.trial_days <= 0) return false;
  const subjects = trialSubjects(userId, await subscriptionsRepository.telegramIdOf(deps.db, userId));
  return !(await subscriptionsRepository.anyTrialClaimed(deps.db, subjects));
}

/** The methods the plan can be bought with: those that can be charged again, and the wallet. */
function planMethods(deps: SubscriptionsDeps): TPaymentMethod[] {
  const recurring = recurringMethods(deps);
  return availableMethods(deps).filter((m) => m === 'balance' || recurring.includes(m));
}

export async function getSubscription(deps: SubscriptionsDeps, caller: Caller): Promise<TPremiumState> {
  const plan = planOf(deps);
  const region = await regionOf(deps, caller);
  const price = pricePlan(plan, region);
  const sub = await subscriptionsRepository.findByUser(deps.db, caller.userId);
  const now = deps.now();
  const premium = hasPremiumAccess(sub, now);
  const renewing = Boolean(sub && premium && sub.autoRenew && sub.savedMethodId);
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
    methods: planMethods(deps),
    status: visibleStatus(sub, now),
    premium,
    trial_available: await trialAvailable(deps, plan, caller.userId),
    auto_renew: renewing,
    access_until: premium ? (sub!.accessUntil?.toISOString() ?? null) : null,
    next_charge_at: renewing ? (sub!.nextChargeAt?.toISOString() ?? null) : null,
    amount: sub && premium ? sub.amount : null,
    currency: sub && premium ? sub.currency : null,
    failed_attempts: sub && premium ? sub.failedAttempts : 0,
  };
}

/**
 * "Get access": with premium still running but renewals cancelled and a method saved, renewals
 * simply switch back on. Otherwise a checkout at the region's price (the trial, once per person,
 * when the plan has one and the method can be charged later), with the consent stored; the
 * answer is where to pay.
 */
export async function startSubscription(
  deps: SubscriptionsDeps,
  caller: Caller,
  body: z.infer<typeof ZPremiumCheckout>,
): Promise<z.infer<typeof ZPremiumCheckoutStarted>> {
  const plan = planOf(deps);
  const region = await regionOf(deps, caller);
  const price = pricePlan(plan, region);
  const now = deps.now();
  const existing = await subscriptionsRepository.findByUser(deps.db, caller.userId);
  if (existing && hasPremiumAccess(existing, now)) {
    if (existing.autoRenew && existing.savedMethodId) {
      throw new AppError({ code: 'subscriptions.already_active', detail: 'Premium is already active.' });
    }
    if (existing.savedMethodId) {
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
  if (!planMethods(deps).includes(body.method)) {
    throw new AppError({
      code: 'payments.method_unavailable',
      detail: 'This payment method is not available.',
    });
  }
  const trial =
    body.method !== 'balance' && !existing?.accessUntil && (await trialAvailable(deps, plan, caller.userId));
  const sub = await deps.db.transaction((tx) =>
    subscriptionsRepository.lockForUser(tx, caller.userId, {
      plan: plan.id,
      amount: price.amount,
      currency: price.currency,
      periodDays: plan.period_days,
    }),
  );
  const started = await startPayment(deps, {
    userId: caller.userId,
    purpose: 'subscription',
    purposeRef: sub.uuid,
    method: body.method,
    product: plan.id,
    // The trial charges nothing now: the method is saved and first charged when the trial ends.
    amount: trial ? 0 : price.amount,
    currency: price.currency,
    credits: trial ? plan.trial_credits : plan.credits,
    returnPath: body.return ?? '/settings/subscription/',
    consent: { agreeOffer: body.agree_offer, agreePrivacy: body.agree_privacy },
    saveMethod: body.method !== 'balance',
  });
  return { uuid: started.uuid, confirmation_url: started.confirmation_url };
}

/** Renewals stop; access runs to its date. */
export async function cancelSubscription(deps: SubscriptionsDeps, userId: number): Promise<void> {
  const now = deps.now();
  const sub = await subscriptionsRepository.findByUser(deps.db, userId);
  if (!sub || !hasPremiumAccess(sub, now)) {
    throw new AppError({ code: 'subscriptions.not_found', detail: 'Not found.' });
  }
  await subscriptionsRepository.update(deps.db, sub.uuid, now, {
    autoRenew: false,
    cancelledAt: now,
    nextChargeAt: null,
    nextAttemptAt: null,
  });
}

/**
 * What a subscription order's event does to the subscription, in the payment's transaction
 * (registered as payments' handler for the `subscription` purpose):
 * - paid: the trial (claimed once per account and Telegram id) or a period of access, the method
 *   kept for renewals, the next charge scheduled, premium on until the new date (its credits are
 *   granted by payments under the order's key, so each period once);
 * - a renewal declined: retried with a notice, until the attempts run out;
 * - refunded or charged back: the period it bought ends, renewals stop.
 */
export async function applySubscriptionPayment(
  deps: Pick<SubscriptionsDeps, 'config' | 'now' | 'logger'>,
  tx: DbOrTx,
  order: PaymentOrderView,
  event: PaymentEvent,
  before: PaymentOrderStatus,
): Promise<void> {
  if (!order.purposeRef) return;
  const sub = await subscriptionsRepository.lockByUuid(tx, order.purposeRef);
  if (!sub) {
    deps.logger.error({ order: order.uuid }, 'subscription order without its subscription');
    return;
  }
  const now = deps.now();
  const plan = planOf(deps);
  const settings = deps.config.premium;
  if (order.status === 'paid' && before !== 'paid') {
    const isTrial = order.amount === 0;
    let trialGranted = false;
    if (isTrial) {
      const subjects = trialSubjects(sub.userId, await subscriptionsRepository.telegramIdOf(tx, sub.userId));
      trialGranted = await subscriptionsRepository.claimTrial(tx, subjects, sub.userId, now);
    }
    const days = isTrial ? (trialGranted ? plan.trial_days : 0) : sub.periodDays;
    const term = paidTerm(sub.accessUntil, now, days, settings);
    const method = order.provider === 'balance' ? WALLET_METHOD : order.savedMethodId;
    const updated = await subscriptionsRepository.update(tx, sub.uuid, now, {
      status: isTrial ? 'trialing' : 'active',
      provider: method ? order.provider : sub.provider,
      savedMethodId: method ?? sub.savedMethodId,
      accessUntil: term.accessUntil,
      nextChargeAt: term.nextChargeAt,
      nextAttemptAt: term.nextAttemptAt,
      autoRenew: true,
      cancelledAt: null,
      failedAttempts: 0,
    });
    await subscriptionsRepository.setPremiumUntil(tx, sub.userId, term.accessUntil);
    if (!updated.savedMethodId) {
      await subscriptionsRepository.update(tx, sub.uuid, now, { nextAttemptAt: null, nextChargeAt: null });
    }
    return;
  }
  if (order.status === 'failed' && before === 'pending' && order.savedMethodId && !order.saveMethod) {
    const next = failedRenewal(sub.failedAttempts, now, settings);
    await subscriptionsRepository.update(tx, sub.uuid, now, {
      status: 'past_due',
      failedAttempts: next.failedAttempts,
      nextAttemptAt: next.nextAttemptAt,
      ...(next.givesUp ? { autoRenew: false, nextChargeAt: null } : {}),
    });
    await notifyUser(tx, {
      userId: sub.userId,
      kind: 'subscription_renewal_failed',
      data: {
        attempts_left: next.givesUp ? 0 : settings.renewAttempts - next.failedAttempts,
        access_until: sub.accessUntil?.toISOString() ?? null,
        next_attempt_at: next.nextAttemptAt?.toISOString() ?? null,
      },
      dedupeKey: `subscription-renewal-failed:${order.uuid}`,
    });
    return;
  }
  if (order.status === 'refunded' && before !== 'refunded') {
    const days = order.amount === 0 ? plan.trial_days : sub.periodDays;
    const until = refundedTerm(sub.accessUntil, now, days);
    await subscriptionsRepository.update(tx, sub.uuid, now, {
      accessUntil: until,
      status: until > now ? sub.status : 'expired',
      autoRenew: false,
      nextChargeAt: null,
      nextAttemptAt: null,
    });
    await subscriptionsRepository.setPremiumUntil(tx, sub.userId, until);
    deps.logger.info(
      { order: order.uuid, subscription: sub.uuid },
      'subscription payment refunded; access ended',
    );
  }
}

/**
 * Charges one due renewal with the saved method (or the wallet), once per attempt even with
 * several workers; the payment's own handler moves the subscription on.
 */
export async function renewSubscription(deps: SubscriptionsDeps, sub: SubscriptionRow): Promise<void> {
  const now = deps.now();
  if (!sub.nextAttemptAt || !sub.savedMethodId || !sub.provider) return;
  const lease = new Date(now.getTime() + deps.config.premium.retryHours * 3_600_000);
  if (!(await subscriptionsRepository.claimAttempt(deps.db, sub.uuid, sub.nextAttemptAt, lease, now))) return;
  const plan = planOf(deps);
  if (sub.provider === 'balance') {
    try {
      await startPayment(deps, {
        userId: sub.userId,
        purpose: 'subscription',
        purposeRef: sub.uuid,
        method: 'balance',
        product: sub.plan,
        amount: sub.amount,
        currency: sub.currency,
        credits: plan.credits,
        returnPath: '/settings/subscription/',
        // Agreed when the subscription was bought; renewals are what that consent covers.
        consent: { agreeOffer: true, agreePrivacy: true },
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'wallet.insufficient') throw error;
      await deps.db.transaction(async (tx) => {
        const locked = await subscriptionsRepository.lockByUuid(tx, sub.uuid);
        if (!locked) return;
        const next = failedRenewal(locked.failedAttempts, now, deps.config.premium);
        await subscriptionsRepository.update(tx, sub.uuid, now, {
          status: 'past_due',
          failedAttempts: next.failedAttempts,
          nextAttemptAt: next.nextAttemptAt,
          ...(next.givesUp ? { autoRenew: false, nextChargeAt: null } : {}),
        });
        await notifyUser(tx, {
          userId: sub.userId,
          kind: 'subscription_renewal_failed',
          data: {
            attempts_left: next.givesUp ? 0 : deps.config.premium.renewAttempts - next.failedAttempts,
            access_until: locked.accessUntil?.toISOString() ?? null,
            next_attempt_at: next.nextAttemptAt?.toISOString() ?? null,
          },
          dedupeKey: `subscription-renewal-failed:${sub.uuid}:${next.failedAttempts}:${now.getTime()}`,
        });
      });
    }
    return;
  }
  await chargeSavedMethod(deps, {
    userId: sub.userId,
    purpose: 'subscription',
    purposeRef: sub.uuid,
    method: sub.provider as TPaymentMethod,
    product: sub.plan,
    amount: sub.amount,
    currency: sub.currency,
    credits: plan.credits,
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
