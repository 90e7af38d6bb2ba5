import {
  WALLET_CURRENCIES,
  type TWalletBalance,
  type TWalletBalances,
  type TWalletEntry,
  type TWalletEntryKind,
  type TWalletFilter,
  type TWalletTransactions,
} from '@mirra/contracts';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import type { WalletDeps } from './wallet.deps.js';
import {
  canCancel,
  canSpend,
  entryProblem,
  FILTER_KINDS,
  isFrozen,
  isWalletCurrency,
  settledStatus,
} from './wallet.models.js';
import { walletRepository, type WalletEntryRow } from './wallet.repository.js';

/** The default wallet currency: the rouble. */
export const DEFAULT_WALLET_CURRENCY = 643;

export interface WalletEntryInput {
  userId: number;
  /** ISO 4217 numeric id (643, 840). */
  currency: number;
  /** Signed minor units: positive money in, negative money out. */
  amount: number;
  kind: TWalletEntryKind;
  /** `pending`: not settled yet (a top-up awaiting payment, a pay-out reserved). Default: settled. */
  pending?: boolean;
  /** Money in held until this time (not spendable before). */
  frozenUntil?: Date | null;
  ref?: string | null;
  counterpartyUserId?: number | null;
  /** The same key twice is the same operation: the second time nothing changes. */
  idempotencyKey: string;
  /**
   * Lets money out take the available balance below zero (a clawback of commission already
   * spent): the debt is recorded and later money pays it first. Spends never set it.
   */
  allowNegative?: boolean;
}

export interface WalletChange {
  /** False when the key had been applied before (nothing changed this time). */
  applied: boolean;
  entry: WalletEntryRow;
}

export function insufficientMoney(balance: TWalletBalance, amount: number): AppError {
  return new AppError({
    code: 'wallet.insufficient',
    detail: 'Not enough money in the wallet.',
    extra: { available: balance.available, required: amount, currency: balance.currency },
  });
}

/**
 * Records one money movement in the caller's transaction, exactly once per idempotency key, under
 * the wallet's row lock. Money out (a spend, a reserved pay-out) beyond the available balance
 * throws `wallet.insufficient` and records nothing.
 */
export async function recordWalletEntry(
  tx: DbOrTx,
  input: WalletEntryInput,
  now: Date,
): Promise<WalletChange> {
  const problem = entryProblem(input);
  if (problem) throw new Error(`Wallet entry ${input.idempotencyKey}: ${problem}`);
  await walletRepository.lockAccount(tx, input.userId, input.currency);
  // Checked under the lock: a concurrent duplicate waits above, then finds the entry here.
  const existing = await walletRepository.findByKey(tx, input.idempotencyKey);
  if (existing) return { applied: false, entry: existing };
  if (input.amount < 0 && !input.allowNegative) {
    const balance = await walletRepository.balance(tx, input.userId, input.currency, now);
    if (!canSpend(balance.available, -input.amount)) throw insufficientMoney(balance, -input.amount);
  }
  const entry = await walletRepository.insert(tx, {
    userId: input.userId,
    currency: input.currency,
    amount: input.amount,
    status: input.pending ? 'pending' : settledStatus(input.amount),
    kind: input.kind,
    frozenUntil: input.frozenUntil ?? null,
    ref: input.ref ?? null,
    counterpartyUserId: input.counterpartyUserId ?? null,
    idempotencyKey: input.idempotencyKey,
  });
  return { applied: true, entry };
}

async function lockedEntry(tx: DbOrTx, idempotencyKey: string): Promise<WalletEntryRow | undefined> {
  const found = await walletRepository.findByKey(tx, idempotencyKey);
  if (!found) return undefined;
  await walletRepository.lockAccount(tx, found.userId, found.currency);
  // Re-read under the lock: another transaction may have moved it on meanwhile.
  return walletRepository.findByKey(tx, idempotencyKey);
}

/**
 * A pending entry is settled: a paid top-up becomes money in, a sent pay-out money out. Settling
 * an entry that is no longer pending changes nothing (`applied: false`); an unknown key throws.
 */
export async function settleWalletEntry(tx: DbOrTx, idempotencyKey: string): Promise<WalletChange> {
  const entry = await lockedEntry(tx, idempotencyKey);
  if (!entry) throw new Error(`No wallet entry ${idempotencyKey}`);
  if (entry.status !== 'pending') return { applied: false, entry };
  return {
    applied: true,
    entry: await walletRepository.setStatus(tx, entry.id, settledStatus(entry.amount)),
  };
}

/**
 * Cancels a pending entry (a pay-out refused, a top-up never paid: a reserved pay-out's money is
 * available again) or money still held (a commission whose purchase was refunded during its hold).
 * Anything else changes nothing (`applied: false`): spendable money is corrected by a new entry.
 */
export async function cancelWalletEntry(
  tx: DbOrTx,
  idempotencyKey: string,
  now: Date,
): Promise<WalletChange> {
  const entry = await lockedEntry(tx, idempotencyKey);
  if (!entry) throw new Error(`No wallet entry ${idempotencyKey}`);
  if (!canCancel(entry, now)) return { applied: false, entry };
  return { applied: true, entry: await walletRepository.setStatus(tx, entry.id, 'cancelled') };
}

/** Sets money aside for a pay-out: a pending entry out, refused beyond the available balance. */
export function reserveWalletMoney(
  tx: DbOrTx,
  input: {
    userId: number;
    currency: number;
    /** Positive minor units to set aside. */
    amount: number;
    idempotencyKey: string;
    ref?: string | null;
    kind?: TWalletEntryKind;
  },
  now: Date,
): Promise<WalletChange> {
  if (input.amount <= 0) throw new Error('A reservation is a positive amount.');
  return recordWalletEntry(
    tx,
    {
      userId: input.userId,
      currency: input.currency,
      amount: -input.amount,
      kind: input.kind ?? 'withdrawal',
      pending: true,
      ref: input.ref,
      idempotencyKey: input.idempotencyKey,
    },
    now,
  );
}

