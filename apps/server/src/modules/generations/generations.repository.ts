import { and, desc, eq, getTableColumns, gte, inArray, like, lt, sql } from 'drizzle-orm';
import { GenerationStatus, type TGenerationStatus, type ToolSettings } from '@mirra/contracts';
import type { DbOrTx } from '../../shared/db/client.js';
import { jobsWithPayload } from '../../shared/jobs.js';
import { generations } from './generations.tables.js';
import { entitlements } from '../payments/payments.tables.js';
import { users } from '../users/users.tables.js';
import { statusesAllowedBefore } from './generations.models.js';

export type GenerationRow = typeof generations.$inferSelect;

/** What accepting a generation needs: the row to insert, the free tier's terms, the charge and the job. */
export interface AcceptGenerationInput {
  row: {
    uuid: string;
    createdAt: Date;
    userId: number;
    mode: string;
    prompt: string;
    guidance: number;
    seed: number;
    /** The person chose the seed; Repeat keeps only a chosen one. */
    seedFixed: boolean;
    style: string | null;
    durationSeconds: number | null;
    aspect: string | null;
    inputUploads: string[];
    modelUuid: string | null;
    postUuid: string | null;
    repeatOf: string | null;
    cost: number;
    engine: string;
    clientKey: string | null;
    clientRequestHash: string | null;
    settings: ToolSettings;
    setUuid: string | null;
    setIndex: number | null;
    setSize: number | null;
  };
  /**
   * The run this picture belongs to: what all of it costs, and whether this is its first picture,
   * which checks the free tier and the whole price for the run (the later ones come in with it).
   */
  run: { cost: number; first: boolean };
  freeTier: { localMidnight: Date; dailyFree: number; delaySeconds: number };
  charge: { kind: string; idempotencyKey: string };
  job: {
    identifier: string;
    /** Fields besides `generationId`, which the function adds once the row has its id. */
    payload: Record<string, unknown>;
    maxAttempts: number;
    premiumPriority: number;
    standardPriority: number;
  };
}

/** A row of `generations` as the driver returns it (column names), as the query builder would. */
function generationFromDatabaseRow(raw: Record<string, unknown>): GenerationRow {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(generations))) {
    const value = raw[column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as GenerationRow;
}

/** Why mirra_accept_generation refused, with the figure the answer needs. */
export type AcceptRefusal =
  | { code: 'generations.idempotency_key_reused' }
  | { code: 'generations.rate_limited'; waitSeconds: number }
  | { code: 'credits.insufficient'; balance: number };

/** Reads a refusal raised by mirra_accept_generation (ERRCODE P0001, the code as message). */
export function acceptRefusalOf(error: unknown): AcceptRefusal | null {
  const pgError = (error as { cause?: unknown }).cause ?? error;
  const { code, message, detail } = pgError as { code?: string; message?: string; detail?: string };
  if (code !== 'P0001') return null;
  if (message === 'generations.idempotency_key_reused') return { code: message };
  if (message === 'generations.rate_limited') return { code: message, waitSeconds: Number(detail) };
  if (message === 'credits.insufficient') return { code: message, balance: Number(detail) };
  return null;
}

export const generationsRepository = {
  /**
   * Accepts a generation in one statement (mirra_accept_generation, see its migration's comments):
   * returns the new row, or the one an earlier request with the same Idempotency-Key made; a
   * refusal is thrown (read it with acceptRefusalOf) and nothing is written.
   */
  async accept(db: DbOrTx, input: AcceptGenerationInput): Promise<GenerationRow> {
    const { row, run, freeTier, charge, job } = input;
    const result = await db.execute<Record<string, unknown>>(
      sql`SELECT * FROM mirra_accept_generation(
        ${row.userId}::bigint, ${row.uuid}::uuid, ${row.createdAt.toISOString()}::timestamptz,
        ${freeTier.localMidnight.toISOString()}::timestamptz, ${freeTier.dailyFree}::int,
        ${freeTier.delaySeconds}::int, ${row.mode}::text, ${row.prompt}::text, ${row.guidance}::real,
        ${row.seed}::int, ${row.seedFixed}::boolean, ${row.style}::text, ${row.durationSeconds}::int, ${row.aspect}::text,
        ${`{${row.inputUploads.join(',')}}`}::uuid[], ${row.modelUuid}::uuid, ${row.postUuid}::uuid,
        ${row.repeatOf}::uuid, ${row.cost}::int, ${row.engine}::text, ${row.clientKey}::text,
        ${row.clientRequestHash}::text, ${charge.kind}::text, ${charge.idempotencyKey}::text,
        ${job.identifier}::text, ${JSON.stringify(job.payload)}::jsonb, ${job.maxAttempts}::int,
        ${job.premiumPriority}::int, ${job.standardPriority}::int, ${JSON.stringify(row.settings)}::jsonb,
        ${row.setUuid}::uuid, ${row.setIndex}::int, ${row.setSize}::int, ${run.cost}::int, ${run.first}::boolean
      )`,
    );
    return generationFromDatabaseRow(result.rows[0]!);
  },

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

  /** The generations of a set (pictures of one run), in their order. */
  async listSet(db: DbOrTx, userId: number, setUuid: string): Promise<GenerationRow[]> {
    return db
      .select()
      .from(generations)
      .where(and(eq(generations.userId, userId), eq(generations.setUuid, setUuid)))
      .orderBy(generations.setIndex);
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

  /**
   * Back to the queue to be made again for too little likeness, only by the first finisher of that
   * picture: its retry count must be what the finisher read (a late second finisher of the same
   * picture finds it raised and leaves the running retry alone).
   */
  async requeueForLikeness(
    db: DbOrTx,
    id: number,
    at: Date,
    retriesRead: number,
    changes: Partial<typeof generations.$inferInsert>,
  ): Promise<GenerationRow | undefined> {
    const [row] = await db
      .update(generations)
      .set({ ...changes, likenessRetries: retriesRead + 1, status: GenerationStatus.IN_QUEUE, updatedAt: at })
      .where(
        and(
          eq(generations.id, id),
          eq(generations.likenessRetries, retriesRead),
          inArray(generations.status, statusesAllowedBefore(GenerationStatus.IN_QUEUE)),
        ),
      )
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

  /**
   * The free tier's decision for the user at `now` (mirra_free_tier, whose migration states the
   * rule): how long they must wait (0 = go ahead) and where the day it counts began. The accept
   * makes the same call under the balance lock, so /price/ announces what a create would do.
   */
  async freeTier(
    db: DbOrTx,
    userId: number,
    terms: { now: Date; localMidnight: Date; dailyFree: number; delaySeconds: number },
  ): Promise<{ waitSeconds: number; dayStart: Date }> {
    const result = await db.execute<{ wait_seconds: number; day_start: Date | string }>(
      sql`SELECT wait_seconds, day_start FROM mirra_free_tier(
        ${userId}::bigint, ${terms.now.toISOString()}::timestamptz,
        ${terms.localMidnight.toISOString()}::timestamptz, ${terms.dailyFree}::int,
        ${terms.delaySeconds}::int
      )`,
    );
    const row = result.rows[0]!;
    return { waitSeconds: row.wait_seconds, dayStart: new Date(row.day_start) };
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
