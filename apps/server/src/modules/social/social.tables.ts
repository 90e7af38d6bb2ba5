import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriberId: bigint('subscriber_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_pair_unique').on(t.subscriberId, t.authorId),
    index('subscriptions_author_idx').on(t.authorId, t.id),
    check('subscriptions_not_self', sql`${t.subscriberId} <> ${t.authorId}`),
  ],
);

/**
 * Profile counters, changed in the transaction of each subscription or publication. Kept apart
 * from `users` so they do not wake the session cache (its triggers fire on every users UPDATE).
 */
export const userCounters = pgTable(
  'user_counters',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscribersCount: integer('subscribers_count').notNull().default(0),
    subscriptionsCount: integer('subscriptions_count').notNull().default(0),
    postsCount: integer('posts_count').notNull().default(0),
  },
  (t) => [
    check(
      'user_counters_not_negative',
      sql`${t.subscribersCount} >= 0 AND ${t.subscriptionsCount} >= 0 AND ${t.postsCount} >= 0`,
    ),
  ],
);
