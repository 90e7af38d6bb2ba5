import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PayoutRequisites } from '../../shared/db/json-columns.js';
import { users } from '../users/users.tables.js';

/**
 * What the nightly partner and wallet reconciliation found: a commission whose wallet entries do
 * not add up to it, a pay-out whose reserve entry disagrees with it, a team or monthly aggregate
 * that disagrees with the commissions it is derived from. `repaired` marks derived rows the job
 * rebuilt; the rest (money) are for an operator to look into.
 */
export const walletAuditFindings = pgTable(
  'wallet_audit_findings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    check: text('check', {
      enum: ['commission_entries', 'payout_reserve', 'partner_monthly', 'partner_paying', 'partner_members'],
    }).notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    /** The commission's wallet key, the pay-out's uuid, the month or level of the aggregate. */
    ref: text('ref').notNull(),
    expected: text('expected').notNull(),
    actual: text('actual').notNull(),
    repaired: boolean('repaired').notNull().default(false),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('wallet_audit_findings_found_idx').on(t.foundAt)],
);

/**
 * The partner programme's record of each paid purchase's shares: one row per level above the buyer
 * (`unqualified` rows pay nothing but count in that partner's team turnover). `(order_uuid, level)`
 * is unique, so a payment event delivered twice records its commissions once. A commission is
 * frozen until `frozen_until`, then available; a refund cancels a frozen one and reverses an
 * available one (`reversed_amount` of it, `refunded_amount` of the purchase).
 */
export const partnerCommissions = pgTable(
  'partner_commissions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderUuid: uuid('order_uuid').notNull(),
    buyerId: bigint('buyer_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    beneficiaryId: bigint('beneficiary_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    basisPoints: integer('basis_points').notNull(),
    /** The purchase amount, minor units of `currency`. */
    baseAmount: integer('base_amount').notNull(),
    amount: integer('amount').notNull(),
    currency: integer('currency').notNull(),
    status: text('status', {
      enum: ['frozen', 'available', 'cancelled', 'reversed', 'unqualified'],
    }).notNull(),
    frozenUntil: timestamp('frozen_until', { withTimezone: true }),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    reversedAmount: integer('reversed_amount').notNull().default(0),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('partner_commissions_order_level_unique').on(t.orderUuid, t.level),
    index('partner_commissions_beneficiary_idx').on(t.beneficiaryId, t.buyerId),
    index('partner_commissions_due_idx')
      .on(t.frozenUntil)
      .where(sql`${t.status} = 'frozen'`),
    check(
      'partner_commissions_amounts',
      sql`${t.amount} >= 0 AND ${t.reversedAmount} BETWEEN 0 AND ${t.amount}`,
    ),
  ],
);

/**
 * Per partner, month (UTC, first day) and currency: commission income net of reversals, team
 * turnover net of refunds, and the first line's part of it. Kept in the transaction of each
 * commission or refund, so statistics and the chart read a handful of rows at any team size.
 */
export const partnerMonthly = pgTable(
  'partner_monthly',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    currency: integer('currency').notNull(),
    income: bigint('income', { mode: 'number' }).notNull().default(0),
    turnover: bigint('turnover', { mode: 'number' }).notNull().default(0),
    firstLineTurnover: bigint('first_line_turnover', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.month, t.currency] }),
    index('partner_monthly_income_idx').on(t.month, t.currency, t.income),
  ],
);

/**
 * The tops list, recomputed by a scheduled job: rank within (period, metric, currency), so serving
 * GET /api/linear/top/ reads at most a page of rows whatever the number of users.
 */
export const partnerTops = pgTable(
  'partner_tops',
  {
    period: text('period', { enum: ['month', 'all'] }).notNull(),
    metric: text('metric', { enum: ['income', 'team'] }).notNull(),
    currency: integer('currency').notNull(),
    rank: integer('rank').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: bigint('value', { mode: 'number' }).notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.period, t.metric, t.currency, t.rank] })],
);

/** A partner's own programme settings: whether their downline may see how to contact them. */
export const partnerProfiles = pgTable('partner_profiles', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  showContact: boolean('show_contact').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A request to pay wallet money out to the partner's requisites. Its money is reserved in the
 * wallet (a pending entry under `payout:<uuid>`) from the request until an admin pays it (the
 * entry settles: out) or rejects it (the entry is cancelled: the money is available again).
 */
export const payoutRequests = pgTable(
  'payout_requests',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: integer('currency').notNull(),
    amount: integer('amount').notNull(),
    method: text('method', { enum: ['card', 'sbp', 'crypto'] }).notNull(),
    requisites: jsonb('requisites').$type<PayoutRequisites>().notNull(),
    status: text('status', { enum: ['pending', 'paid', 'rejected'] })
      .notNull()
      .default('pending'),
    reason: text('reason'),
    /** The bank's or network's reference of the transfer, given by the admin who marked it paid. */
    reference: text('reference'),
    /** The client's key for this request: a double submit creates one request. */
    clientKey: text('client_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payout_requests_client_key_unique').on(t.userId, t.clientKey),
    index('payout_requests_status_idx').on(t.status, t.createdAt),
    index('payout_requests_user_idx').on(t.userId, t.createdAt),
    check('payout_requests_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** The requisites a partner last paid out to, offered again next time. */
export const payoutRequisites = pgTable('payout_requisites', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  requisites: jsonb('requisites').$type<PayoutRequisites>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Per partner and level of their team: how many people are on it and how many of them have a
 * purchase not wholly refunded. Kept as people join (the new-partner job) and as commissions are
 * recorded and reversed, so statistics, qualification and the level counts read a few rows
 * whatever the size of the team.
 */
export const partnerLevelCounts = pgTable(
  'partner_level_counts',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    members: integer('members').notNull().default(0),
    paying: integer('paying').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.level] })],
);
