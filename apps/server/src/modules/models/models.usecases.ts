import type { z } from 'zod';
import {
  GenerationStatus,
  type TGenerationStatus,
  type TModel,
  type ZCreateModelBody,
} from '@mirra/contracts';
import type { ModelsDeps } from './models.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import type { FaceProfile } from '@mirra/imaging';
import { isUuid } from '../uploads/index.js';
import { type UserRow, lockUser, updateUser } from '../users/index.js';
import { isTraining, modelStoragePrefix } from './models.models.js';
import { modelsRepository, type ModelRow, type ModelSummaryRow } from './models.repository.js';
import { toModelJson, toModelSummaryJson } from './models.serializers.js';
import { refundTraining } from './model-training.usecases.js';
import { modelNotFound } from './models.errors.js';
import { context, modelJson, trainingPriceNow } from './model-json.js';
import { deleteStoredFilesLater, deleteStoredFilesNow } from '../../shared/storage/file-deletion.js';
import { consentLinkSeconds } from './consent.models.js';
import { consentRepository } from './consent.repository.js';

async function findOwnedOrThrow(deps: ModelsDeps, userId: number, uuid: string): Promise<ModelSummaryRow> {
  const row = isUuid(uuid) ? await modelsRepository.findOwned(deps.db, userId, uuid) : undefined;
  if (!row) throw modelNotFound();
  return row;
}

export async function createModel(
  deps: ModelsDeps,
  user: UserRow,
  body: z.output<typeof ZCreateModelBody>,
): Promise<TModel> {
  const now = deps.now();
  // A model of someone else opens its consent in the same transaction: it never exists without one.
  const row = await deps.db.transaction(async (tx) => {
    const created = await modelsRepository.insert(tx, {
      userId: user.id,
      name: body.name,
      category: body.category,
      subject: body.subject,
      status: GenerationStatus.NEW,
      createdAt: now,
    });
    if (created.subject === 'other') {
      await consentRepository.insert(tx, {
        modelId: created.id,
        modelUuid: created.uuid,
        modelName: created.name,
        ownerId: created.userId,
        status: 'pending',
        linkExpiresAt: new Date(now.getTime() + consentLinkSeconds * 1000),
        createdAt: now,
      });
    }
    return created;
  });
  return toModelJson(row, [], {
    ...context(deps, await trainingPriceNow(deps, deps.db, user.id, row.id)),
    liveCheck: null,
    consent: row.subject === 'other' ? 'pending' : null,
  });
}

export async function getModel(deps: ModelsDeps, user: UserRow, uuid: string): Promise<TModel> {
  return modelJson(deps, deps.db, await findOwnedOrThrow(deps, user.id, uuid));
}

export async function listModels(deps: ModelsDeps, user: UserRow, cursor: string | undefined, limit: number) {
  const { page, next } = await readIdCursorPage(cursor, limit, (beforeId, take) =>
    modelsRepository.listForUser(deps.db, user.id, beforeId, take),
  );
  const covers = await modelsRepository.coverKeys(
    deps.db,
    page.map((row) => row.id),
  );
  // A model that is not training yet is priced as the next training would be (the first is free).
  const ctx = context(deps, await trainingPriceNow(deps, deps.db, user.id, 0));
  return {
    results: page.map((row) => toModelSummaryJson(row, { ...ctx, coverKey: covers.get(row.id) ?? null })),
    next,
  };
}

/**
 * Deletes a model, its photos and every file of it. A model still in training is stopped and its
 * credits refunded (the refund key is the one a failure would use, so it happens once); the job
 * finds the model gone and does nothing. `lora` turns false when no other trained model is left.
 */
export async function deleteModel(deps: ModelsDeps, user: UserRow, uuid: string): Promise<void> {
  if (!isUuid(uuid)) throw modelNotFound();
  await deleteModelWhere(deps, (tx) => modelsRepository.lockOwned(tx, user.id, uuid));
}

