import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/** Web sign-in through the bot: the browser holds `uuid`, the t.me link carries the secret key. */
export const telegramAuthKeys = pgTable(
  'telegram_auth_keys',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    /** sha256 of the key in the link; the key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** Set when a signed-in user asked for the key: pressing Start links Telegram to them. */
    requestedByUserId: bigint('requested_by_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    /** The partner link the browser had followed: an account created for this key is attributed to it. */
    referralCode: text('referral_code'),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    status: text('status', { enum: ['pending', 'confirmed', 'consumed'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('telegram_auth_keys_expires_idx').on(t.expiresAt)],
);

/** Bot updates already handled; Telegram re-delivers on any non-2xx, so each is applied once. */
export const telegramUpdates = pgTable('telegram_updates', {
  updateId: bigint('update_id', { mode: 'number' }).primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
