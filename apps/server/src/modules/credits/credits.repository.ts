import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { creditAccounts, creditAuditFindings, creditEntries } from './credits.tables.js';
import { entitlements } from '../payments/payments.tables.js';

export type CreditEntryRow = typeof creditEntries.$inferSelect;

export const creditsRepository = {
  /**
   * The balance, row-locked until the transaction ends: every change to one user's credits is
   * serialised here, so two requests can never both spend the last credits.
   */
  async lockBalance(tx: DbOrTx, userId: number): Promise<number> {
    await tx.insert(creditAccounts).values({ userId, balance: 0 }).onConflictDoNothing();
    const [row] = await tx
      .select({ balance: creditAccounts.balance })
      .from(creditAccounts)
      .where(eq(creditAccounts.userId, userId))
      .for('update');
    return row!.balance;
  },

  async findEntryByKey(tx: DbOrTx, idempotencyKey: string): Promise<CreditEntryRow | undefined> {
    const [row] = await tx
      .select()
      .from(creditEntries)
      .where(eq(creditEntries.idempotencyKey, idempotencyKey));
    return row;
  },

  async insertEntry(tx: DbOrTx, values: typeof creditEntries.$inferInsert): Promise<CreditEntryRow> {
    const [row] = await tx.insert(creditEntries).values(values).returning();
    return row!;
  },

  async setBalance(tx: DbOrTx, userId: number, balance: number): Promise<void> {
    // The ledger's clock is the database's: entries and the cached balance are stamped by now().
    await tx
      .update(creditAccounts)
      .set({ balance, updatedAt: sql`now()` })
      .where(eq(creditAccounts.userId, userId));
  },

  async findBalance(db: DbOrTx, userId: number): Promise<number> {
    const [row] = await db
      .select({ balance: creditAccounts.balance })
      .from(creditAccounts)
      .where(eq(creditAccounts.userId, userId));
    return row?.balance ?? 0;
  },

  /** The end of the user's unlimited package, if they ever had one (past or future). */
  async findUnlimitedUntil(db: DbOrTx, userId: number): Promise<Date | null> {
    const [row] = await db
      .select({ until: entitlements.until })
      .from(entitlements)
      .where(and(eq(entitlements.userId, userId), eq(entitlements.kind, 'unlimited')));
    return row?.until ?? null;
  },

  /** Newest first, keyset-paginated by entry id. */
  async listEntries(db: DbOrTx, userId: number, beforeId: number | null, limit: number) {
    return db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.userId, userId), beforeId ? lt(creditEntries.id, beforeId) : undefined))
      .orderBy(desc(creditEntries.id))
      .limit(limit);
  },

  /** Accounts whose cached balance differs from the sum of their ledger (should be none). */
  async findMismatches(db: DbOrTx) {
    const result = await db.execute<{ user_id: number; balance: number; ledger_sum: number }>(sql`
      SELECT a.user_id, a.balance, COALESCE(e.total, 0)::int AS ledger_sum
      FROM credit_accounts a
      LEFT JOIN (SELECT user_id, SUM(delta) AS total FROM credit_entries GROUP BY user_id) e
        ON e.user_id = a.user_id
      WHERE a.balance <> COALESCE(e.total, 0)
      UNION ALL
      SELECT e.user_id, 0, SUM(e.delta)::int
      FROM credit_entries e
      WHERE NOT EXISTS (SELECT 1 FROM credit_accounts a WHERE a.user_id = e.user_id)
      GROUP BY e.user_id
      HAVING SUM(e.delta) <> 0`);
    return result.rows;
  },

  async recordFinding(db: DbOrTx, values: typeof creditAuditFindings.$inferInsert): Promise<void> {
    await db.insert(creditAuditFindings).values(values);
  },
};
