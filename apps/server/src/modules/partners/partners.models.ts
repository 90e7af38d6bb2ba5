/**
 * The partner programme's rules, pure: who earns what from a paid purchase, when it may be spent,
 * and what a refund takes back. Money is integer minor units (kopecks, cents); time is passed in.
 */

export interface PartnerLevel {
  /** 1 is the buyer's own referer, 2 their referer's referer, and so on. */
  level: number;
  /** The share of the purchase, in basis points (10 % = 1000). */
  basisPoints: number;
  /** Paying first-line partners the beneficiary needs before this level pays them. */
  minPayingFirstLine: number;
}

export interface PartnerRules {
  levels: PartnerLevel[];
  holdDays: number;
}

/** One person above the buyer, nearest first, with what qualification looks at. */
export interface Upline {
  userId: number;
  /** Their first-line partners (people who joined through their link) with a paid, unrefunded purchase. */
  payingFirstLine: number;
}

export type CommissionStatus = 'frozen' | 'available' | 'cancelled' | 'reversed' | 'unqualified';

export interface PlannedCommission {
  beneficiaryId: number;
  level: number;
  basisPoints: number;
  /** The purchase amount the share is of; counted in the beneficiary's team turnover either way. */
  baseAmount: number;
  amount: number;
  status: 'frozen' | 'unqualified';
  frozenUntil: Date | null;
}

const DAY_MS = 86_400_000;

/**
 * A level's share of an amount, rounded down to whole minor units: a partner is never paid more
 * than their share, and the rounding never adds up across levels to more than the purchase.
 */
export function levelShare(amount: number, basisPoints: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) return 0;
  return Math.floor((amount * basisPoints) / 10_000);
}

/** The moment a commission earned at `at` may be spent or paid out. */
export function holdEnds(at: Date, holdDays: number): Date {
  return new Date(at.getTime() + holdDays * DAY_MS);
}

/**
 * The commissions of one paid purchase: one row per configured level that has someone above the
 * buyer. A level whose beneficiary lacks the paying first-line partners it needs (or whose share
 * rounds to nothing) is recorded as `unqualified` with amount 0: the sale still counts in that
 * partner's team turnover, but pays nothing.
 */
export function planCommissions(
  rules: PartnerRules,
  purchase: { buyerId: number; amount: number; paidAt: Date },
  upline: readonly Upline[],
): PlannedCommission[] {
  const planned: PlannedCommission[] = [];
  const seen = new Set<number>([purchase.buyerId]);
  for (const level of rules.levels) {
    const partner = upline[level.level - 1];
    // A chain that loops back (which the referer rules forbid) stops paying where it would repeat.
    if (!partner || seen.has(partner.userId)) break;
    seen.add(partner.userId);
    const amount = levelShare(purchase.amount, level.basisPoints);
    const qualified = partner.payingFirstLine >= level.minPayingFirstLine && amount > 0;
    planned.push({
      beneficiaryId: partner.userId,
      level: level.level,
      basisPoints: level.basisPoints,
      baseAmount: purchase.amount,
      amount: qualified ? amount : 0,
      status: qualified ? 'frozen' : 'unqualified',
      frozenUntil: qualified ? holdEnds(purchase.paidAt, rules.holdDays) : null,
    });
  }
  return planned;
}

/** Whether a frozen commission's hold has passed. */
export function isReleasable(commission: { status: CommissionStatus; frozenUntil: Date | null }, now: Date) {
  return commission.status === 'frozen' && commission.frozenUntil !== null && commission.frozenUntil <= now;
}

/**
 * What a refund of `refundedAmount` (of a purchase of `baseAmount`) takes back of a commission
 * already reduced by `alreadyReversed`: the commission becomes the level's share of what the buyer
 * kept, rounded the same way, so partial refunds add up to exactly the whole.
 */
export function reversalFor(
  commission: { amount: number; basisPoints: number; baseAmount: number; alreadyReversed: number },
  refundedAmount: number,
): number {
  if (commission.amount <= 0) return 0;
  const kept = Math.max(0, commission.baseAmount - Math.max(0, refundedAmount));
  const owed = kept === 0 ? 0 : Math.min(commission.amount, levelShare(kept, commission.basisPoints));
  return Math.max(0, commission.amount - commission.alreadyReversed - owed);
}

/**
 * How a reversal of an available commission meets the partner's balance when part of the money was
 * already spent or paid out: what the balance still holds is taken now, the rest is a debt that
 * later income settles first.
 */
export function splitReversal(available: number, reversal: number): { takenNow: number; debt: number } {
  const takenNow = Math.min(Math.max(0, available), reversal);
  return { takenNow, debt: reversal - takenNow };
}

/** New income meets an open debt first; only the remainder reaches the spendable balance. */
export function settleDebt(debt: number, income: number): { toDebt: number; toBalance: number } {
  const toDebt = Math.min(Math.max(0, debt), Math.max(0, income));
  return { toDebt, toBalance: income - toDebt };
}

export interface LevelProgress {
  level: number;
  basisPoints: number;
  minPayingFirstLine: number;
  unlocked: boolean;
  /** Paying first-line partners still needed to unlock this level (0 when unlocked). */
  missing: number;
}

/** Which levels pay a partner today, and what each locked one still needs. */
export function levelProgress(rules: Pick<PartnerRules, 'levels'>, payingFirstLine: number): LevelProgress[] {
  return rules.levels.map((level) => {
    const missing = Math.max(0, level.minPayingFirstLine - payingFirstLine);
    return {
      level: level.level,
      basisPoints: level.basisPoints,
      minPayingFirstLine: level.minPayingFirstLine,
      unlocked: missing === 0,
      missing,
    };
  });
}

/**
 * The calculator: expected monthly income (minor units) from `partners[i]` paying partners on level
 * i+1, each spending `averagePurchase` a month, at the configured shares. Locked levels count only
 * when `assumeUnlocked`; the first month's income is frozen for the hold before it can be spent.
 */
export function estimateMonthlyIncome(
  rules: Pick<PartnerRules, 'levels'>,
  input: { partners: readonly number[]; averagePurchase: number; payingFirstLine: number },
): { perLevel: Array<{ level: number; income: number; unlocked: boolean }>; total: number } {
  const perLevel = rules.levels.map((level, i) => {
    const partners = Math.max(0, Math.floor(input.partners[i] ?? 0));
    // Level 1's own partners are the first line: entering them counts toward the unlocks.
    const payingFirstLine = Math.max(input.payingFirstLine, Math.max(0, Math.floor(input.partners[0] ?? 0)));
    const unlocked = payingFirstLine >= level.minPayingFirstLine;
    const income = unlocked
      ? partners * levelShare(Math.max(0, Math.floor(input.averagePurchase)), level.basisPoints)
      : 0;
    return { level: level.level, income, unlocked };
  });
  return { perLevel, total: perLevel.reduce((sum, row) => sum + row.income, 0) };
}

/** Month keys (`YYYY-MM`, UTC) of the `count` months ending with the one `now` is in, oldest first. */
export function recentMonths(now: Date, count: number): string[] {
  const months: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return months;
}

/** The first instant of the UTC month `now` is in. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
