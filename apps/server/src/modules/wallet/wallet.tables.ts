import { WALLET_ENTRY_KINDS, WALLET_ENTRY_STATUSES } from '@mirra/contracts';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/**
 * One row per person and currency they ever held money in. Every change to that wallet locks its
 * row first, so two spends can never both use the same money.
 */
export const walletAccounts = pgTable(
  'wallet_accounts',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** ISO 4217 numeric: 643 roubles, 840 US dollars. */
    currency: integer('currency').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency] })],
);

/**
 * The money ledger (not credits): append-only apart from an entry's status moving on (pending →
 * in/out, pending or still-frozen → cancelled). `amount` is signed, in minor units of `currency`:
 * positive money in, negative money out. Balances are sums over these rows.
 */
export const walletEntries = pgTable(
  'wallet_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: integer('currency').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status', { enum: WALLET_ENTRY_STATUSES }).notNull(),
    kind: text('kind', { enum: WALLET_ENTRY_KINDS }).notNull(),
    /** Money in that cannot be spent before this time (a partner's commission during its hold). */
    frozenUntil: timestamp('frozen_until', { withTimezone: true }),
    /** When the release job noticed the hold had ended (the balance itself follows `frozen_until`). */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** What the entry is about: an order uuid, a pay-out request, a partner's purchase. */
    ref: text('ref'),
    /** The other person of a transfer or a referral bonus. */
    counterpartyUserId: bigint('counterparty_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    /** The same operation retried finds its entry here and changes nothing. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('wallet_entries_user_idx').on(t.userId, t.currency, t.id),
    index('wallet_entries_frozen_idx')
      .on(t.frozenUntil)
      .where(sql`${t.frozenUntil} IS NOT NULL AND ${t.releasedAt} IS NULL`),
    check('wallet_entries_amount_not_zero', sql`${t.amount} <> 0`),
    check(
      'wallet_entries_status_matches_sign',
      sql`(${t.status} <> 'in' OR ${t.amount} > 0) AND (${t.status} <> 'out' OR ${t.amount} < 0)`,
    ),
  ],
);
