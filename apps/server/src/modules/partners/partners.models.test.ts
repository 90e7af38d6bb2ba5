import { describe, expect, it } from 'vitest';
import { parsePartnerLevels, parsePartnerQualification } from '../../shared/config.js';
import {
  estimateMonthlyIncome,
  holdEnds,
  isReleasable,
  levelProgress,
  levelShare,
  planCommissions,
  recentMonths,
  reversalFor,
  settleDebt,
  splitReversal,
  type PartnerRules,
} from './partners.models.js';

const rules = (minPaying = [0, 0, 0], holdDays = 14): PartnerRules => ({
  levels: [1000, 500, 200].map((basisPoints, i) => ({
    level: i + 1,
    basisPoints,
    minPayingFirstLine: minPaying[i]!,
  })),
  holdDays,
});
const paidAt = new Date('2026-03-01T10:00:00Z');
const chain = (payingFirstLine = [5, 5, 5]) =>
  [101, 102, 103, 104].map((userId, i) => ({ userId, payingFirstLine: payingFirstLine[i] ?? 5 }));

describe('configuration', () => {
  it('reads percentages per level as basis points, and refuses what cannot be paid', () => {
    expect(parsePartnerLevels('10,5,2')).toEqual([1000, 500, 200]);
    expect(parsePartnerLevels(' 12.5 , 0.25 ')).toEqual([1250, 25]);
    for (const bad of ['', '10,,2', '-1', '10%', '100.001', '60,50']) {
      expect(() => parsePartnerLevels(bad), bad).toThrow(/PARTNER_LEVELS/);
    }
    expect(parsePartnerQualification('0,2', 3)).toEqual([0, 2, 0]);
    expect(parsePartnerQualification('', 2)).toEqual([0, 0]);
    expect(() => parsePartnerQualification('a', 3)).toThrow(/PARTNER_LEVEL_MIN_PAYING/);
  });
});

describe('commission table', () => {
  it('pays 10 / 5 / 2 % up three levels, frozen for the hold, and nobody beyond', () => {
    const planned = planCommissions(rules(), { buyerId: 100, amount: 99_000, paidAt }, chain());
    expect(planned).toEqual([
      {
        beneficiaryId: 101,
        level: 1,
        basisPoints: 1000,
        baseAmount: 99_000,
        amount: 9_900,
        status: 'frozen',
        frozenUntil: new Date('2026-03-15T10:00:00Z'),
      },
      {
        beneficiaryId: 102,
        level: 2,
        basisPoints: 500,
        baseAmount: 99_000,
        amount: 4_950,
        status: 'frozen',
        frozenUntil: new Date('2026-03-15T10:00:00Z'),
      },
      {
        beneficiaryId: 103,
        level: 3,
        basisPoints: 200,
        baseAmount: 99_000,
        amount: 1_980,
        status: 'frozen',
        frozenUntil: new Date('2026-03-15T10:00:00Z'),
      },
    ]);
  });

  it('rounds each share down to whole minor units, never more than the share', () => {
    expect(levelShare(999, 1000)).toBe(99);
    expect(levelShare(19, 500)).toBe(0);
    expect(levelShare(1, 200)).toBe(0);
    expect(levelShare(0, 1000)).toBe(0);
    expect(levelShare(-500, 1000)).toBe(0);
    const planned = planCommissions(rules(), { buyerId: 100, amount: 149, paidAt }, chain());
    expect(planned.map((c) => c.amount)).toEqual([14, 7, 2]);
    // A share that rounds to nothing is no commission.
    const tiny = planCommissions(rules(), { buyerId: 100, amount: 30, paidAt }, chain());
    expect(tiny.map((c) => [c.amount, c.status])).toEqual([
      [3, 'frozen'],
      [1, 'frozen'],
      [0, 'unqualified'],
    ]);
  });

  it('stops at the top of a short chain', () => {
    const planned = planCommissions(rules(), { buyerId: 100, amount: 10_000, paidAt }, chain().slice(0, 1));
    expect(planned.map((c) => c.beneficiaryId)).toEqual([101]);
    expect(planCommissions(rules(), { buyerId: 100, amount: 10_000, paidAt }, [])).toEqual([]);
  });

  it('pays a level only with the paying first-line partners it needs; the sale still counts as turnover', () => {
    const planned = planCommissions(
      rules([0, 2, 3]),
      { buyerId: 100, amount: 10_000, paidAt },
      chain([0, 2, 2]),
    );
    expect(planned.map((c) => [c.level, c.amount, c.status, c.baseAmount])).toEqual([
      [1, 1000, 'frozen', 10_000],
      [2, 500, 'frozen', 10_000],
      [3, 0, 'unqualified', 10_000],
    ]);
    expect(planned[2]!.frozenUntil).toBeNull();
  });

  it('never pays the buyer or anyone twice, even on a chain that loops', () => {
    const looped = [
      { userId: 101, payingFirstLine: 9 },
      { userId: 100, payingFirstLine: 9 },
      { userId: 101, payingFirstLine: 9 },
    ];
    expect(planCommissions(rules(), { buyerId: 100, amount: 10_000, paidAt }, looped)).toHaveLength(1);
  });

  it('the hold ends after the configured days; a zero hold frees at once', () => {
    expect(holdEnds(paidAt, 14)).toEqual(new Date('2026-03-15T10:00:00Z'));
    const frozen = { status: 'frozen' as const, frozenUntil: holdEnds(paidAt, 14) };
    expect(isReleasable(frozen, new Date('2026-03-15T09:59:59Z'))).toBe(false);
    expect(isReleasable(frozen, new Date('2026-03-15T10:00:00Z'))).toBe(true);
    expect(isReleasable({ status: 'cancelled', frozenUntil: paidAt }, paidAt)).toBe(false);
    const instant = planCommissions(rules([0, 0, 0], 0), { buyerId: 100, amount: 1000, paidAt }, chain());
    expect(isReleasable(instant[0]!, paidAt)).toBe(true);
  });
});

