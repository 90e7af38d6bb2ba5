import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { FaceAnalysis, FaceProfile, StoredProviderLoras } from '../../shared/db/json-columns.js';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/**
 * Personal digital models. Built once from the owner's checked photos; training is a
 * job like a generation, with the same status codes. `profile` is what the local engine learned
 * (see @mirra/imaging faces/face-profile.models.ts); provider engines will keep their LoRA's id beside it.
 */
export const models = pgTable(
  'models',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    category: text('category').notNull(),
    /** Whose face: `self` (the owner's, by their live check) or `other` (by that person's consent). */
    subject: text('subject', { enum: ['self', 'other'] })
      .notNull()
      .default('self'),
    /** NEW 0 (collecting photos), IN_QUEUE 30, IN_PROGRESS 60, COMPLETED 100, ERROR -100, FAILED -200. */
    status: integer('status').notNull().default(0),
    progress: integer('progress').notNull().default(0),
    /** Each start of training is an attempt with its own charge and refund keys (a failed one may be retried). */
    trainingAttempt: integer('training_attempt').notNull().default(0),
    /** Credits charged for the current attempt. */
    cost: integer('cost').notNull().default(0),
    refunded: boolean('refunded').notNull().default(false),
    engine: text('engine').notNull().default('local'),
    profile: jsonb('profile').$type<FaceProfile>(),
    /** LoRAs trained for this model at providers, by engine: `{fal: {url, triggerWord}}`. */
    providerLoras: jsonb('provider_loras').$type<StoredProviderLoras>(),
    /** The provider training this attempt and its job id: a rerun resumes it, never submits twice. */
    trainingProvider: text('training_provider'),
    trainingJobId: text('training_job_id'),
    /** Good photos (what the model is built from); kept with the photos in the same transaction. */
    referenceCount: integer('reference_count').notNull().default(0),
    photoCount: integer('photo_count').notNull().default(0),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    trainingStartedAt: timestamp('training_started_at', { withTimezone: true }),
    trainedAt: timestamp('trained_at', { withTimezone: true }),
  },
  (t) => [
    index('models_user_idx').on(t.userId, t.id),
    // The training reconciler's scan: only models in training, oldest change first.
    index('models_training_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} IN (30, 60)`),
  ],
);

/** The photos of a model: private originals, a preview, and what the face analysis found. */
export const modelPhotos = pgTable(
  'model_photos',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    modelId: bigint('model_id', { mode: 'number' })
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    /** The aligned face crop training made from it (null until trained, or without a usable face). */
    alignedKey: text('aligned_key'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    /** The face analysis (main face in full, others by box): photos are re-judged without re-analysis. */
    analysis: jsonb('analysis').$type<FaceAnalysis>().notNull(),
    ok: boolean('ok').notNull(),
    problems: text('problems')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tips: text('tips')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    pose: text('pose'),
    /** Perceptual fingerprint (faces/photo-fingerprint.models.ts): finds copies of a photo already in the model. */
    fingerprint: text('fingerprint'),
    createdAt: createdAt(),
  },
  (t) => [index('model_photos_model_idx').on(t.modelId, t.id)],
);

/**
 * The latest live check of a model (one row per model, replaced by each new check): the verdict,
 * its measures, and the mean descriptor of the frames, which training compares with the model's
 * photos again (photos may change after the check). The frames themselves are never stored: they
 * are analysed in memory and dropped once the verdict is made. Deleted with the model.
 */
export const modelLiveChecks = pgTable('model_live_checks', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  modelId: bigint('model_id', { mode: 'number' })
    .notNull()
    .unique()
    .references(() => models.id, { onDelete: 'cascade' }),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  passed: boolean('passed').notNull(),
  problems: text('problems')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** Yaws, similarity, non-planar motion and Human's antispoof/liveness scores of the frames. */
  measures: jsonb('measures').$type<LiveCheckMeasures>().notNull(),
  descriptor: jsonb('descriptor').$type<number[]>().notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});

export interface LiveCheckMeasures {
  yaws: (number | null)[];
  similarity: number;
  nonPlanarMotion: number;
  real: (number | null)[];
  live: (number | null)[];
}

/**
 * Consent for a model of someone else (one row per such model). The person opens the signed link
 * the owner sends, and a passed live check of their own (kept in model_live_checks like the
 * owner's) confirms it. The row outlives the model: withdrawal deletes the model (`model_id`
 * becomes null) and the row stays as its record (who asked, when it was confirmed and withdrawn,
 * how many posts were taken down), `withdrawn` for good.
 */
export const modelConsents = pgTable(
  'model_consents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Named in the link's signed token. */
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    modelId: bigint('model_id', { mode: 'number' })
      .unique()
      .references(() => models.id, { onDelete: 'set null' }),
    modelUuid: uuid('model_uuid').notNull(),
    modelName: text('model_name').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'confirmed', 'withdrawn'] })
      .notNull()
      .default('pending'),
    /** The latest link's expiry: confirming needs a link signed until later than now. */
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /** Posts made with the model that the withdrawal took down. */
    postsRemoved: integer('posts_removed'),
    createdAt: createdAt(),
  },
  (t) => [index('model_consents_owner_idx').on(t.ownerId)],
);
