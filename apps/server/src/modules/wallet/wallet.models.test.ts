import { describe, expect, it } from 'vitest';
import { canCancel, entryProblem, isFrozen, sumWalletBalance, walletBucket } from './wallet.models.js';

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
    });
  });

  it('refuses entries that cannot be: zero, fractions, unknown currencies, frozen money out', () => {
    expect(entryProblem({ amount: 100, currency: 643 })).toBeNull();
    expect(entryProblem({ amount: -100, currency: 840 })).toBeNull();
    expect(entryProblem({ amount: 0, currency: 643 })).toMatch(/non-zero/);
    expect(entryProblem({ amount: 1.5, currency: 643 })).toMatch(/whole/);
    expect(entryProblem({ amount: 100, currency: 978 })).toMatch(/currency/);
    expect(entryProblem({ amount: -100, currency: 643, frozenUntil: later })).toMatch(/frozen/);
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
