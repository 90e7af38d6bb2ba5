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
import { AppError } from '../../shared/errors.js';
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
  type ProviderName,
} from '../payments/index.js';
import type { SubscriptionsDeps } from './subscriptions.deps.js';
import {
  hasPremiumAccess,
  paidTerm,
  pricePlan,
  trialSubjects,
  visibleStatus,
  type PremiumPlanConfig,
} from './subscriptions.models.js';
import { subscriptionsRepository, type SubscriptionRow } from './subscriptions.repository.js';
import { planOf, recordFailedRenewal } from './subscription-payments.usecases.js';

const DESCRIPTION = 'Mirra Premium';

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
