import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PREMIUM_PLAN,
  failedRenewal,
  hasPremiumAccess,
  paidTerm,
  parsePremiumPlan,
  pricePlan,
  refundedTerm,
  renewalPrice,
  trialSubjects,
  visibleStatus,
} from './subscriptions.models.js';

const now = new Date('2030-06-01T12:00:00Z');
const days = (n: number) => new Date(now.getTime() + n * 86_400_000);

describe('premium rules', () => {
  it('prices the plan in roubles for Russia and in dollars elsewhere', () => {
    expect(pricePlan(DEFAULT_PREMIUM_PLAN, 'ru')).toEqual({ amount: 99_000, currency: 643 });
    expect(pricePlan(DEFAULT_PREMIUM_PLAN, 'intl')).toEqual({ amount: 1_299, currency: 840 });
    expect(parsePremiumPlan(undefined)).toBe(DEFAULT_PREMIUM_PLAN);
    expect(() => parsePremiumPlan('{"id":"x"}')).toThrow();
  });

  it('renews at the price of the order last paid, in its currency (a trial: the plan’s price in the trial’s currency)', () => {
    const plan = DEFAULT_PREMIUM_PLAN;
    const dollars = { amount: 1_299, currency: 840 };
    expect(renewalPrice({ amount: 99_000, currency: 643 }, dollars, plan)).toEqual({
      amount: 99_000,
      currency: 643,
    });
    expect(renewalPrice({ amount: 650, currency: 0 }, dollars, plan)).toEqual({ amount: 650, currency: 0 });
    expect(renewalPrice({ amount: 0, currency: 840 }, { amount: 999, currency: 840 }, plan)).toEqual({
      amount: 999,
      currency: 840,
    });
    expect(renewalPrice({ amount: 0, currency: 643 }, dollars, plan)).toEqual({
      amount: plan.prices.ru,
      currency: 643,
    });
    expect(renewalPrice({ amount: 0, currency: 978 }, dollars, plan)).toEqual(dollars);
  });

  it('counts the trial against the account and the Telegram id', () => {
    expect(trialSubjects(5, null)).toEqual(['user:5']);
    expect(trialSubjects(5, 123)).toEqual(['user:5', 'telegram:123']);
  });

  it('extends access from its end (or from now once ended) and schedules the charge ahead of it', () => {
    const settings = { renewAheadHours: 24 };
    expect(paidTerm(null, now, 30, settings)).toEqual({
      accessUntil: days(30),
      nextChargeAt: days(30),
      nextAttemptAt: days(29),
    });
    expect(paidTerm(days(2), now, 30, settings).accessUntil).toEqual(days(32));
    expect(paidTerm(days(-5), now, 30, settings).accessUntil).toEqual(days(30));
    // A period shorter than the lead time is attempted at once, never in the past.
    expect(paidTerm(null, now, 0, settings).nextAttemptAt).toEqual(now);
  });

  it('retries a failed renewal until the attempts run out', () => {
    const settings = { retryHours: 24, renewAttempts: 3 };
    expect(failedRenewal(0, now, settings)).toEqual({
      failedAttempts: 1,
      nextAttemptAt: days(1),
      givesUp: false,
    });
    expect(failedRenewal(1, now, settings)).toEqual({
      failedAttempts: 2,
      nextAttemptAt: days(1),
      givesUp: false,
    });
    expect(failedRenewal(2, now, settings)).toEqual({
      failedAttempts: 3,
      nextAttemptAt: null,
      givesUp: true,
    });
  });

  it('a refund takes its period back, never past now', () => {
    expect(refundedTerm(days(40), now, 30)).toEqual(days(10));
    expect(refundedTerm(days(20), now, 30)).toEqual(now);
    expect(refundedTerm(null, now, 30)).toEqual(now);
  });

  it('premium is on while access lasts, and the status reads expired after', () => {
    expect(hasPremiumAccess({ status: 'active', accessUntil: days(1) }, now)).toBe(true);
    expect(hasPremiumAccess({ status: 'past_due', accessUntil: days(1) }, now)).toBe(true);
    expect(hasPremiumAccess({ status: 'active', accessUntil: days(-1) }, now)).toBe(false);
    expect(hasPremiumAccess({ status: 'pending', accessUntil: null }, now)).toBe(false);
    expect(visibleStatus(undefined, now)).toBe('none');
    expect(visibleStatus({ status: 'pending', accessUntil: null }, now)).toBe('none');
    expect(visibleStatus({ status: 'trialing', accessUntil: days(2) }, now)).toBe('trialing');
    expect(visibleStatus({ status: 'active', accessUntil: days(-2) }, now)).toBe('expired');
  });
});
