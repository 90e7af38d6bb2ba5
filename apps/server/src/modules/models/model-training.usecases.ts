import { GenerationStatus, type TModel } from '@mirra/contracts';
import type { ModelsDeps, ProviderLora } from './models.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { addJob } from '../../shared/jobs.js';
import { applyCreditChange, lockCredits } from '../credits/index.js';
import type { FaceProfile } from '@mirra/imaging';
import { notifyUser } from '../notifications/index.js';
import { isUuid } from '../uploads/index.js';
import { type UserRow, lockUser, updateUser } from '../users/index.js';
import { firstModelOfferKey, isTraining, notEnoughPhotosMessage } from './models.models.js';
import { modelsRepository, type ModelRow } from './models.repository.js';
import { trainModelJob } from './models.jobs.definitions.js';
import { consentRequired, modelNotFound, trainingInProgress } from './models.errors.js';
import { consentState, modelJson, trainingPriceNow } from './model-json.js';
import { liveCheckProblem, liveCheckRequired } from './live-check.usecases.js';

/** Training of a digital model: charged start, completion, failure and its refund, exactly once. */

const chargeKey = (model: { uuid: string }, attempt: number) => `model:${model.uuid}:train:${attempt}:charge`;

const refundKey = (model: { uuid: string }, attempt: number) => `model:${model.uuid}:train:${attempt}:refund`;

/**
 * Starts training, in one transaction with the model locked: at least MODEL_MIN_PHOTOS good
 * photos, a passed live check that still matches them, the charge (`model_training_charge`, once per attempt), IN_QUEUE, and the job — so a
 * crash can never leave a charge without a job, or a job without its charge.
 */
export async function startTraining(deps: ModelsDeps, user: UserRow, uuid: string): Promise<TModel> {
  if (!isUuid(uuid)) throw modelNotFound();
  const { minPhotos } = deps.config.models;
  const row = await deps.db.transaction(async (tx) => {
    const model = await modelsRepository.lockOwned(tx, user.id, uuid);
    if (!model) throw modelNotFound();
    if (model.status === GenerationStatus.COMPLETED) {
      throw new AppError({
        code: 'models.already_trained',
        detail: 'This model is trained already. Add photos to it, or create another model.',
      });
    }
    if (isTraining(model.status)) throw trainingInProgress();
    if (model.referenceCount < minPhotos) {
      throw new AppError({
        code: 'models.not_enough_photos',
        fields: { photos: [notEnoughPhotosMessage(model.referenceCount, minPhotos)] },
        extra: { reference_count: model.referenceCount, min_photos: minPhotos },
      });
    }
    // A model is of the person who proved, live in front of a camera, that the photos are theirs:
    // the owner, or the person a model of someone else is of, who confirmed through the link.
    const checkProblem = await liveCheckProblem(tx, model.id);
    if (model.subject === 'other') {
      const consent = await consentState(tx, model);
      if (consent !== 'confirmed') throw consentRequired('missing');
      if (checkProblem) throw consentRequired('outdated');
    } else if (checkProblem) throw liveCheckRequired(checkProblem);
    const attempt = model.trainingAttempt + 1;
    // Under the balance lock, so two trainings started at once cannot both take the free one.
    await lockCredits(tx, user.id);
    const trainingPrice = await trainingPriceNow(deps, tx, user.id, model.id);
    if (trainingPrice > 0) {
      await applyCreditChange(tx, {
        userId: user.id,
        delta: -trainingPrice,
        kind: 'model_training_charge',
        ref: model.uuid,
        idempotencyKey: chargeKey(model, attempt),
      });
    }
    const queued = await modelsRepository.transition(tx, model.id, deps.now(), GenerationStatus.IN_QUEUE, {
      trainingAttempt: attempt,
      cost: trainingPrice,
      refunded: false,
      progress: 0,
      errorCode: null,
      errorDetail: null,
      trainingProvider: null,
      trainingJobId: null,
    });
    if (!queued) throw trainingInProgress();
    await addJob(tx, trainModelJob, { modelId: model.id, attempt }, { jobKey: `model-train:${model.id}` });
    return queued;
  });
  return modelJson(deps, deps.db, row);
}

