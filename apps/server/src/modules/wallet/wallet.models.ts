import {
  WALLET_CURRENCIES,
  type TWalletBalance,
  type TWalletEntryKind,
  type TWalletEntryStatus,
  type TWalletFilter,
} from '@mirra/contracts';

/** Where an entry's money counts in a balance right now. */
export type WalletBucket = 'available' | 'frozen' | 'pending' | 'reserved' | null;

export interface WalletEntryState {
  amount: number;
  status: TWalletEntryStatus;
  frozenUntil: Date | null;
  kind?: TWalletEntryKind;
}

/**
 * True while settled money is held: a commission during its hold, or the part of it a partial
 * refund took back during that hold (money out held as long as the money it reduces).
 */
export function isFrozen(entry: WalletEntryState, now: Date): boolean {
  return (
    (entry.status === 'in' || entry.status === 'out') &&
    entry.frozenUntil !== null &&
    entry.frozenUntil.getTime() > now.getTime()
  );
}

/**
 * The balance rules, one entry at a time: settled money counts as available unless held; money
 * on its way in is pending (not spendable); money set aside for a pay-out has already left
 * `available` (it is reserved); cancelled entries count nowhere.
 */
export function walletBucket(entry: WalletEntryState, now: Date): WalletBucket {
  switch (entry.status) {
    case 'cancelled':
      return null;
    case 'pending':
      return entry.amount > 0 ? 'pending' : 'reserved';
    case 'in':
    case 'out':
      return isFrozen(entry, now) ? 'frozen' : 'available';
  }
}

/**
 * The kinds that make up earned money: commissions, what refunds took back of them, and what was
 * paid out (or is set aside to be). Money topped up or received from another person is for
 * spending in Mirra, never cash: only the earned part of the available money can be paid out.
 */
export const EARNED_KINDS: readonly TWalletEntryKind[] = ['referral_bonus', 'clawback', 'withdrawal'];

/** Whether an entry counts in the earned money a pay-out may take (settled and released, or reserved). */
export function countsAsEarned(entry: WalletEntryState, now: Date): boolean {
  if (!entry.kind || !EARNED_KINDS.includes(entry.kind)) return false;
  const bucket = walletBucket(entry, now);
  return bucket === 'available' || bucket === 'reserved';
}

/**
 * What can be paid out: the earned money not yet paid out, never more than the available money
 * (spending takes topped-up money first, so earnings stay payable while the wallet holds them).
 */
export function payableAmount(available: number, earned: number): number {
  return Math.max(0, Math.min(available, earned));
}

/** The balances of one currency from its entries (the SQL in the repository does the same sum). */
export function sumWalletBalance(currency: number, entries: WalletEntryState[], now: Date): TWalletBalance {
  const balance: TWalletBalance = { currency, available: 0, frozen: 0, pending: 0, reserved: 0, payable: 0 };
  let earned = 0;
  for (const entry of entries) {
    if (countsAsEarned(entry, now)) earned += entry.amount;
    const bucket = walletBucket(entry, now);
    if (bucket === 'available') balance.available += entry.amount;
    else if (bucket === 'frozen') balance.frozen += entry.amount;
    else if (bucket === 'pending') balance.pending += entry.amount;
    else if (bucket === 'reserved') {
      balance.available += entry.amount;
      balance.reserved -= entry.amount;
    }
  }
  balance.payable = payableAmount(balance.available, earned);
  return balance;
}

/** A settled entry's status follows its sign: money in or money out. */
export function settledStatus(amount: number): 'in' | 'out' {
  return amount > 0 ? 'in' : 'out';
}

export function isWalletCurrency(currency: number): boolean {
  return (WALLET_CURRENCIES as readonly number[]).includes(currency);
}

/** Why an entry cannot be recorded as asked, or null when it can. */
export function entryProblem(entry: {
  amount: number;
  currency: number;
  frozenUntil?: Date | null;
  pending?: boolean;
  kind?: TWalletEntryKind;
}): string | null {
  if (!Number.isSafeInteger(entry.amount) || entry.amount === 0)
    return 'amount must be a non-zero whole number';
  if (!isWalletCurrency(entry.currency)) return `unknown currency ${entry.currency}`;
  if (entry.frozenUntil && entry.amount < 0 && entry.kind !== 'clawback')
    return 'only money in (or a clawback of held money) can be frozen';
  if (entry.frozenUntil && entry.pending) return 'a pending entry cannot be frozen';
  return null;
}

/** Whether spending `amount` (positive) leaves the available money at zero or above. */
export function canSpend(available: number, amount: number): boolean {
  return available - amount >= 0;
}

/**
 * What cancelling an entry does: a pending one (a pay-out not yet sent, a top-up not paid) or
 * money still held (a commission whose purchase was refunded during the hold) is cancelled;
 * settled, spendable money is not — a correction is a new entry.
 */
export function canCancel(entry: WalletEntryState, now: Date): boolean {
  return entry.status === 'pending' || isFrozen(entry, now);
}

/** The kinds each filter of the wallet screen shows (`frozen` is by hold, not by kind). */
export const FILTER_KINDS: Record<Exclude<TWalletFilter, 'frozen'>, TWalletEntryKind[]> = {
  purchases: ['purchase', 'pay_in', 'refund'],
  transfers: ['transfer'],
  withdrawals: ['withdrawal'],
  referral: ['referral_bonus', 'clawback'],
};
