import { and, count, desc, eq, gte, inArray, like, lt, max, sql } from 'drizzle-orm';
import { GenerationStatus, type TGenerationStatus } from '@mirra/contracts';
import type { DbOrTx } from '../../shared/db/client.js';
import { jobsWithPayload } from '../../shared/jobs.js';
import { entitlements, generations, users } from '../../shared/db/schema.js';
import { statusesAllowedBefore } from './generations.models.js';

export type GenerationRow = typeof generations.$inferSelect;

export const generationsRepository = {
  async insert(tx: DbOrTx, values: typeof generations.$inferInsert): Promise<GenerationRow> {
    const [row] = await tx.insert(generations).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, id: number): Promise<GenerationRow | undefined> {
    const [row] = await db.select().from(generations).where(eq(generations.id, id));
    return row;
  },

  /** The generation a request with this Idempotency-Key already made, if any. */
  /** The generation holding a job of `provider` whose stored id starts with `jobIdPrefix`. */
  async findByProviderJob(
    db: DbOrTx,
    provider: string,
    jobIdPrefix: string,
  ): Promise<GenerationRow | undefined> {
    return db.query.generations.findFirst({
      where: and(eq(generations.provider, provider), like(generations.providerJobId, `${jobIdPrefix}%`)),
    });
  },

  async findByClientKey(db: DbOrTx, userId: number, clientKey: string): Promise<GenerationRow | undefined> {
    const [row] = await db
      .select()
      .from(generations)
      .where(and(eq(generations.userId, userId), eq(generations.clientKey, clientKey)));
    return row;
  },

  async findByUuidForUser(db: DbOrTx, uuid: string, userId: number): Promise<GenerationRow | undefined> {
    const [row] = await db
      .select()
      .from(generations)
      .where(and(eq(generations.uuid, uuid), eq(generations.userId, userId)));
    return row;
  },

  /**
   * Moves a generation to `to` only if its current status allows it (the transition table), in one
   * conditional UPDATE: of two racing workers or a worker and the reconciler, exactly one wins.
   */
  async transition(
    db: DbOrTx,
    id: number,
    at: Date,
    to: TGenerationStatus,
    changes: Partial<typeof generations.$inferInsert> = {},
  ): Promise<GenerationRow | undefined> {
    const [row] = await db
      .update(generations)
      .set({ ...changes, status: to, updatedAt: at })
      .where(and(eq(generations.id, id), inArray(generations.status, statusesAllowedBefore(to))))
      .returning();
    return row;
  },

  async setProgress(db: DbOrTx, id: number, at: Date, progress: number): Promise<void> {
    await db
      .update(generations)
      .set({ progress, updatedAt: at })
      .where(
        and(
          eq(generations.id, id),
          sql`${generations.progress} < ${progress}`,
          sql`${generations.status} IN (0, 30, 60)`,
        ),
      );
  },

  /** Where the provider's queue has it (null: not waiting there); only while it runs. */
  async setQueuePosition(db: DbOrTx, id: number, at: Date, queuePosition: number | null): Promise<void> {
    await db
      .update(generations)
      .set({ queuePosition, updatedAt: at })
      .where(
        and(
          eq(generations.id, id),
          sql`${generations.queuePosition} IS DISTINCT FROM ${queuePosition}`,
          sql`${generations.status} IN (0, 30, 60)`,
        ),
      );
  },

  async update(
    db: DbOrTx,
    id: number,
    at: Date,
    changes: Partial<typeof generations.$inferInsert>,
  ): Promise<void> {
    await db
      .update(generations)
      .set({ ...changes, updatedAt: at })
      .where(eq(generations.id, id));
  },

  async lockByUuid(tx: DbOrTx, uuid: string): Promise<GenerationRow | undefined> {
    const [row] = await tx.select().from(generations).where(eq(generations.uuid, uuid)).for('update');
    return row;
  },

  /** The latest ERROR and FAILED generations with their owner's uuid, newest first. */
  async listFailedForStaff(db: DbOrTx, limit: number) {
    const rows = await db
      .select({ generation: generations, userUuid: users.uuid })
      .from(generations)
      .innerJoin(users, eq(users.id, generations.userId))
      .where(inArray(generations.status, [GenerationStatus.ERROR, GenerationStatus.FAILED]))
      .orderBy(desc(generations.id))
      .limit(limit);
    return rows.map((row) => ({ ...row.generation, userUuid: row.userUuid }));
  },

  /** One generation with its owner's uuid, as staff see it. */
  async findForStaff(db: DbOrTx, id: number) {
    const [row] = await db
      .select({ generation: generations, userUuid: users.uuid })
      .from(generations)
      .innerJoin(users, eq(users.id, generations.userId))
      .where(eq(generations.id, id));
    return row ? { ...row.generation, userUuid: row.userUuid } : undefined;
  },

  /** A person's latest generations with their uuid, newest first. */
  async listForStaff(db: DbOrTx, userId: number, limit: number) {
    const rows = await db
      .select({ generation: generations, userUuid: users.uuid })
      .from(generations)
      .innerJoin(users, eq(users.id, generations.userId))
      .where(eq(generations.userId, userId))
      .orderBy(desc(generations.id))
      .limit(limit);
    return rows.map((row) => ({ ...row.generation, userUuid: row.userUuid }));
  },

  /** Newest first, keyset-paginated by id. */
  async listForUser(db: DbOrTx, userId: number, beforeId: number | null, limit: number) {
    return db
      .select()
      .from(generations)
      .where(and(eq(generations.userId, userId), beforeId ? lt(generations.id, beforeId) : undefined))
      .orderBy(desc(generations.id))
      .limit(limit);
  },

  /** For the free tier: how many generations since a moment, and when the last one started. */
  async usageSince(db: DbOrTx, userId: number, since: Date) {
    const [row] = await db
      .select({ started: count(), last: max(generations.createdAt) })
      .from(generations)
      .where(and(eq(generations.userId, userId), gte(generations.createdAt, since)));
    return { generatedToday: row?.started ?? 0, lastGenerationAt: row?.last ?? null };
  },

  /** Start of the user's current free-tier day, as last recorded (null before any generation). */
  async freeDayStartedAt(db: DbOrTx, userId: number): Promise<Date | null> {
    const [row] = await db
      .select({ startedAt: users.freeDayStartedAt })
      .from(users)
      .where(eq(users.id, userId));
    return row?.startedAt ?? null;
  },

  /** Writes only a change: an update of `users` also drops every process's cached session of the user. */
  async recordFreeDayStart(tx: DbOrTx, userId: number, startedAt: Date): Promise<void> {
    await tx
      .update(users)
      .set({ freeDayStartedAt: startedAt })
      .where(
        and(
          eq(users.id, userId),
          sql`${users.freeDayStartedAt} IS DISTINCT FROM ${startedAt.toISOString()}::timestamptz`,
        ),
      );
  },

  async hasUnlimited(db: DbOrTx, userId: number, now: Date): Promise<boolean> {
    const [row] = await db
      .select({ kind: entitlements.kind })
      .from(entitlements)
      .where(and(eq(entitlements.userId, userId), gte(entitlements.until, now)))
      .limit(1);
    return Boolean(row);
  },

  /** Whether the user's premium subscription is running (its generations queue ahead). */
  async hasPremium(db: DbOrTx, userId: number, now: Date): Promise<boolean> {
    const [row] = await db
      .select({ kind: entitlements.kind })
      .from(entitlements)
      .where(
        and(eq(entitlements.userId, userId), eq(entitlements.kind, 'premium'), gte(entitlements.until, now)),
      )
      .limit(1);
    return Boolean(row);
  },

  /** IN_PROGRESS → IN_QUEUE, only from IN_PROGRESS (a run that died with its worker). */
  async requeueInProgress(db: DbOrTx, id: number, at: Date): Promise<GenerationRow | undefined> {
    const [row] = await db
      .update(generations)
      .set({ status: GenerationStatus.IN_QUEUE, updatedAt: at })
      .where(and(eq(generations.id, id), eq(generations.status, GenerationStatus.IN_PROGRESS)))
      .returning();
    return row;
  },

  /**
   * IN_PROGRESS generations that no job of `jobName` can run any more: none of their jobs is
   * locked (running) or has attempts left; the job is gone, or failed for good.
   */
  async findInProgressWithoutRunnableJob(
    db: DbOrTx,
    jobName: string,
    limit: number,
  ): Promise<GenerationRow[]> {
    return db
      .select()
      .from(generations)
      .where(
        and(
          eq(generations.status, GenerationStatus.IN_PROGRESS),
          sql`NOT EXISTS (
            SELECT 1 FROM ${jobsWithPayload} AS job
            WHERE job.task_identifier = ${jobName}
              AND job.payload->>'generationId' = ${generations.id}::text
              AND (job.locked_at IS NOT NULL OR job.attempts < job.max_attempts)
          )`,
        ),
      )
      .orderBy(generations.id)
      .limit(limit);
  },

  /** Unfinished generations whose last change is older than `before` (index-backed). */
  async findStale(db: DbOrTx, before: Date, limit: number): Promise<GenerationRow[]> {
    return db
      .select()
      .from(generations)
      .where(and(sql`${generations.status} IN (0, 30, 60)`, lt(generations.updatedAt, before)))
      .orderBy(generations.updatedAt)
      .limit(limit);
  },
};