export async function refundTraining(
  tx: DbOrTx,
  model: Pick<ModelRow, 'uuid' | 'userId' | 'cost' | 'trainingAttempt'>,
) {
  if (model.cost <= 0) return;
  await applyCreditChange(tx, {
    userId: model.userId,
    delta: model.cost,
    kind: 'model_training_refund',
    ref: model.uuid,
    idempotencyKey: refundKey(model, model.trainingAttempt),
  });
}

/**
 * Ends a training attempt as ERROR or FAILED and refunds it, in one transaction, exactly once:
 * the conditional status change (for this attempt) and the refund's idempotency key both guard.
 */
export async function failTraining(
  deps: Pick<ModelsDeps, 'db' | 'now'>,
  model: Pick<ModelRow, 'id' | 'uuid' | 'userId' | 'cost' | 'trainingAttempt'>,
  outcome: {
    status: typeof GenerationStatus.ERROR | typeof GenerationStatus.FAILED;
    code: string;
    detail: string;
  },
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const ended = await modelsRepository.transition(
      tx,
      model.id,
      deps.now(),
      outcome.status,
      { errorCode: outcome.code, errorDetail: outcome.detail, refunded: model.cost > 0 },
      { attempt: model.trainingAttempt },
    );
    if (!ended) return false;
    await refundTraining(tx, model);
    return true;
  });
}

/**
 * Marks training COMPLETED with its profile, and in the same transaction everything that follows
 * from it exactly once: the photos' aligned crops, `lora` on the user (its row change wakes every
 * process's session cache through the users trigger), and the notice (in the app, and by the bot
 * or email as the user chose: the bot's button opens the model in the Mini App). Returns false when the attempt had already ended (or the model was deleted).
 */
export async function completeTraining(
  deps: ModelsDeps,
  model: Pick<ModelRow, 'id' | 'uuid' | 'userId' | 'name' | 'trainingAttempt'>,
  result: {
    profile: FaceProfile;
    alignedKeys: Map<string, string>;
    /** LoRAs trained at providers for this attempt, by engine (none: the local profile only). */
    providerLoras?: Record<string, ProviderLora>;
  },
): Promise<boolean> {
  const loraChanged = await deps.db.transaction(async (tx) => {
    const completed = await modelsRepository.transition(
      tx,
      model.id,
      deps.now(),
      GenerationStatus.COMPLETED,
      {
        profile: result.profile,
        progress: 100,
        trainedAt: deps.now(),
        referenceCount: result.profile.photoCount,
        providerLoras: result.providerLoras ?? null,
        engine: Object.keys(result.providerLoras ?? {})[0] ?? 'local',
      },
      { attempt: model.trainingAttempt },
    );
    if (!completed) return null;
    if (completed.cost === 0) {
      // A free training that completed spends the first-model offer (no credits move).
      await applyCreditChange(tx, {
        userId: model.userId,
        delta: 0,
        kind: 'model_training_charge',
        ref: model.uuid,
        idempotencyKey: firstModelOfferKey(model.userId),
      });
    }
    for (const row of await modelsRepository.listPhotos(tx, model.id)) {
      const alignedKey = result.alignedKeys.get(row.uuid) ?? null;
      if (row.alignedKey !== alignedKey) await modelsRepository.updatePhoto(tx, row.id, { alignedKey });
    }
    // Locked: a trained model being deleted at this moment decides `lora` under the same lock.
    const user = await lockUser(tx, model.userId);
    if (!user) return false;
    if (!user.hasLora) await updateUser(tx, user.id, deps.now(), { hasLora: true });
    await notifyUser(tx, {
      userId: user.id,
      kind: 'model_ready',
      data: { model_uuid: model.uuid, model_name: model.name },
      dedupeKey: `model_ready:${model.uuid}`,
    });
    return !user.hasLora;
  });
  if (loraChanged === null) return false;
  // This process's cache must not serve `lora: false` in the moment before the NOTIFY arrives.
  if (loraChanged) deps.sessionCache.forgetUser(model.userId);
  return true;
}
