import { POST_STATUSES } from '@mirra/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { StoredPostImage } from '../../shared/db/json-columns.js';
import { createdAt } from '../../shared/db/columns.js';
import { generations } from '../generations/generations.tables.js';
import { users } from '../users/users.tables.js';

/**
 * What an author has earned from generations made from their posts but not yet received: the
 * fraction of a credit (in hundredths) left over after paying whole credits, carried to the next
 * use so that no spend's share is lost.
 */
export const royaltyCarries = pgTable(
  'royalty_carries',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    hundredths: integer('hundredths').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('royalty_carries_below_one_credit', sql`${t.hundredths} >= 0 AND ${t.hundredths} < 100`)],
);

/** A PostgreSQL full-text document (drizzle has no built-in type for it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A published (or draft) result with its prompt. The recipe (mode, prompt, settings, seed) and the
 * result's files are copied from the generation when it is posted, so feeds read one row per post
 * and the author's private inputs (source photos) are never part of it. Counters are kept in the
 * transaction of each change, so lists never count rows; `score` (recommended tab) is computed
 * from them by the `posts_score` trigger (migration 0009_posts_score, the same formula as posts.models.ts).
 */
export const posts = pgTable(
  'posts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    generationId: bigint('generation_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => generations.id, { onDelete: 'cascade' }),
    /** The generation's public id, shown to the author only. */
    generationUuid: uuid('generation_uuid').notNull(),
    status: text('status', { enum: POST_STATUSES }).notNull().default('draft'),
    title: text('title').notNull().default(''),
    prompt: text('prompt').notNull().default(''),
    mode: text('mode').notNull(),
    guidance: real('guidance').notNull(),
    style: text('style'),
    seed: integer('seed').notNull(),
    durationSeconds: integer('duration_seconds'),
    /** The result's original and WebP variants (storage keys and sizes), as generations.result. */
    image: jsonb('image').$type<StoredPostImage>().notNull(),
    savesCount: integer('saves_count').notNull().default(0),
    viewsCount: integer('views_count').notNull().default(0),
    repeatsCount: integer('repeats_count').notNull().default(0),
    remixesCount: integer('remixes_count').notNull().default(0),
    /** Distinct people who reported it and are not yet answered by a review. */
    reportsCount: integer('reports_count').notNull().default(0),
    score: doublePrecision('score').notNull().default(0),
    /** Title and prompt for full-text search: `simple` (every language, unstemmed) plus the stemmers PostgreSQL has. */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(
        sql`to_tsvector('simple'::regconfig, title || ' ' || prompt) || to_tsvector('english'::regconfig, title || ' ' || prompt) || to_tsvector('russian'::regconfig, title) || to_tsvector('german'::regconfig, title)`,
      ),
    /**
     * Nested time buckets of the publication day (1, 8, 64, … days), set by the `posts_score`
     * trigger: search walks them newest first inside one GIN index with `search` (posts_search_idx,
     * migration 0009_posts_score), so its cost follows the matches it returns, not how common a word is.
     */
    searchBuckets: integer('search_buckets')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    createdAt: createdAt(),
    // Millisecond precision: keyset cursors carry it through JavaScript's Date exactly.
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Each feed is one partial index in its own order; pages continue from a (key, id) cursor.
    index('posts_new_idx')
      .on(t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'published'`),
    index('posts_recommended_idx')
      .on(t.score.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'published'`),
    index('posts_author_published_idx')
      .on(t.userId, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'published'`),
    index('posts_user_idx').on(t.userId, t.id),
    check('posts_published_at', sql`${t.status} = 'draft' OR ${t.publishedAt} IS NOT NULL`),
    // posts_search_idx, GIN (search, search_buckets), is created in migration 0009_posts_score.
  ],
);

/**
 * Results shared by link before (or instead of) being published: the token is the share page's
 * only key. Stopping sharing keeps the row, revoked, so its link answers "no longer shared"
 * rather than "not found"; sharing again makes a new token. One live token per generation.
 */
export const resultShares = pgTable(
  'result_shares',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull().unique(),
    generationId: bigint('generation_id', { mode: 'number' })
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('result_shares_live_idx')
      .on(t.generationId)
      .where(sql`${t.revokedAt} IS NULL`),
  ],
);

/** Who saved which post; the identity orders the saved tab by when each was saved. */
export const postSaves = pgTable(
  'post_saves',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('post_saves_user_post_unique').on(t.userId, t.postId),
    index('post_saves_user_idx').on(t.userId, t.id.desc().nullsFirst()),
    index('post_saves_post_idx').on(t.postId),
  ],
);

/** One row per person, post and day: a view counts once a day however often the page is opened. */
export const postViews = pgTable(
  'post_views',
  {
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.userId, t.day] }),
    // The hourly clean-up drops days that can no longer be counted again.
    index('post_views_day_idx').on(t.day),
  ],
);

export const postReports = pgTable(
  'post_reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: createdAt(),
    /** Set by a review; unresolved reports are what hides a post. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('post_reports_post_user_unique').on(t.postId, t.userId)],
);

/**
 * Generations started from a post (repeat or remix), written in the generation's own creating
 * transaction: its completion pays the post's author a royalty and counts the use.
 */
export const postGenerations = pgTable(
  'post_generations',
  {
    generationId: bigint('generation_id', { mode: 'number' })
      .primaryKey()
      .references(() => generations.id, { onDelete: 'cascade' }),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['repeat', 'remix'] }).notNull(),
    /** Set once, by the completion that paid the royalty and counted the use. */
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [index('post_generations_post_idx').on(t.postId)],
);
