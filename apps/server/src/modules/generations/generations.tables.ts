import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ToolSettings } from '@mirra/contracts';
import type { StoredResult } from '../../shared/db/json-columns.js';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

export const generations = pgTable(
  'generations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mode: text('mode').notNull(),
    /** Task codes, fixed because clients compare them: NEW 0, IN_QUEUE 30, IN_PROGRESS 60, COMPLETED 100, ERROR -100, FAILED -200. */
    status: integer('status').notNull().default(0),
    progress: integer('progress').notNull().default(0),
    prompt: text('prompt').notNull().default(''),
    guidance: real('guidance').notNull(),
    seed: integer('seed').notNull(),
    /**
     * The person chose the seed (advanced settings): Repeat keeps it. A seed drawn at random is
     * drawn again on Repeat, so Repeat makes a new variation rather than the same picture.
     */
    seedFixed: boolean('seed_fixed').notNull().default(false),
    style: text('style'),
    durationSeconds: integer('duration_seconds'),
    /**
     * Frame shape: a video's (VIDEO_ASPECTS), or a picture's asked for (IMAGE_ASPECTS); null for a
     * picture that keeps its photo's shape.
     */
    aspect: text('aspect'),
    /** The tools' settings its mode reads (ToolSettings: upscale factor, background, mask, ...). */
    settings: jsonb('settings').$type<ToolSettings>().notNull().default({}),
    /**
     * Pictures made together by one run share a set: the uuid of its first generation, and this
     * one's place in it, of how many. Each is charged, run and refunded on its own; null for a run of one.
     */
    setUuid: uuid('set_uuid'),
    setIndex: integer('set_index'),
    setSize: integer('set_size'),
    inputUploads: uuid('input_uploads')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    modelUuid: uuid('model_uuid'),
    postUuid: uuid('post_uuid'),
    repeatOf: uuid('repeat_of'),
    cost: integer('cost').notNull(),
    engine: text('engine').notNull(),
    /**
     * Staff retried it on this one engine by hand: the job runs `engine` only, not the mode's
     * fallback list.
     */
    enginePinned: boolean('engine_pinned').notNull().default(false),
    /** A provider's job id, so a long job is resumed (poll or webhook) rather than held in memory. */
    providerJobId: text('provider_job_id'),
    /** The engine that accepted `provider_job_id`: a resumed job goes back to that provider. */
    provider: text('provider'),
    /** What the provider charged for the result (USD, from the price table), for margin per mode. */
    providerCostUsd: real('provider_cost_usd'),
    /**
     * A face result's likeness to its digital model's photos (0–1, face descriptor similarity; 0
     * when no face was found), kept for staff; null for results that are not checked.
     */
    likeness: real('likeness'),
    /** Times it was made again for too little likeness (at most once, with a new seed). */
    likenessRetries: integer('likeness_retries').notNull().default(0),
    /** While a provider holds the job in its queue: how many jobs are ahead of it (0 = next). */
    queuePosition: integer('queue_position'),
    /** Stored result: storage keys and sizes of the original and its variants, and engine notes. */
    result: jsonb('result').$type<StoredResult>(),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
    /** GENERATION_FAILURE_REASONS: what the engine found wrong with the request (bad input). */
    errorReason: text('error_reason'),
    /** The client's Idempotency-Key: a resent request returns this generation, charged once. */
    clientKey: text('client_key'),
    /** A hash of the inputs the keyed request sent: the key again with other inputs is refused. */
    clientRequestHash: text('client_request_hash'),
    refunded: boolean('refunded').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('generations_user_idx').on(t.userId, t.id),
    uniqueIndex('generations_user_client_key_unique')
      .on(t.userId, t.clientKey)
      .where(sql`${t.clientKey} IS NOT NULL`),
    // A set's pictures, read together for its result screen.
    index('generations_set_idx')
      .on(t.setUuid)
      .where(sql`${t.setUuid} IS NOT NULL`),
    // The free tier counts a user's generations since their local midnight.
    index('generations_user_created_idx').on(t.userId, t.createdAt),
    // The reconciler's scan: only unfinished generations, oldest change first.
    index('generations_unfinished_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} IN (0, 30, 60)`),
  ],
);
