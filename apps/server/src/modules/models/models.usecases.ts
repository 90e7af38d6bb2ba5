import type { z } from 'zod';
import { GenerationStatus, type TModel, type ZCreateModelBody } from '@mirra/contracts';
import type { ModelsDeps } from './models.deps.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import type { FaceProfile } from '@mirra/imaging';
import { isUuid } from '../uploads/index.js';
import { type UserRow, lockUser, updateUser } from '../users/index.js';
import { isTraining, modelStoragePrefix } from './models.models.js';
import { modelsRepository, type ModelRow, type ModelSummaryRow } from './models.repository.js';
import { toModelJson, toModelSummaryJson } from './models.serializers.js';
import { refundTraining } from './model-training.usecases.js';
import { modelNotFound } from './models.errors.js';
import { context, modelJson } from './model-json.js';

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
  const row = await modelsRepository.insert(deps.db, {
    userId: user.id,
    name: body.name,
    category: body.category,
    status: GenerationStatus.NEW,
    createdAt: deps.now(),
  });
  return toModelJson(row, [], context(deps));
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
  const ctx = context(deps);
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
  const loraChanged = await deps.db.transaction(async (tx) => {
    const model = await modelsRepository.lockOwned(tx, user.id, uuid);
    if (!model) throw modelNotFound();
    if (isTraining(model.status)) await refundTraining(tx, model);
    await modelsRepository.delete(tx, model.id);
    if (model.status !== GenerationStatus.COMPLETED) return false;
    // Under the user's lock, as completing a training takes it: a model finishing meanwhile is
    // either seen here as trained or sets `lora` again after this commits.
    await lockUser(tx, user.id);
    if (await modelsRepository.hasOtherCompleted(tx, user.id, model.id)) return false;
    await updateUser(tx, user.id, deps.now(), { hasLora: false });
    return true;
  });
  if (loraChanged) deps.sessionCache.forgetUser(user.id);
  await deps.storage.deletePrefix(modelStoragePrefix(user.id, uuid));
}

/** A trained model of the user, for face swap: null when not theirs, missing, or not trained. */
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
