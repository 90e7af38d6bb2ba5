import { and, asc, desc, eq, inArray, like, lt, ne, sql } from 'drizzle-orm';
import { GenerationStatus, type TGenerationStatus } from '@mirra/contracts';
import type { DbOrTx } from '../../shared/db/client.js';
import { jobsWithPayload } from '../../shared/jobs.js';
import { modelLiveChecks, modelPhotos, models } from './models.tables.js';
import { modelStatusesAllowedBefore } from './models.models.js';

export type ModelRow = typeof models.$inferSelect;
export type ModelPhotoRow = typeof modelPhotos.$inferSelect;
export type LiveCheckRow = typeof modelLiveChecks.$inferSelect;

/** Every column but the profile, which is large and only training and face swap read. */
const summaryColumns = {
  id: models.id,
  uuid: models.uuid,
  userId: models.userId,
  name: models.name,
  category: models.category,
  subject: models.subject,
  status: models.status,
  progress: models.progress,
  trainingAttempt: models.trainingAttempt,
  cost: models.cost,
  refunded: models.refunded,
  engine: models.engine,
  referenceCount: models.referenceCount,
  photoCount: models.photoCount,
  errorCode: models.errorCode,
  errorDetail: models.errorDetail,
  createdAt: models.createdAt,
  updatedAt: models.updatedAt,
  trainingStartedAt: models.trainingStartedAt,
  trainedAt: models.trainedAt,
  providerLoras: models.providerLoras,
  trainingProvider: models.trainingProvider,
  trainingJobId: models.trainingJobId,
};
export type ModelSummaryRow = Omit<ModelRow, 'profile'>;

/** Photo columns without the analysis (lists and previews). */
const photoSummaryColumns = {
  id: modelPhotos.id,
  uuid: modelPhotos.uuid,
  modelId: modelPhotos.modelId,
  userId: modelPhotos.userId,
  storageKey: modelPhotos.storageKey,
  thumbnailKey: modelPhotos.thumbnailKey,
  alignedKey: modelPhotos.alignedKey,
  width: modelPhotos.width,
  height: modelPhotos.height,
  bytes: modelPhotos.bytes,
  ok: modelPhotos.ok,
  problems: modelPhotos.problems,
  tips: modelPhotos.tips,
  pose: modelPhotos.pose,
  createdAt: modelPhotos.createdAt,
};
export type ModelPhotoSummaryRow = Omit<ModelPhotoRow, 'analysis' | 'fingerprint'>;