describe('refunds and debts', () => {
  const commission = { amount: 995, basisPoints: 1000, baseAmount: 9_950, alreadyReversed: 0 };

  it('a full refund takes back the whole commission', () => {
    expect(reversalFor(commission, 9_950)).toBe(995);
    expect(reversalFor(commission, 20_000)).toBe(995);
  });

  it('partial refunds reduce it to the share of what the buyer kept, adding up to exactly the whole', () => {
    const first = reversalFor(commission, 3_333);
    expect(first).toBe(995 - levelShare(9_950 - 3_333, 1000));
    const second = reversalFor({ ...commission, alreadyReversed: first }, 9_950);
    expect(first + second).toBe(995);
    expect(reversalFor({ ...commission, alreadyReversed: 995 }, 9_950)).toBe(0);
    expect(reversalFor({ ...commission, amount: 0 }, 9_950)).toBe(0);
  });

  it('a reversal after part of the money was spent takes what is there and leaves a debt', () => {
    expect(splitReversal(1_000, 995)).toEqual({ takenNow: 995, debt: 0 });
    expect(splitReversal(300, 995)).toEqual({ takenNow: 300, debt: 695 });
    expect(splitReversal(0, 995)).toEqual({ takenNow: 0, debt: 995 });
    expect(splitReversal(-50, 995)).toEqual({ takenNow: 0, debt: 995 });
  });

  it('later income settles the debt first, then reaches the balance', () => {
    expect(settleDebt(695, 500)).toEqual({ toDebt: 500, toBalance: 0 });
    expect(settleDebt(195, 500)).toEqual({ toDebt: 195, toBalance: 305 });
    expect(settleDebt(0, 500)).toEqual({ toDebt: 0, toBalance: 500 });
  });
});

describe('levels, calculator and months', () => {
  it('says what each locked level still needs', () => {
    expect(levelProgress(rules([0, 2, 3]), 1)).toEqual([
      { level: 1, basisPoints: 1000, minPayingFirstLine: 0, unlocked: true, missing: 0 },
      { level: 2, basisPoints: 500, minPayingFirstLine: 2, unlocked: false, missing: 1 },
      { level: 3, basisPoints: 200, minPayingFirstLine: 3, unlocked: false, missing: 2 },
    ]);
  });

  it('estimates monthly income per level from the configured shares', () => {
    const estimate = estimateMonthlyIncome(rules([0, 2, 3]), {
      partners: [2, 10, 50],
      averagePurchase: 99_000,
      payingFirstLine: 0,
    });
    expect(estimate.perLevel).toEqual([
      { level: 1, income: 2 * 9_900, unlocked: true },
      { level: 2, income: 10 * 4_950, unlocked: true },
      { level: 3, income: 0, unlocked: false },
    ]);
    expect(estimate.total).toBe(2 * 9_900 + 10 * 4_950);
  });

  it('lists the last months oldest first, across a year', () => {
    expect(recentMonths(new Date('2026-02-10T00:00:00Z'), 4)).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
  });
});
