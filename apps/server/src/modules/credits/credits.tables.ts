import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/**
 * A user's credit balance, cached from the ledger and changed only in the same transaction as the
 * entry that explains it. Kept out of `users` so balance changes do not wake the session cache.
 */
export const creditAccounts = pgTable(
  'credit_accounts',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balance: integer('balance').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('credit_accounts_balance_not_negative', sql`${t.balance} >= 0`)],
);

/** The credits ledger: append-only; corrections are new entries. */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    kind: text('kind').notNull(),
    ref: text('ref'),
    /** The same operation retried (a job run twice, a double click) finds its entry here. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('credit_entries_user_idx').on(t.userId, t.id)],
);

/** Mismatches the nightly reconciliation found between a ledger and its cached balance. */
export const creditAuditFindings = pgTable('credit_audit_findings', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  cachedBalance: integer('cached_balance').notNull(),
  ledgerSum: integer('ledger_sum').notNull(),
  foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
});