/** SQL for models and their photos; every read by uuid is scoped to the owner. No decisions here. */
export const modelsRepository = {
  async insert(db: DbOrTx, values: typeof models.$inferInsert): Promise<ModelSummaryRow> {
    const [row] = await db.insert(models).values(values).returning(summaryColumns);
    return row!;
  },

  async findOwned(db: DbOrTx, userId: number, uuid: string): Promise<ModelSummaryRow | undefined> {
    const [row] = await db
      .select(summaryColumns)
      .from(models)
      .where(and(eq(models.uuid, uuid), eq(models.userId, userId)));
    return row;
  },

  /** The model with its profile (training, face swap). */
  async findOwnedWithProfile(db: DbOrTx, userId: number, uuid: string): Promise<ModelRow | undefined> {
    const [row] = await db
      .select()
      .from(models)
      .where(and(eq(models.uuid, uuid), eq(models.userId, userId)));
    return row;
  },

  async findById(db: DbOrTx, id: number): Promise<ModelRow | undefined> {
    const [row] = await db.select().from(models).where(eq(models.id, id));
    return row;
  },

  /** The model whose provider training has an id starting with `jobIdPrefix` (a provider's webhook). */
  async findByTrainingJob(db: DbOrTx, provider: string, jobIdPrefix: string): Promise<ModelRow | undefined> {
    const [row] = await db
      .select()
      .from(models)
      .where(
        and(
          eq(models.trainingProvider, provider),
          like(models.trainingJobId, `${jobIdPrefix.replace(/[\\%_]/g, '\\$&')}%`),
        ),
      )
      .limit(1);
    return row;
  },

  async lockById(db: DbOrTx, id: number): Promise<ModelRow | undefined> {
    const [row] = await db.select().from(models).where(eq(models.id, id)).for('update');
    return row;
  },

  /** Locks the owner's model row until the transaction ends: photo changes and training take turns. */
  async lockByUuid(db: DbOrTx, uuid: string): Promise<ModelRow | undefined> {
    const [row] = await db.select().from(models).where(eq(models.uuid, uuid)).for('update');
    return row;
  },

  /** Whether another model of the user is training right now without a charge (the first-model offer). */
  async hasFreeTrainingRunning(db: DbOrTx, userId: number, exceptModelId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: models.id })
      .from(models)
      .where(
        and(
          eq(models.userId, userId),
          ne(models.id, exceptModelId),
          inArray(models.status, [GenerationStatus.IN_QUEUE, GenerationStatus.IN_PROGRESS]),
          eq(models.cost, 0),
        ),
      )
      .limit(1);
    return Boolean(row);
  },

  async lockOwned(db: DbOrTx, userId: number, uuid: string): Promise<ModelRow | undefined> {
    const [row] = await db
      .select()
      .from(models)
      .where(and(eq(models.uuid, uuid), eq(models.userId, userId)))
      .for('update');
    return row;
  },

  /** A person's models for staff, newest first, with how many photos each has. */
  async listForStaff(db: DbOrTx, userId: number) {
    return db
      .select({
        uuid: models.uuid,
        name: models.name,
        status: models.status,
        createdAt: models.createdAt,
        photos: sql<number>`(SELECT count(*)::int FROM ${modelPhotos} p WHERE p.model_id = ${models.id})`,
      })
      .from(models)
      .where(eq(models.userId, userId))
      .orderBy(desc(models.id))
      .limit(50);
  },

  /** Newest first, keyset-paginated by id. */
  async listForUser(db: DbOrTx, userId: number, beforeId: number | null, limit: number) {
    return db
      .select(summaryColumns)
      .from(models)
      .where(and(eq(models.userId, userId), beforeId ? lt(models.id, beforeId) : undefined))
      .orderBy(desc(models.id))
      .limit(limit);
  },

  /**
   * Moves a model to `to` only if its status allows it (the transition table), in one conditional
   * UPDATE: of a worker, a retry and the reconciler, exactly one wins.
   */
  async transition(
    db: DbOrTx,
    id: number,
    at: Date,
    to: TGenerationStatus,
    changes: Partial<typeof models.$inferInsert> = {},
    options: { attempt?: number } = {},
  ): Promise<ModelSummaryRow | undefined> {
    const [row] = await db
      .update(models)
      .set({ ...changes, status: to, updatedAt: at })
      .where(
        and(
          eq(models.id, id),
          inArray(models.status, modelStatusesAllowedBefore(to)),
          options.attempt === undefined ? undefined : eq(models.trainingAttempt, options.attempt),
        ),
      )
      .returning(summaryColumns);
    return row;
  },

  async update(
    db: DbOrTx,
    id: number,
    at: Date,
    changes: Partial<typeof models.$inferInsert>,
  ): Promise<void> {
    await db
      .update(models)
      .set({ ...changes, updatedAt: at })
      .where(eq(models.id, id));
  },

  /** Raises training progress (never lowers it), only while training. */
  async setProgress(db: DbOrTx, id: number, at: Date, progress: number): Promise<void> {
    await db
      .update(models)
      .set({ progress, updatedAt: at })
      .where(
        and(
          eq(models.id, id),
          sql`${models.progress} < ${progress}`,
          eq(models.status, GenerationStatus.IN_PROGRESS),
        ),
      );
  },

  async delete(db: DbOrTx, id: number): Promise<void> {
    await db.delete(models).where(eq(models.id, id));
  },

  /** IN_PROGRESS → IN_QUEUE for this training attempt only (its run died with its worker). */
  async requeueInProgress(
    db: DbOrTx,
    id: number,
    attempt: number,
    at: Date,
  ): Promise<ModelSummaryRow | undefined> {
    const [row] = await db
      .update(models)
      .set({ status: GenerationStatus.IN_QUEUE, updatedAt: at })
      .where(
        and(
          eq(models.id, id),
          eq(models.status, GenerationStatus.IN_PROGRESS),
          eq(models.trainingAttempt, attempt),
        ),
      )
      .returning(summaryColumns);
    return row;
  },

  /**
   * Models IN_PROGRESS that no job of `jobName` for their current attempt can run any more: none
   * is locked (running) or has attempts left; the job is gone, or failed for good.
   */
  async findTrainingWithoutRunnableJob(
    db: DbOrTx,
    jobName: string,
    limit: number,
  ): Promise<ModelSummaryRow[]> {
    return db
      .select(summaryColumns)
      .from(models)
      .where(
        and(
          eq(models.status, GenerationStatus.IN_PROGRESS),
          sql`NOT EXISTS (
            SELECT 1 FROM ${jobsWithPayload} AS job
            WHERE job.task_identifier = ${jobName}
              AND job.payload->>'modelId' = ${models.id}::text
              AND job.payload->>'attempt' = ${models.trainingAttempt}::text
              AND (job.locked_at IS NOT NULL OR job.attempts < job.max_attempts)
          )`,
        ),
      )
      .orderBy(models.id)
      .limit(limit);
  },

  /** Models in training whose last change is older than `before` (index-backed). */
  async findStaleTraining(db: DbOrTx, before: Date, limit: number): Promise<ModelSummaryRow[]> {
    return db
      .select(summaryColumns)
      .from(models)
      .where(and(sql`${models.status} IN (30, 60)`, lt(models.updatedAt, before)))
      .orderBy(models.updatedAt)
      .limit(limit);
  },

  async hasOtherCompleted(db: DbOrTx, userId: number, exceptId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: models.id })
      .from(models)
      .where(
        and(
          eq(models.userId, userId),
          eq(models.status, GenerationStatus.COMPLETED),
          ne(models.id, exceptId),
        ),
      )
      .limit(1);
    return Boolean(row);
  },

  // --- Live checks ---

  /** The model's latest live check replaces the one before. */
  async saveLiveCheck(db: DbOrTx, values: typeof modelLiveChecks.$inferInsert): Promise<void> {
    const { modelId: _modelId, ...changes } = values;
    await db
      .insert(modelLiveChecks)
      .values(values)
      .onConflictDoUpdate({ target: modelLiveChecks.modelId, set: changes });
  },

  async findLiveCheck(db: DbOrTx, modelId: number): Promise<LiveCheckRow | undefined> {
    const [row] = await db.select().from(modelLiveChecks).where(eq(modelLiveChecks.modelId, modelId));
    return row;
  },

  // --- Photos ---

  async insertPhotos(db: DbOrTx, values: (typeof modelPhotos.$inferInsert)[]): Promise<ModelPhotoRow[]> {
    if (!values.length) return [];
    return db.insert(modelPhotos).values(values).returning();
  },

  /** Oldest first, without analyses. */
  async listPhotos(db: DbOrTx, modelId: number): Promise<ModelPhotoSummaryRow[]> {
    return db
      .select(photoSummaryColumns)
      .from(modelPhotos)
      .where(eq(modelPhotos.modelId, modelId))
      .orderBy(asc(modelPhotos.id));
  },

  /** Oldest first, with analyses (judging, training). */
  async listPhotosWithAnalysis(db: DbOrTx, modelId: number): Promise<ModelPhotoRow[]> {
    return db.select().from(modelPhotos).where(eq(modelPhotos.modelId, modelId)).orderBy(asc(modelPhotos.id));
  },

  async findPhotoKeys(db: DbOrTx, modelId: number, uuids: string[]) {
    if (!uuids.length) return [];
    return db
      .select({ uuid: modelPhotos.uuid, storageKey: modelPhotos.storageKey })
      .from(modelPhotos)
      .where(and(eq(modelPhotos.modelId, modelId), inArray(modelPhotos.uuid, uuids)));
  },

  async updatePhoto(
    db: DbOrTx,
    id: number,
    changes: Partial<typeof modelPhotos.$inferInsert>,
  ): Promise<void> {
    await db.update(modelPhotos).set(changes).where(eq(modelPhotos.id, id));
  },

  async deletePhoto(db: DbOrTx, modelId: number, uuid: string): Promise<ModelPhotoSummaryRow | undefined> {
    const [row] = await db
      .delete(modelPhotos)
      .where(and(eq(modelPhotos.modelId, modelId), eq(modelPhotos.uuid, uuid)))
      .returning(photoSummaryColumns);
    return row;
  },

  /** The best previews for model lists: the first good photo of each model. */
  async coverKeys(db: DbOrTx, modelIds: number[]): Promise<Map<number, string>> {
    if (!modelIds.length) return new Map();
    const rows = await db
      .selectDistinctOn([modelPhotos.modelId], {
        modelId: modelPhotos.modelId,
        thumbnailKey: modelPhotos.thumbnailKey,
      })
      .from(modelPhotos)
      .where(and(inArray(modelPhotos.modelId, modelIds), eq(modelPhotos.ok, true)))
      .orderBy(modelPhotos.modelId, asc(modelPhotos.id));
    return new Map(rows.map((row) => [row.modelId, row.thumbnailKey]));
  },
};
