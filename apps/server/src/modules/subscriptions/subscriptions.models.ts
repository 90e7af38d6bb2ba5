import { z } from 'zod';
import {
  CURRENCY_RUB,
  CURRENCY_USD,
  CURRENCY_XTR,
  type TPaymentRegion,
  type TPremiumStatus,
} from '@mirra/contracts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export const ZPremiumPlanConfig = z.object({
  id: z.string().regex(/^[a-z0-9_]{1,64}$/),
  period_days: z.number().int().min(1),
  trial_days: z.number().int().min(0).default(0),
  trial_credits: z.number().int().min(0).default(0),
  credits: z.number().int().min(0),
  prices: z.object({
    ru: z.number().int().positive(),
    intl: z.number().int().positive(),
    xtr: z.number().int().positive().optional(),
  }),
});
export type PremiumPlanConfig = z.infer<typeof ZPremiumPlanConfig>;

/** The built-in plan: monthly, three days' trial, 300 credits a month. */
export const DEFAULT_PREMIUM_PLAN: PremiumPlanConfig = {
  id: 'premium_monthly',
  period_days: 30,
  trial_days: 3,
  trial_credits: 50,
  credits: 300,
  prices: { ru: 99_000, intl: 1_299, xtr: 650 },
};

export function parsePremiumPlan(json: string | undefined): PremiumPlanConfig {
  if (!json) return DEFAULT_PREMIUM_PLAN;
  return ZPremiumPlanConfig.parse(JSON.parse(json));
}

/** The plan's price where the person pays: roubles in Russia, US dollars elsewhere. */
export function pricePlan(
  plan: PremiumPlanConfig,
  region: TPaymentRegion,
): { amount: number; currency: number } {
  return region === 'ru'
    ? { amount: plan.prices.ru, currency: CURRENCY_RUB }
    : { amount: plan.prices.intl, currency: CURRENCY_USD };
}

/** The plan's price in one currency (roubles, dollars or Stars); null where the plan has none. */
function planPriceIn(plan: PremiumPlanConfig, currency: number): number | null {
  if (currency === CURRENCY_RUB) return plan.prices.ru;
  if (currency === CURRENCY_USD) return plan.prices.intl;
  if (currency === CURRENCY_XTR) return plan.prices.xtr ?? null;
  return null;
}

/**
 * The price renewals charge once a subscription order is paid: what that order charged, in its
 * currency, so renewals go on in the currency of the provider that now holds the card (a person
 * who moved region and bought again through another provider renews in the new currency). A
 * trial charged nothing: the price already stored when it is in the trial's currency, else the
 * plan's price in that currency.
 */
export function renewalPrice(
  paid: { amount: number; currency: number },
  stored: { amount: number; currency: number },
  plan: PremiumPlanConfig,
): { amount: number; currency: number } {
  if (paid.amount > 0) return { amount: paid.amount, currency: paid.currency };
  if (stored.currency === paid.currency) return stored;
  const amount = planPriceIn(plan, paid.currency);
  return amount === null ? stored : { amount, currency: paid.currency };
}

/** Who a trial is counted against: the account, and the Telegram id when it has one. */
export function trialSubjects(userId: number, telegramId: number | null): string[] {
  return telegramId ? [`user:${userId}`, `telegram:${telegramId}`] : [`user:${userId}`];
}

export interface RenewalSettings {
  renewAheadHours: number;
  retryHours: number;
  renewAttempts: number;
}

/**
 * After a period is paid: access runs `days` past the current end (or past now when it had
 * ended), the next charge falls due on that end, and its first attempt runs `renewAheadHours`
 * before it (never before now).
 */
export function paidTerm(
  accessUntil: Date | null,
  now: Date,
  days: number,
  settings: Pick<RenewalSettings, 'renewAheadHours'>,
): { accessUntil: Date; nextChargeAt: Date; nextAttemptAt: Date } {
  const from = accessUntil && accessUntil > now ? accessUntil : now;
  const until = new Date(from.getTime() + days * DAY_MS);
  const attempt = new Date(until.getTime() - settings.renewAheadHours * HOUR_MS);
  return { accessUntil: until, nextChargeAt: until, nextAttemptAt: attempt > now ? attempt : now };
}

/**
 * After a renewal fails: retried every `retryHours` until `renewAttempts` have failed, then
 * renewals stop (access still runs to its date, then the subscription has expired).
 */
export function failedRenewal(
  failedAttempts: number,
  now: Date,
  settings: Pick<RenewalSettings, 'retryHours' | 'renewAttempts'>,
): { failedAttempts: number; nextAttemptAt: Date | null; givesUp: boolean } {
  const attempts = failedAttempts + 1;
  if (attempts >= settings.renewAttempts)
    return { failedAttempts: attempts, nextAttemptAt: null, givesUp: true };
  return {
    failedAttempts: attempts,
    nextAttemptAt: new Date(now.getTime() + settings.retryHours * HOUR_MS),
    givesUp: false,
  };
}

/** A refund ends the period it bought: access moves back by that period, never past now. */
export function refundedTerm(accessUntil: Date | null, now: Date, days: number): Date {
  if (!accessUntil) return now;
  const back = new Date(accessUntil.getTime() - days * DAY_MS);
  return back > now ? back : now;
}

export interface SubscriptionFacts {
  status: 'pending' | 'trialing' | 'active' | 'past_due' | 'expired';
  accessUntil: Date | null;
}

/** Premium's features are on while access lasts. */
export function hasPremiumAccess(sub: SubscriptionFacts | undefined, now: Date): boolean {
  return Boolean(
    sub?.accessUntil && sub.accessUntil > now && sub.status !== 'pending' && sub.status !== 'expired',
  );
}

/** The status the person sees: access that has run out reads as expired, whatever was stored. */
export function visibleStatus(sub: SubscriptionFacts | undefined, now: Date): TPremiumStatus {
  if (!sub) return 'none';
  if (sub.status === 'pending') return sub.accessUntil && sub.accessUntil > now ? 'active' : 'none';
  if (!hasPremiumAccess(sub, now)) return 'expired';
  return sub.status;
}