/**
 * Moves money from one person to another in the caller's transaction: the sender's entry out
 * (`<key>:out`) and the receiver's in (`<key>:in`), both once. Both wallets are locked in user-id
 * order so that two opposite transfers cannot deadlock.
 */
export async function transferWalletMoney(
  tx: DbOrTx,
  input: {
    fromUserId: number;
    toUserId: number;
    currency: number;
    /** Positive minor units. */
    amount: number;
    idempotencyKey: string;
    ref?: string | null;
    /** Hold the receiver's money until then. */
    frozenUntil?: Date | null;
  },
  now: Date,
): Promise<{ applied: boolean; out: WalletEntryRow; in: WalletEntryRow }> {
  if (input.amount <= 0 || input.fromUserId === input.toUserId) throw new Error('Not a transfer.');
  for (const userId of [input.fromUserId, input.toUserId].sort((a, b) => a - b)) {
    await walletRepository.lockAccount(tx, userId, input.currency);
  }
  const out = await recordWalletEntry(
    tx,
    {
      userId: input.fromUserId,
      currency: input.currency,
      amount: -input.amount,
      kind: 'transfer',
      ref: input.ref,
      counterpartyUserId: input.toUserId,
      idempotencyKey: `${input.idempotencyKey}:out`,
    },
    now,
  );
  const received = await recordWalletEntry(
    tx,
    {
      userId: input.toUserId,
      currency: input.currency,
      amount: input.amount,
      kind: 'transfer',
      ref: input.ref,
      frozenUntil: input.frozenUntil,
      counterpartyUserId: input.fromUserId,
      idempotencyKey: `${input.idempotencyKey}:in`,
    },
    now,
  );
  return { applied: out.applied, out: out.entry, in: received.entry };
}

/** One currency's balances (locks nothing; inside a transaction after `lockWallet` it is exact). */
export function getWalletBalance(
  db: DbOrTx,
  userId: number,
  currency: number,
  now: Date,
): Promise<TWalletBalance> {
  return walletRepository.balance(db, userId, currency, now);
}

/** Holds a wallet's lock until the transaction ends (serialises everything done to it). */
export function lockWallet(tx: DbOrTx, userId: number, currency: number): Promise<void> {
  return walletRepository.lockAccount(tx, userId, currency);
}

/** Every currency a wallet holds, the default one first, zeros included. */
export async function getWalletBalances(
  deps: Pick<WalletDeps, 'db' | 'now'>,
  userId: number,
): Promise<TWalletBalances> {
  const held = await walletRepository.balances(deps.db, userId, deps.now());
  const balances = WALLET_CURRENCIES.map(
    (currency) =>
      held.find((b) => b.currency === currency) ?? {
        currency,
        available: 0,
        frozen: 0,
        pending: 0,
        reserved: 0,
        payable: 0,
      },
  );
  return { default_currency: DEFAULT_WALLET_CURRENCY, balances };
}

export function serializeWalletEntry(entry: WalletEntryRow, now: Date): TWalletEntry {
  return {
    id: entry.id,
    currency: entry.currency,
    amount: entry.amount,
    status: entry.status,
    kind: entry.kind,
    frozen_until: entry.frozenUntil?.toISOString() ?? null,
    frozen: isFrozen(entry, now),
    ref: entry.ref,
    created_at: entry.createdAt.toISOString(),
  };
}

/** A person's latest wallet entries in every currency, newest first, as staff see them. */
export async function listRecentWalletEntries(
  deps: Pick<WalletDeps, 'db' | 'now'>,
  userId: number,
  limit = 30,
): Promise<TWalletEntry[]> {
  const now = deps.now();
  const rows = await walletRepository.listRecent(deps.db, userId, limit);
  return rows.map((entry) => serializeWalletEntry(entry, now));
}

/** A wallet's transactions in one currency, newest first, narrowed by the screen's filter. */
export async function listWalletTransactions(
  deps: Pick<WalletDeps, 'db' | 'now'>,
  userId: number,
  currency: number,
  query: { filter?: TWalletFilter; cursor?: string; limit: number },
): Promise<TWalletTransactions> {
  if (!isWalletCurrency(currency)) {
    throw new AppError({ code: 'wallet.currency_unknown', detail: 'Not found.' });
  }
  const now = deps.now();
  const { filter } = query;
  const { page, next } = await readIdCursorPage(query.cursor, query.limit, (beforeId, take) =>
    walletRepository.list(
      deps.db,
      {
        userId,
        currency,
        kinds: filter && filter !== 'frozen' ? FILTER_KINDS[filter] : undefined,
        frozenAt: filter === 'frozen' ? now : undefined,
      },
      beforeId,
      take,
    ),
  );
  return { results: page.map((entry) => serializeWalletEntry(entry, now)), next };
}

/**
 * Notes the entries whose hold has ended (run by a scheduled job). The balance already counts
 * them as available from `frozen_until` on; this returns each released entry once, for notices.
 */
export async function releaseFrozen(
  deps: Pick<WalletDeps, 'db' | 'now' | 'logger'>,
): Promise<WalletEntryRow[]> {
  const released = await walletRepository.markReleased(deps.db, deps.now(), 1000);
  if (released.length) deps.logger.info({ count: released.length }, 'wallet holds released');
  return released;
}