/**
 * Staff delete anyone's model the same way its owner would (photos, files, training refunded),
 * with the audit record written in the same transaction. Returns the owner's id.
 */
export async function deleteModelByStaff(
  deps: ModelsDeps,
  uuid: string,
  record: RecordStaffChange,
): Promise<{ ownerId: number }> {
  const model = await deleteModelWhere(
    deps,
    (tx) => modelsRepository.lockByUuid(tx, uuid),
    (tx, row) =>
      record(tx, {
        before: { uuid: row.uuid, name: row.name, status: row.status, owner_id: row.userId },
        after: null,
      }),
  );
  return { ownerId: model.userId };
}

/**
 * Deletes the model `lock` finds (locked) with everything of it, `alsoInTransaction` running in
 * the same transaction: the owner's delete, staff's, and a withdrawal of consent.
 */
export async function deleteModelWhere(
  deps: ModelsDeps,
  lock: (tx: DbOrTx) => Promise<ModelRow | undefined>,
  alsoInTransaction?: (tx: DbOrTx, model: ModelRow) => Promise<void>,
): Promise<ModelRow> {
  const { model, loraChanged } = await deps.db.transaction(async (tx) => {
    const model = await lock(tx);
    if (!model) throw modelNotFound();
    if (isTraining(model.status)) await refundTraining(tx, model);
    await modelsRepository.delete(tx, model.id);
    await deleteStoredFilesLater(tx, { prefixes: [modelStoragePrefix(model.userId, model.uuid)] });
    await alsoInTransaction?.(tx, model);
    if (model.status !== GenerationStatus.COMPLETED) return { model, loraChanged: false };
    // Under the user's lock, as completing a training takes it: a model finishing meanwhile is
    // either seen here as trained or sets `lora` again after this commits.
    await lockUser(tx, model.userId);
    if (await modelsRepository.hasOtherCompleted(tx, model.userId, model.id))
      return { model, loraChanged: false };
    await updateUser(tx, model.userId, deps.now(), { hasLora: false });
    return { model, loraChanged: true };
  });
  if (loraChanged) deps.sessionCache.forgetUser(model.userId);
  await deleteStoredFilesNow(deps.storage, { prefixes: [modelStoragePrefix(model.userId, model.uuid)] });
  return model;
}

/** A trained model of the user, for face swap: null when not theirs, missing, or not trained. */
/** A person's models as staff see them. */
export async function listModelsForStaff(deps: Pick<ModelsDeps, 'db'>, userId: number) {
  const rows = await modelsRepository.listForStaff(deps.db, userId);
  return rows.map((row) => ({
    uuid: row.uuid,
    name: row.name,
    status: row.status as TGenerationStatus,
    photos: row.photos,
    created_at: row.createdAt.toISOString(),
  }));
}

export async function findTrainedModel(
  deps: Pick<ModelsDeps, 'db'>,
  userId: number,
  uuid: string,
): Promise<{ model: ModelRow; profile: FaceProfile } | null> {
  if (!isUuid(uuid)) return null;
  const model = await modelsRepository.findOwnedWithProfile(deps.db, userId, uuid);
  if (!model || model.status !== GenerationStatus.COMPLETED || !model.profile) return null;
  return { model, profile: model.profile as FaceProfile };
}

/** The original of one of a model's photos (for the engine's face swap). */
export async function loadModelPhoto(
  deps: Pick<ModelsDeps, 'db' | 'storage'>,
  modelId: number,
  photoUuid: string,
): Promise<Buffer | null> {
  const [row] = await modelsRepository.findPhotoKeys(deps.db, modelId, [photoUuid]);
  if (!row) return null;
  return (await deps.storage.get(row.storageKey))?.data ?? null;
}

/** Whether a model is the user's own, in any state (another person's is as unknown as none). */
export async function isOwnModel(
  deps: Pick<ModelsDeps, 'db'>,
  userId: number,
  uuid: string,
): Promise<boolean> {
  return isUuid(uuid) && (await modelsRepository.findOwned(deps.db, userId, uuid)) !== undefined;
}
