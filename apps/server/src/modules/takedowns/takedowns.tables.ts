import { TAKEDOWN_CATEGORIES } from '@mirra/contracts';
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { posts } from '../posts/posts.tables.js';
import { users } from '../users/users.tables.js';

/**
 * Requests to remove a post, from anyone, signed in or not. The row outlives the post (its id is
 * cleared, its uuid kept) as the record of what was asked, when, and how it was answered. An
 * urgent category has `deadline_at` = received_at + 48 hours, set once when it is received.
 */
export const takedownRequests = pgTable(
  'takedown_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    postId: bigint('post_id', { mode: 'number' }).references(() => posts.id, { onDelete: 'set null' }),
    postUuid: uuid('post_uuid').notNull(),
    category: text('category', { enum: TAKEDOWN_CATEGORIES }).notNull(),
    contactEmail: text('contact_email').notNull(),
    details: text('details').notNull().default(''),
    /** Who sent it, when signed in. */
    requesterId: bigint('requester_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    deadlineAt: timestamp('deadline_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    outcome: text('outcome', { enum: ['removed', 'rejected'] }),
  },
  (t) => [
    index('takedown_requests_open_idx')
      .on(t.postId)
      .where(sql`${t.resolvedAt} IS NULL`),
    index('takedown_requests_post_uuid_idx').on(t.postUuid),
  ],
);
