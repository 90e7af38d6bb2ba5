import { and, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { TWalletBalance, TWalletEntryKind } from '@mirra/contracts';
import type { DbOrTx } from '../../shared/db/client.js';
import { walletAccounts, walletEntries } from './wallet.tables.js';
import { EARNED_KINDS, payableAmount } from './wallet.models.js';

export type WalletEntryRow = typeof walletEntries.$inferSelect;

const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/** Settled money whose hold has not ended (a commission, or a clawback of it during the hold). */
const heldAt = (now: Date) =>
  sql`${walletEntries.status} IN ('in', 'out') AND ${walletEntries.frozenUntil} > ${ts(now)}`;

/** The balance rules of `walletBucket` and `countsAsEarned` (wallet.models.ts) as one aggregate. */
const balanceColumns = (now: Date) => ({
  currency: walletEntries.currency,
  available: sql<string>`coalesce(sum(${walletEntries.amount}) FILTER (WHERE
      (${walletEntries.status} IN ('in', 'out') AND (${walletEntries.frozenUntil} IS NULL OR ${walletEntries.frozenUntil} <= ${ts(now)}))
      OR (${walletEntries.status} = 'pending' AND ${walletEntries.amount} < 0)), 0)`,
  frozen: sql<string>`coalesce(sum(${walletEntries.amount}) FILTER (WHERE ${heldAt(now)}), 0)`,
  pending: sql<string>`coalesce(sum(${walletEntries.amount}) FILTER (WHERE
      ${walletEntries.status} = 'pending' AND ${walletEntries.amount} > 0), 0)`,
  reserved: sql<string>`coalesce(-sum(${walletEntries.amount}) FILTER (WHERE
      ${walletEntries.status} = 'pending' AND ${walletEntries.amount} < 0), 0)`,
  earned: sql<string>`coalesce(sum(${walletEntries.amount}) FILTER (WHERE
      ${inArray(walletEntries.kind, [...EARNED_KINDS])}
      AND ((${walletEntries.status} IN ('in', 'out') AND (${walletEntries.frozenUntil} IS NULL OR ${walletEntries.frozenUntil} <= ${ts(now)}))
        OR (${walletEntries.status} = 'pending' AND ${walletEntries.amount} < 0))), 0)`,
});

const toBalance = (row: {
  currency: number;
  available: string;
  frozen: string;
  pending: string;
  reserved: string;
  earned: string;
}): TWalletBalance => ({
  currency: row.currency,
  available: Number(row.available),
  frozen: Number(row.frozen),
  pending: Number(row.pending),
  reserved: Number(row.reserved),
  payable: payableAmount(Number(row.available), Number(row.earned)),
});

export const walletRepository = {
  /**
   * The wallet of one currency, row-locked until the transaction ends: every change to it is
   * serialised here, so two spends can never both use the same money.
   */
  async lockAccount(tx: DbOrTx, userId: number, currency: number): Promise<void> {
    await tx.insert(walletAccounts).values({ userId, currency }).onConflictDoNothing();
    await tx
      .select({ userId: walletAccounts.userId })
      .from(walletAccounts)
      .where(and(eq(walletAccounts.userId, userId), eq(walletAccounts.currency, currency)))
      .for('update');
  },

  async findByKey(tx: DbOrTx, idempotencyKey: string): Promise<WalletEntryRow | undefined> {
    const [row] = await tx
      .select()
      .from(walletEntries)
      .where(eq(walletEntries.idempotencyKey, idempotencyKey));
    return row;
  },

  async insert(tx: DbOrTx, values: typeof walletEntries.$inferInsert): Promise<WalletEntryRow> {
    const [row] = await tx.insert(walletEntries).values(values).returning();
    return row!;
  },

  async setStatus(tx: DbOrTx, id: number, status: WalletEntryRow['status']): Promise<WalletEntryRow> {
    const [row] = await tx
      .update(walletEntries)
      .set({ status, updatedAt: sql`now()` })
      .where(eq(walletEntries.id, id))
      .returning();
    return row!;
  },

  async balance(db: DbOrTx, userId: number, currency: number, now: Date): Promise<TWalletBalance> {
    const [row] = await db
      .select(balanceColumns(now))
      .from(walletEntries)
      .where(and(eq(walletEntries.userId, userId), eq(walletEntries.currency, currency)))
      .groupBy(walletEntries.currency);
    return row ? toBalance(row) : { currency, available: 0, frozen: 0, pending: 0, reserved: 0, payable: 0 };
  },

  async balances(db: DbOrTx, userId: number, now: Date): Promise<TWalletBalance[]> {
    const rows = await db
      .select(balanceColumns(now))
      .from(walletEntries)
      .where(eq(walletEntries.userId, userId))
      .groupBy(walletEntries.currency);
    return rows.map(toBalance);
  },

  /** Newest first, keyset-paginated by entry id; `kinds` or `frozenAt` narrow the list. */
  async list(
    db: DbOrTx,
    filter: { userId: number; currency: number; kinds?: TWalletEntryKind[]; frozenAt?: Date },
    beforeId: number | null,
    limit: number,
  ): Promise<WalletEntryRow[]> {
    return db
      .select()
      .from(walletEntries)
      .where(
        and(
          eq(walletEntries.userId, filter.userId),
          eq(walletEntries.currency, filter.currency),
          filter.kinds ? inArray(walletEntries.kind, filter.kinds) : undefined,
          filter.frozenAt ? heldAt(filter.frozenAt) : undefined,
          beforeId ? lt(walletEntries.id, beforeId) : undefined,
        ),
      )
      .orderBy(desc(walletEntries.id))
      .limit(limit);
  },

  /** A person's latest entries in every currency, newest first (staff). */
  async listRecent(db: DbOrTx, userId: number, limit: number): Promise<WalletEntryRow[]> {
    return db
      .select()
      .from(walletEntries)
      .where(eq(walletEntries.userId, userId))
      .orderBy(desc(walletEntries.id))
      .limit(limit);
  },

  /** Marks the entries whose hold has ended as released; each is returned once. */
  async markReleased(db: DbOrTx, now: Date, limit: number): Promise<WalletEntryRow[]> {
    const due = db
      .select({ id: walletEntries.id })
      .from(walletEntries)
      .where(
        and(
          eq(walletEntries.status, 'in'),
          isNull(walletEntries.releasedAt),
          lte(walletEntries.frozenUntil, now),
        ),
      )
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(walletEntries)
      .set({ releasedAt: now, updatedAt: sql`now()` })
      .where(inArray(walletEntries.id, due))
      .returning();
  },
};
