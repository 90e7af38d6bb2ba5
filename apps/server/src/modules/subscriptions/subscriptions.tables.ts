import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/**
 * A person's premium subscription (one row per person, kept after it ends). Access runs until
 * `access_until`; while `auto_renew` holds, the saved payment method is charged from
 * `next_charge_at` on, retried after a failure, and the subscription expires when retries run out.
 */
export const premiumSubscriptions = pgTable(
  'premium_subscriptions',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    status: text('status', { enum: ['pending', 'trialing', 'active', 'past_due', 'expired'] }).notNull(),
    /** The provider and the saved method renewals charge (null: nothing saved, no renewals). */
    provider: text('provider'),
    savedMethodId: text('saved_method_id'),
    /** A provider that renews by itself (Stripe `sub_…`, a Stars subscription): its id, for cancelling. */
    providerSubscriptionId: text('provider_subscription_id'),
    /** The price of each renewal, fixed when the subscription started (minor units, ISO 4217 numeric). */
    amount: integer('amount').notNull(),
    currency: integer('currency').notNull(),
    periodDays: integer('period_days').notNull(),
    accessUntil: timestamp('access_until', { withTimezone: true }),
    nextChargeAt: timestamp('next_charge_at', { withTimezone: true }),
    autoRenew: boolean('auto_renew').notNull().default(true),
    /** Renewal attempts that failed since the last successful charge. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    /** When the next renewal attempt may run (after a failure, the retry time). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * When the provider's latest state of its own subscription (Stripe `customer.subscription.*`)
     * was made there: a state older than this, delivered late, changes nothing.
     */
    providerStateAt: timestamp('provider_state_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('premium_subscriptions_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.autoRenew} AND ${t.nextAttemptAt} IS NOT NULL`),
  ],
);

/**
 * Who has had the premium trial: one row per account (`user:<id>`) and per Telegram id
 * (`telegram:<id>`), so a second account of the same person gets no second trial.
 */
export const premiumTrialClaims = pgTable('premium_trial_claims', {
  subject: text('subject').primaryKey(),
  userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
});
