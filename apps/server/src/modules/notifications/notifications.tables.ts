import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { TNotificationData } from '../../shared/db/json-columns.js';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/**
 * In-app notifications (new subscriber, royalty, model ready, generation finished, post removed).
 * Written inside the transaction of the event they tell of; `dedupe_key` makes a retried event
 * (a job run twice) notify once.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    data: jsonb('data')
      .$type<TNotificationData>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    dedupeKey: text('dedupe_key').unique(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /**
     * False when the user turned in-app notices of this kind off: the row still records that the
     * event was told (its dedupe key, the bot and email deliveries) but the list never shows it.
     */
    inApp: boolean('in_app').notNull().default(true),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    // The menu badge counts only unread ones.
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} IS NULL`),
  ],
);

/**
 * A user's choice per notice category and channel (`in_app`, `telegram`, `email`). Only choices a
 * user made are stored; a missing row means the default (NOTIFICATION_DEFAULTS in the contracts).
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    category: text('category').notNull(),
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.category, t.channel] })],
);
