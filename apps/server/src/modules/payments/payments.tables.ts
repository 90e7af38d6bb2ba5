import { PAYMENT_ORDER_STATUSES } from '@mirra/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/** Paid features with an end date: `premium` (subscription) and `unlimited` (no free-tier pause). */
export const entitlements = pgTable(
  'entitlements',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['premium', 'unlimited'] }).notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('entitlements_user_kind').on(t.userId, t.kind)],
);

/**
 * Orders for credit packs and the unlimited package. The price, currency and what the order grants
 * are fixed by the server when it is created; the payment provider's id is unique, so a payment
 * is applied to one order only, once.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    product: text('product').notNull(),
    /** The payment service: test, yookassa, stripe, cryptomus, stars. */
    provider: text('provider').notNull(),
    /** The way to pay the buyer picked (`yookassa_sberbank`, `stripe`, …). */
    method: text('method').notNull().default('test'),
    /** The first payment of a provider-run subscription (Stripe, Stars): renewals every this many days. */
    recurringDays: integer('recurring_days'),
    /** Stripe `sub_…`, or the first Stars payment's charge id of a Stars subscription. */
    providerSubscriptionId: text('provider_subscription_id'),
    status: text('status', { enum: PAYMENT_ORDER_STATUSES }).notNull().default('pending'),
    /** In minor units of the currency (kopecks, cents). */
    amount: integer('amount').notNull(),
    /** ISO 4217 numeric: 643 roubles, 840 US dollars. */
    currency: integer('currency').notNull(),
    credits: integer('credits').notNull().default(0),
    unlimitedDays: integer('unlimited_days').notNull().default(0),
    /**
     * What the order pays for: a catalogue `product` (credits, unlimited), a `subscription` period
     * (`purpose_ref` is the subscription's uuid) or a `wallet_topup`.
     */
    purpose: text('purpose', { enum: ['product', 'subscription', 'wallet_topup'] })
      .notNull()
      .default('product'),
    purposeRef: text('purpose_ref'),
    /** The buyer agreed that the payment method is kept for renewals (shown on the checkout). */
    saveMethod: boolean('save_method').notNull().default(false),
    /** The provider's id of the payment method this order saved, or charged without the buyer. */
    savedMethodId: text('saved_method_id'),
    /**
     * Where the 54-FZ receipt goes (YooKassa): the account's email, or the one typed at checkout
     * when the account has none (a Telegram-only account); renewals keep the first order's.
     */
    receiptEmail: text('receipt_email'),
    /** When the buyer's bank opened a dispute (chargeback) of this payment; null: never disputed. */
    disputedAt: timestamp('disputed_at', { withTimezone: true }),
    /** The app path the buyer returns to after the checkout. */
    returnPath: text('return_path').notNull(),
    providerPaymentId: text('provider_payment_id').unique(),
    offerVersion: text('offer_version').notNull(),
    privacyVersion: text('privacy_version').notNull(),
    consentedAt: timestamp('consented_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** Credits of the purchase taken back on refund, and those already spent (not recoverable). */
    creditsTakenBack: integer('credits_taken_back').notNull().default(0),
    creditsUnrecovered: integer('credits_unrecovered').notNull().default(0),
    /** Minor units the provider has refunded so far (partial refunds add up; `amount`: wholly refunded). */
    amountRefunded: integer('amount_refunded').notNull().default(0),
    /**
     * A later period a provider charged by itself (Stripe invoice, Stars renewal): the uuid of the
     * subscription's first order. Each such period is an order of its own, refunded on its own.
     */
    renewalOf: uuid('renewal_of'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    index('payment_orders_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('payment_orders_provider_subscription_idx').on(t.providerSubscriptionId),
  ],
);

/**
 * Every provider event applied, by the provider's own id of it: a replayed or duplicated
 * notification finds its row and changes nothing.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    orderUuid: uuid('order_uuid')
      .notNull()
      .references(() => paymentOrders.uuid, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/** The price region each person chose ('ru' pays in roubles, 'intl' in dollars); none: by country. */
export const paymentRegions = pgTable('payment_regions', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  region: text('region', { enum: ['ru', 'intl'] }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
