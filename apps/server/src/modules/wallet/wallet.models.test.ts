import { describe, expect, it } from 'vitest';
import {
  canCancel,
  entryProblem,
  isFrozen,
  payableAmount,
  sumWalletBalance,
  walletBucket,
} from './wallet.models.js';

const now = new Date('2026-03-01T12:00:00Z');
const later = new Date('2026-03-15T12:00:00Z');
const earlier = new Date('2026-02-15T12:00:00Z');

describe('wallet balance rules', () => {
  it('puts each entry in its bucket: held money is frozen until its time, then available', () => {
    expect(walletBucket({ amount: 500, status: 'in', frozenUntil: null }, now)).toBe('available');
    expect(walletBucket({ amount: 500, status: 'in', frozenUntil: later }, now)).toBe('frozen');
    expect(walletBucket({ amount: 500, status: 'in', frozenUntil: earlier }, now)).toBe('available');
    expect(walletBucket({ amount: 500, status: 'in', frozenUntil: now }, now)).toBe('available');
    expect(walletBucket({ amount: -200, status: 'out', frozenUntil: null }, now)).toBe('available');
    expect(walletBucket({ amount: 900, status: 'pending', frozenUntil: null }, now)).toBe('pending');
    expect(walletBucket({ amount: -300, status: 'pending', frozenUntil: null }, now)).toBe('reserved');
    expect(walletBucket({ amount: 900, status: 'cancelled', frozenUntil: null }, now)).toBeNull();
  });

  it('sums a wallet: reserved pay-outs leave available, pending top-ups are not spendable', () => {
    const balance = sumWalletBalance(
      643,
      [
        { amount: 10_000, status: 'in', frozenUntil: null },
        { amount: 2_500, status: 'in', frozenUntil: later },
        { amount: -3_000, status: 'out', frozenUntil: null },
        { amount: -1_000, status: 'pending', frozenUntil: null },
        { amount: 50_000, status: 'pending', frozenUntil: null },
        { amount: 7_000, status: 'cancelled', frozenUntil: null },
      ],
      now,
    );
    expect(balance).toEqual({
      currency: 643,
      available: 6_000,
      frozen: 2_500,
      pending: 50_000,
      reserved: 1_000,
      payable: 0,
    });
  });

  it('pays out earned money only, and holds a clawback of held money with it', () => {
    const entries = [
      { amount: 100_000, status: 'in' as const, frozenUntil: null, kind: 'pay_in' as const },
      { amount: 3_000, status: 'in' as const, frozenUntil: earlier, kind: 'referral_bonus' as const },
      { amount: 2_000, status: 'in' as const, frozenUntil: later, kind: 'referral_bonus' as const },
      { amount: -500, status: 'out' as const, frozenUntil: later, kind: 'clawback' as const },
      { amount: -1_000, status: 'pending' as const, frozenUntil: null, kind: 'withdrawal' as const },
    ];
    expect(walletBucket(entries[3]!, now)).toBe('frozen');
    expect(sumWalletBalance(643, entries, now)).toMatchObject({
      available: 102_000,
      frozen: 1_500,
      reserved: 1_000,
      payable: 2_000,
    });
    // Spending takes topped-up money first; a debt leaves nothing payable.
    expect(payableAmount(1_000, 2_000)).toBe(1_000);
    expect(payableAmount(-200, 2_000)).toBe(0);
  });

  it('refuses entries that cannot be: zero, fractions, unknown currencies, frozen money out', () => {
    expect(entryProblem({ amount: 100, currency: 643 })).toBeNull();
    expect(entryProblem({ amount: -100, currency: 840 })).toBeNull();
    expect(entryProblem({ amount: 0, currency: 643 })).toMatch(/non-zero/);
    expect(entryProblem({ amount: 1.5, currency: 643 })).toMatch(/whole/);
    expect(entryProblem({ amount: 100, currency: 978 })).toMatch(/currency/);
    expect(entryProblem({ amount: -100, currency: 643, frozenUntil: later })).toMatch(/frozen/);
    expect(entryProblem({ amount: -100, currency: 643, frozenUntil: later, kind: 'clawback' })).toBeNull();
    expect(entryProblem({ amount: 100, currency: 643, frozenUntil: later, pending: true })).toMatch(
      /pending/,
    );
  });

  it('cancels only what has not become spendable money', () => {
    expect(canCancel({ amount: -100, status: 'pending', frozenUntil: null }, now)).toBe(true);
    expect(canCancel({ amount: 100, status: 'in', frozenUntil: later }, now)).toBe(true);
    expect(canCancel({ amount: 100, status: 'in', frozenUntil: earlier }, now)).toBe(false);
    expect(canCancel({ amount: 100, status: 'in', frozenUntil: null }, now)).toBe(false);
    expect(canCancel({ amount: -100, status: 'out', frozenUntil: null }, now)).toBe(false);
    expect(isFrozen({ amount: 100, status: 'cancelled', frozenUntil: later }, now)).toBe(false);
  });
});
