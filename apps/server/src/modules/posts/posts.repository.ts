import { and, desc, eq, getTableColumns, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../shared/db/client.js';
import { dayNumber, nextSearchLevel, SEARCH_BUCKET_LEVELS, searchWindow } from './posts.models.js';
import { postGenerations, postReports, posts, postSaves, postViews, royaltyCarries } from './posts.tables.js';
import { subscriptions } from '../social/social.tables.js';
import { takedownRequests } from '../takedowns/takedowns.tables.js';
import { users } from '../users/users.tables.js';
import { generations } from '../generations/generations.tables.js';

export type PostRow = Omit<typeof posts.$inferSelect, 'search'>;
export type NewPostRow = typeof posts.$inferInsert;

// Everything but the search document, which nobody reads back.
const { search: _search, ...postColumns } = getTableColumns(posts);
const listColumns = {
  ...postColumns,
  authorUuid: users.uuid,
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  authorUsername: users.username,
  authorAvatarUrl: users.telegramPhotoUrl,
};
export type PostWithAuthor = PostRow & {
  authorUuid: string;
  authorFirstName: string;
  authorLastName: string;
  authorUsername: string;
  authorAvatarUrl: string | null;
};

/** A page of posts with the sort key of each row, for the next cursor. */
export type KeyedPost = PostWithAuthor & { sortKey: number };

// A literal (not a parameter), so the planner matches the feeds' partial indexes.
const isPublished = sql`${posts.status} = 'published'`;

/**
 * Full-text match over title and prompt: each word of the query in any of its forms (as typed, or
 * stemmed in English, Russian or German), with web-search syntax (see mirra_search_query, migration
 * 0009_posts_score): a Russian or German title, an English prompt, exact words in Ukrainian, Kazakh or
 * Azerbaijani.
 */
const matches = (q: string) => sql`${posts.search} @@ mirra_search_query(${q})`;

const publishedBefore = (cursor: { key: number; id: number } | null): SQL | undefined =>
  cursor
    ? sql`(${posts.publishedAt}, ${posts.id}) < (${new Date(cursor.key).toISOString()}::timestamptz, ${cursor.id}::bigint)`
    : undefined;

const publishedKey = sql<number>`(extract(epoch from ${posts.publishedAt}) * 1000)::float8`;

async function newestPublishedMs(db: DbOrTx): Promise<number | null> {
  const [row] = await db
    .select({ at: publishedKey })
    .from(posts)
    .where(isPublished)
    .orderBy(desc(posts.publishedAt), desc(posts.id))
    .limit(1);
  return row?.at ?? null;
}

/** The rows of a page found by key, with their authors, by primary key, in the order found. */
async function rowsInOrder(db: DbOrTx, keys: Array<{ id: number; sortKey: number }>): Promise<KeyedPost[]> {
  if (!keys.length) return [];
  const rows = await db
    .select(listColumns)
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
    .where(
      inArray(
        posts.id,
        keys.map((key) => key.id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return keys.flatMap((key) => {
    const row = byId.get(key.id);
    return row ? [{ ...row, sortKey: key.sortKey }] : [];
  });
}

export interface ListOptions {
  cursor: { key: number; id: number } | null;
  q?: string;
  limit: number;
}

export const postsRepository = {
  /** The new post, or undefined when the generation already has one (a double submit). */
  async insert(tx: DbOrTx, values: NewPostRow): Promise<PostRow | undefined> {
    const [row] = await tx
      .insert(posts)
      .values(values)
      .onConflictDoNothing({ target: posts.generationId })
      .returning(postColumns);
    return row;
  },

  async findByUuid(db: DbOrTx, uuid: string): Promise<PostWithAuthor | undefined> {
    const [row] = await db
      .select(listColumns)
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(eq(posts.uuid, uuid));
    return row;
  },

  async findByGenerationId(db: DbOrTx, generationId: number): Promise<PostWithAuthor | undefined> {
    const [row] = await db
      .select(listColumns)
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(eq(posts.generationId, generationId));
    return row;
  },

  /**
   * Moves a post between statuses only from the ones given, in one conditional UPDATE, so two
   * racing requests cannot both count a publication. Returns the row when it changed.
   */
  async changeStatus(
    tx: DbOrTx,
    id: number,
    at: Date,
    from: Array<PostRow['status']>,
    to: PostRow['status'],
    changes: Partial<NewPostRow> = {},
  ): Promise<PostRow | undefined> {
    const [row] = await tx
      .update(posts)
      .set({ ...changes, status: to, updatedAt: at })
      .where(and(eq(posts.id, id), inArray(posts.status, from)))
      .returning(postColumns);
    return row;
  },

  async update(tx: DbOrTx, id: number, at: Date, changes: Partial<NewPostRow>): Promise<PostRow | undefined> {
    const [row] = await tx
      .update(posts)
      .set({ ...changes, updatedAt: at })
      .where(eq(posts.id, id))
      .returning(postColumns);
    return row;
  },

  /** Adds to one counter (the score trigger follows); never below zero. */
  async addToCounter(
    tx: DbOrTx,
    id: number,
    counter: 'savesCount' | 'viewsCount' | 'repeatsCount' | 'remixesCount' | 'reportsCount',
    delta: number,
  ): Promise<PostRow | undefined> {
    const column = posts[counter];
    const [row] = await tx
      .update(posts)
      .set({ [counter]: sql`greatest(0, ${column} + ${delta})` })
      .where(eq(posts.id, id))
      .returning(postColumns);
    return row;
  },

  /** Newest first (index posts_new_idx); searches go through `search`. */
  listNew(db: DbOrTx, options: ListOptions): Promise<KeyedPost[]> {
    return db
      .select({ ...listColumns, sortKey: publishedKey })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(and(isPublished, publishedBefore(options.cursor)))
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(options.limit);
  },

  /**
   * Search results, newest first. Looks in windows of time reaching back from the cursor (see
   * searchWindow and nextSearchLevel), each a "words AND bucket" lookup in posts_search_idx, until
   * the page is full. The order is by the bucket's day first, which no btree index has, and
   * sequential scans are off for the transaction: the planner cannot choose to walk the whole
   * feed in time order hoping to meet a rare word soon (its estimates for unknown words are far
   * off), so every lookup stays inside the GIN index.
   */
  async search(db: Db, options: ListOptions & { q: string }): Promise<KeyedPost[]> {
    const found = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      let cursor = options.cursor;
      const upperMs = cursor ? cursor.key : await newestPublishedMs(tx);
      if (upperMs === null) return [];
      const day = dayNumber(upperMs);
      const keys: Array<{ id: number; sortKey: number }> = [];
      for (let level = 0; level < SEARCH_BUCKET_LEVELS && keys.length < options.limit;) {
        const { buckets } = searchWindow(level, day);
        const rows = await tx
          .select({ id: posts.id, sortKey: publishedKey })
          .from(posts)
          .where(
            and(
              isPublished,
              matches(options.q),
              sql`${posts.searchBuckets} && ${`{${buckets.join(',')}}`}::integer[]`,
              publishedBefore(cursor),
            ),
          )
          .orderBy(sql`${posts.searchBuckets}[1] DESC`, desc(posts.publishedAt), desc(posts.id))
          .limit(options.limit - keys.length);
        keys.push(...rows);
        // Everything in this window below the cursor is now returned: go on below the last one.
        const last = keys.at(-1);
        if (last) cursor = { key: last.sortKey, id: last.id };
        level = nextSearchLevel(level, { found: keys.length, wanted: options.limit, upperMs });
      }
      return keys;
    });
    return rowsInOrder(db, found);
  },

  /** Highest score first (index posts_recommended_idx); searches go through `search`. */
  listRecommended(db: DbOrTx, options: ListOptions): Promise<KeyedPost[]> {
    const { cursor } = options;
    return db
      .select({ ...listColumns, sortKey: posts.score })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(
        and(
          isPublished,
          cursor
            ? sql`(${posts.score}, ${posts.id}) < (${cursor.key}::float8, ${cursor.id}::bigint)`
            : undefined,
          options.q ? matches(options.q) : undefined,
        ),
      )
      .orderBy(desc(posts.score), desc(posts.id))
      .limit(options.limit);
  },

  /** One author's published posts, newest first (index posts_author_published_idx). */
  listByAuthor(db: DbOrTx, authorId: number, options: ListOptions): Promise<KeyedPost[]> {
    return db
      .select({ ...listColumns, sortKey: publishedKey })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(
        and(
          eq(posts.userId, authorId),
          isPublished,
          publishedBefore(options.cursor),
          options.q ? matches(options.q) : undefined,
        ),
      )
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(options.limit);
  },

  /** My drafts and hidden posts, newest first (index posts_user_idx). */
  listDrafts(db: DbOrTx, authorId: number, options: ListOptions): Promise<KeyedPost[]> {
    return db
      .select({ ...listColumns, sortKey: sql<number>`${posts.id}::float8` })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(
        and(
          eq(posts.userId, authorId),
          sql`${posts.status} <> 'published'`,
          options.cursor ? lt(posts.id, options.cursor.id) : undefined,
          options.q ? matches(options.q) : undefined,
        ),
      )
      .orderBy(desc(posts.id))
      .limit(options.limit);
  },

  /** My saved posts, last saved first (index post_saves_user_idx); unpublished ones drop out. */
  listSaved(db: DbOrTx, userId: number, options: ListOptions): Promise<KeyedPost[]> {
    return db
      .select({ ...listColumns, sortKey: sql<number>`${postSaves.id}::float8` })
      .from(postSaves)
      .innerJoin(posts, eq(posts.id, postSaves.postId))
      .innerJoin(users, eq(users.id, posts.userId))
      .where(
        and(
          eq(postSaves.userId, userId),
          options.cursor ? lt(postSaves.id, options.cursor.key) : undefined,
          isPublished,
          options.q ? matches(options.q) : undefined,
        ),
      )
      .orderBy(desc(postSaves.id))
      .limit(options.limit);
  },

  /**
   * Posts of the people I follow, newest first. Each followed author contributes at most one
   * page of their newest posts (a LATERAL index-only scan of posts_author_published_idx), so the
   * work is bounded by follows × page size, however many posts they have in all; only the page's
   * rows are then read, by primary key.
   */
  async listSubscribed(db: DbOrTx, userId: number, options: ListOptions): Promise<KeyedPost[]> {
    const latest = db
      .select({ id: posts.id, publishedAt: posts.publishedAt, sortKey: publishedKey.as('sort_key') })
      .from(posts)
      .where(
        and(
          sql`${posts.userId} = ${subscriptions.authorId}`,
          isPublished,
          publishedBefore(options.cursor),
          options.q ? matches(options.q) : undefined,
        ),
      )
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(options.limit)
      .as('p');
    const keys = await db
      .select({ id: latest.id, sortKey: latest.sortKey })
      .from(subscriptions)
      .crossJoinLateral(latest)
      .where(eq(subscriptions.subscriberId, userId))
      .orderBy(desc(latest.publishedAt), desc(latest.id))
      .limit(options.limit);
    return rowsInOrder(db, keys);
  },

  async savedAmong(db: DbOrTx, userId: number, postIds: number[]): Promise<Set<number>> {
    if (!postIds.length) return new Set();
    const rows = await db
      .select({ postId: postSaves.postId })
      .from(postSaves)
      .where(and(eq(postSaves.userId, userId), inArray(postSaves.postId, postIds)));
    return new Set(rows.map((row) => row.postId));
  },

  /** True when the save is new (the unique pair makes a second save a no-op). */
  async insertSave(tx: DbOrTx, userId: number, postId: number): Promise<boolean> {
    const rows = await tx
      .insert(postSaves)
      .values({ userId, postId })
      .onConflictDoNothing()
      .returning({ id: postSaves.id });
    return rows.length > 0;
  },

  async deleteSave(tx: DbOrTx, userId: number, postId: number): Promise<boolean> {
    const rows = await tx
      .delete(postSaves)
      .where(and(eq(postSaves.userId, userId), eq(postSaves.postId, postId)))
      .returning({ id: postSaves.id });
    return rows.length > 0;
  },

  /** True when this is the person's first view of the post on that day. */
  async insertView(tx: DbOrTx, postId: number, userId: number, day: string): Promise<boolean> {
    const rows = await tx
      .insert(postViews)
      .values({ postId, userId, day })
      .onConflictDoNothing()
      .returning({ postId: postViews.postId });
    return rows.length > 0;
  },

  async deleteViewsBefore(db: DbOrTx, day: string): Promise<void> {
    await db.delete(postViews).where(lt(postViews.day, day));
  },

  /**
   * The staff review queue: posts hidden by reports, and published posts with open reports. A post
   * with an open "not consented" report comes first, then the oldest open report.
   */
  /**
   * Hidden posts and published ones with open reports or takedown requests: those with an urgent
   * takedown first, soonest deadline first; then any takedown or "not consented" report; then
   * by their oldest open report or request.
   */
  async listReviewQueue(db: DbOrTx, limit: number): Promise<PostWithAuthor[]> {
    const open = sql`EXISTS (SELECT 1 FROM ${postReports} r WHERE r.post_id = ${posts.id} AND r.resolved_at IS NULL)`;
    const openTakedown = sql`EXISTS (SELECT 1 FROM ${takedownRequests} d WHERE d.post_id = ${posts.id} AND d.resolved_at IS NULL)`;
    const notConsented = sql`EXISTS (SELECT 1 FROM ${postReports} r WHERE r.post_id = ${posts.id} AND r.resolved_at IS NULL AND r.reason = 'not_consented')`;
    return db
      .select(listColumns)
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(
        sql`${posts.status} = 'hidden' OR (${posts.status} = 'published' AND (${open} OR ${openTakedown}))`,
      )
      .orderBy(
        sql`(SELECT min(d.deadline_at) FROM ${takedownRequests} d WHERE d.post_id = ${posts.id} AND d.resolved_at IS NULL) NULLS LAST`,
        sql`NOT (${openTakedown} OR ${notConsented})`,
        sql`LEAST((SELECT min(r.created_at) FROM ${postReports} r WHERE r.post_id = ${posts.id} AND r.resolved_at IS NULL), (SELECT min(d.received_at) FROM ${takedownRequests} d WHERE d.post_id = ${posts.id} AND d.resolved_at IS NULL)) NULLS LAST`,
        posts.id,
      )
      .limit(limit);
  },

  /** Open takedown requests of these posts, oldest first. */
  async listOpenTakedowns(db: DbOrTx, postIds: number[]) {
    if (postIds.length === 0) return [];
    return db
      .select({
        postId: takedownRequests.postId,
        category: takedownRequests.category,
        contactEmail: takedownRequests.contactEmail,
        details: takedownRequests.details,
        receivedAt: takedownRequests.receivedAt,
        deadlineAt: takedownRequests.deadlineAt,
      })
      .from(takedownRequests)
      .where(and(inArray(takedownRequests.postId, postIds), isNull(takedownRequests.resolvedAt)))
      .orderBy(takedownRequests.receivedAt, takedownRequests.id);
  },

  /** Open reports of these posts with their reporters, oldest first. */
  async listOpenReports(db: DbOrTx, postIds: number[]) {
    if (postIds.length === 0) return [];
    return db
      .select({
        postId: postReports.postId,
        reason: postReports.reason,
        comment: postReports.comment,
        createdAt: postReports.createdAt,
        reporterUuid: users.uuid,
      })
      .from(postReports)
      .innerJoin(users, eq(users.id, postReports.userId))
      .where(and(inArray(postReports.postId, postIds), isNull(postReports.resolvedAt)))
      .orderBy(postReports.createdAt, postReports.id);
  },

  async lockByUuid(tx: DbOrTx, uuid: string): Promise<PostWithAuthor | undefined> {
    const [row] = await tx
      .select(listColumns)
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      .where(eq(posts.uuid, uuid))
      .for('update', { of: posts });
    return row;
  },

  /** Marks a post's open reports answered; returns how many were open. */
  async resolveReports(tx: DbOrTx, postId: number, at: Date): Promise<number> {
    const rows = await tx
      .update(postReports)
      .set({ resolvedAt: at })
      .where(and(eq(postReports.postId, postId), isNull(postReports.resolvedAt)))
      .returning({ id: postReports.id });
    return rows.length;
  },

  /** Every post of a result made with the model, locked, in id order. */
  async lockMadeWithModel(tx: DbOrTx, modelUuid: string) {
    return tx
      .select({ id: posts.id, uuid: posts.uuid, userId: posts.userId, status: posts.status })
      .from(posts)
      .innerJoin(generations, eq(generations.id, posts.generationId))
      .where(eq(generations.modelUuid, modelUuid))
      .orderBy(posts.id)
      .for('update', { of: posts });
  },

  async deletePost(tx: DbOrTx, id: number): Promise<void> {
    await tx.delete(posts).where(eq(posts.id, id));
  },

  /** True when this person had not reported the post yet. */
  async insertReport(
    tx: DbOrTx,
    values: { postId: number; userId: number; reason: string; comment: string },
  ): Promise<boolean> {
    const rows = await tx
      .insert(postReports)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: postReports.id });
    return rows.length > 0;
  },

  async insertGenerationUse(
    tx: DbOrTx,
    values: { generationId: number; postId: number; kind: 'repeat' | 'remix' },
  ): Promise<void> {
    await tx.insert(postGenerations).values(values).onConflictDoNothing();
  },

  /**
   * Claims the settlement of a generation made from a post (royalty, use counter): returns the
   * post and its author the first time, and nothing ever after, whoever asks.
   */
  async claimGenerationUse(tx: DbOrTx, generationId: number, at: Date) {
    const [claimed] = await tx
      .update(postGenerations)
      .set({ settledAt: at })
      .where(and(eq(postGenerations.generationId, generationId), isNull(postGenerations.settledAt)))
      .returning({ kind: postGenerations.kind, postId: postGenerations.postId });
    if (!claimed) return undefined;
    const [post] = await tx
      .select({ uuid: posts.uuid, authorId: posts.userId })
      .from(posts)
      .where(eq(posts.id, claimed.postId));
    return post ? { ...claimed, postUuid: post.uuid, authorId: post.authorId } : undefined;
  },

  /**
   * The author's carried royalty in hundredths, with their carry row locked until the transaction
   * ends (created at 0 on first use), so concurrent settlements for one author queue up.
   */
  async lockRoyaltyCarry(tx: DbOrTx, userId: number): Promise<number> {
    const [row] = await tx
      .insert(royaltyCarries)
      .values({ userId })
      .onConflictDoUpdate({ target: royaltyCarries.userId, set: { userId: sql`excluded.user_id` } })
      .returning({ hundredths: royaltyCarries.hundredths });
    return row!.hundredths;
  },

  async setRoyaltyCarry(tx: DbOrTx, userId: number, hundredths: number, at: Date) {
    await tx
      .update(royaltyCarries)
      .set({ hundredths, updatedAt: at })
      .where(eq(royaltyCarries.userId, userId));
  },
};
