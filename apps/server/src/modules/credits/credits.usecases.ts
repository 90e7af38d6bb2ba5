import type { z } from 'zod';
import type { ZCreditBalance, ZCreditEntryKind, ZCreditHistory } from '@mirra/contracts';
import type { CreditsDeps } from './credits.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import { creditsRepository } from './credits.repository.js';
import { shortfall } from './credits.models.js';

export interface CreditChange {
  userId: number;
  /** Positive to add, negative to spend. */
  delta: number;
  kind: z.infer<typeof ZCreditEntryKind>;
  ref?: string | null;
  /** The same key twice is the same operation: the second time nothing changes. */
  idempotencyKey: string;
}

export function insufficientCredits(balance: number, cost: number): AppError {
  const difference = shortfall(balance, cost);
  return new AppError({
    code: 'credits.insufficient',
    detail: `You don't have enough ${difference} credits for generation.`,
    extra: { required: cost, balance, difference },
  });
}

/**
 * Applies one ledger entry and the cached balance together, in the caller's transaction, exactly
 * once per idempotency key. Spending more than the balance throws `credits.insufficient`.
 */
export async function applyCreditChange(
  tx: DbOrTx,
  change: CreditChange,
): Promise<{ applied: boolean; balance: number }> {
  const balance = await creditsRepository.lockBalance(tx, change.userId);
  // Checked under the lock: a concurrent duplicate waits above, then finds the entry here.
  if (await creditsRepository.findEntryByKey(tx, change.idempotencyKey)) return { applied: false, balance };
  const next = balance + change.delta;
  if (next < 0) throw insufficientCredits(balance, -change.delta);
  await creditsRepository.insertEntry(tx, {
    userId: change.userId,
    delta: change.delta,
    kind: change.kind,
    ref: change.ref ?? null,
    idempotencyKey: change.idempotencyKey,
    balanceAfter: next,
  });
  await creditsRepository.setBalance(tx, change.userId, next);
  return { applied: true, balance: next };
}

/** Holds the user's balance lock until the transaction ends (serialises their paid actions). */
export async function lockCredits(tx: DbOrTx, userId: number): Promise<number> {
  return creditsRepository.lockBalance(tx, userId);
}

/** The credits every new account starts with (configuration); once per user. */
export async function grantWelcomeCredits(tx: DbOrTx, userId: number, amount: number): Promise<void> {
  if (amount <= 0) return;
  await applyCreditChange(tx, {
    userId,
    delta: amount,
    kind: 'welcome_grant',
    idempotencyKey: `welcome:${userId}`,
  });
}

/** Whether the ledger holds the entry of this key (an operation done once per key). */
export async function hasCreditEntry(db: DbOrTx, idempotencyKey: string): Promise<boolean> {
  return Boolean(await creditsRepository.findEntryByKey(db, idempotencyKey));
}

export const getCreditBalance = (deps: Pick<CreditsDeps, 'db'>, userId: number) =>
  creditsRepository.findBalance(deps.db, userId);

/**
 * What a person has to spend: the credit balance, and when their unlimited package ends (null
 * once it has ended, so the screens never show a date in the past as running).
 */
export async function getCreditStanding(
  deps: Pick<CreditsDeps, 'db' | 'now'>,
  userId: number,
): Promise<z.infer<typeof ZCreditBalance>> {
  const [balance, until] = await Promise.all([
    creditsRepository.findBalance(deps.db, userId),
    creditsRepository.findUnlimitedUntil(deps.db, userId),
  ]);
  return {
    balance,
    unlimited_until: until && until.getTime() > deps.now().getTime() ? until.toISOString() : null,
  };
}

export async function getCreditHistory(
  deps: Pick<CreditsDeps, 'db'>,
  userId: number,
  cursor: string | undefined,
  limit: number,
): Promise<z.infer<typeof ZCreditHistory>> {
  const { page, next } = await readIdCursorPage(cursor, limit, (beforeId, take) =>
    creditsRepository.listEntries(deps.db, userId, beforeId, take),
  );
  return {
    results: page.map((row) => ({
      id: row.id,
      delta: row.delta,
      kind: row.kind as z.infer<typeof ZCreditEntryKind>,
      ref: row.ref,
      balance_after: row.balanceAfter,
      created_at: row.createdAt.toISOString(),
    })),
    next,
  };
}

/**
 * The nightly proof that the ledger and the cached balances agree. Every mismatch is recorded
 * and logged as an error (it would mean a bug or a manual edit); returns how many were found.
 */
export async function reconcileCreditBalances(deps: Pick<CreditsDeps, 'db' | 'logger'>): Promise<number> {
  const mismatches = await creditsRepository.findMismatches(deps.db);
  for (const row of mismatches) {
    await creditsRepository.recordFinding(deps.db, {
      userId: row.user_id,
      cachedBalance: row.balance,
      ledgerSum: row.ledger_sum,
    });
    deps.logger.error(
      { userId: row.user_id, cachedBalance: row.balance, ledgerSum: row.ledger_sum },
      'credit balance does not match its ledger',
    );
  }
  return mismatches.length;
}
