import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { z } from 'zod';
import {
  GenerationStatus,
  type TModel,
  type TModelPhotoProblem,
  type TModelPhotosUploaded,
  type TModelPhotoVerdict,
  type ZCreateModelBody,
} from '@mirra/contracts';
import type { ModelsDeps } from './models.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { addJob } from '../../shared/jobs.js';
import { translate } from '../../shared/i18n/messages.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import { applyCreditChange } from '../credits/index.js';
import {
  alignedFaceCrop,
  buildFaceProfile,
  type FaceProfile,
  type FaceAnalysis,
  checkPhoto,
  type PhotoCheck,
  photoFingerprint,
} from '../faces/index.js';
import { notifyUser } from '../notifications/index.js';
import { sendTelegramMessageJob } from '../telegram/index.js';
import { normaliseUploadImage, detectImageType, isUuid } from '../uploads/index.js';
import { type UserRow, lockUser, updateUser } from '../users/index.js';
import {
  ALIGNED_CROP_SIZE,
  asCopy,
  compactAnalysis,
  findCopies,
  isSameVerdict,
  isTraining,
  judgeModelPhotos,
  modelPhotoKeys,
  modelStoragePrefix,
  notEnoughPhotosMessage,
  THUMBNAIL_SIDE,
} from './models.models.js';
import {
  modelsRepository,
  type ModelPhotoRow,
  type ModelRow,
  type ModelSummaryRow,
} from './models.repository.js';
import { thumbnailUrl, toModelJson, toModelSummaryJson } from './models.serializers.js';
import { trainModelJob } from './models.jobs.definitions.js';

export const modelNotFound = () => new AppError({ code: 'models.not_found', detail: 'Not found.' });

const trainingInProgress = () =>
  new AppError({
    code: 'models.training_in_progress',
    detail: 'The model is training. Its photos can change again when it finishes.',
  });

const context = (deps: ModelsDeps) => ({
  mediaUrls: deps.mediaUrls,
  now: deps.now(),
  minPhotos: deps.config.models.minPhotos,
  trainingPrice: deps.config.models.trainingPrice,
});

async function findOwnedOrThrow(deps: ModelsDeps, userId: number, uuid: string): Promise<ModelSummaryRow> {
  const row = isUuid(uuid) ? await modelsRepository.findOwned(deps.db, userId, uuid) : undefined;
  if (!row) throw modelNotFound();
  return row;
}

async function modelJson(deps: ModelsDeps, db: DbOrTx, row: ModelSummaryRow): Promise<TModel> {
  return toModelJson(row, await modelsRepository.listPhotos(db, row.id), context(deps));
}

// --- Creating, reading, deleting -----------------------------------------------------------------

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

// --- Photos --------------------------------------------------------------------------------------

export interface IncomingPhoto {
  filename: string;
  data: Buffer;
  /** The file was cut off at the size limit. */
  truncated: boolean;
}

interface PreparedPhoto {
  uuid: string;
  filename: string;
  keys: ReturnType<typeof modelPhotoKeys>;
  stored: string[];
  width: number;
  height: number;
  bytes: number;
  analysis: FaceAnalysis;
  fingerprint: string;
  /** Judged now (a trained model's photos are judged against its fixed identity). */
  verdict: PhotoCheck | null;
  alignedKey: string | null;
}

type Entry =
  { kind: 'file'; filename: string; problem: TModelPhotoProblem } | { kind: 'photo'; photo: PreparedPhoto };

/**
 * Adds photos to a model: each file is checked by its bytes, normalised (EXIF stripped), analysed
 * for faces and stored privately before anything is written to the database; then, with the model
 * locked, the photos are inserted and every verdict is settled. Nothing is charged.
 *
 * Before training, all the model's photos are judged together (the largest group of one person
 * wins, see judgeModelPhotos), so earlier verdicts may change. A trained model is immutable: its
 * identity (the profile's descriptor) is fixed, new photos must match it, and good ones join the
 * profile's references (and aligned crops) without retraining — the reference count grows.
 */
export async function addModelPhotos(
  deps: ModelsDeps,
  user: UserRow,
  uuid: string,
  files: AsyncIterable<IncomingPhoto>,
): Promise<TModelPhotosUploaded> {
  const { rateLimits, models: limits } = deps.config;
  await deps.rateLimiter.hit([
    {
      key: `model_photos:user:${user.id}`,
      limit: rateLimits.uploadsPerUser,
      windowSeconds: rateLimits.windowSeconds,
    },
  ]);
  if (!isUuid(uuid)) throw modelNotFound();
  const model = await modelsRepository.findOwnedWithProfile(deps.db, user.id, uuid);
  if (!model) throw modelNotFound();
  if (isTraining(model.status)) throw trainingInProgress();
  const identity =
    model.status === GenerationStatus.COMPLETED
      ? ((model.profile as FaceProfile | null)?.descriptor ?? null)
      : null;

  const entries: Entry[] = [];
  const storedKeys: string[] = [];
  try {
    let photoTotal = model.photoCount;
    for await (const file of files) {
      if (photoTotal >= limits.maxPhotos) throw tooManyPhotos(limits.maxPhotos);
      const prepared = await preparePhoto(deps, user.id, model.uuid, file, identity);
      if ('problem' in prepared) {
        entries.push({ kind: 'file', filename: file.filename, problem: prepared.problem });
        continue;
      }
      storedKeys.push(...prepared.stored);
      entries.push({ kind: 'photo', photo: prepared });
      photoTotal++;
    }
    if (entries.length === 0) throw fieldError('common.validation', { files: ['No file was submitted.'] });
    const photos = entries.flatMap((entry) => (entry.kind === 'photo' ? [entry.photo] : []));
    const { verdicts, referenceCount } = await deps.db.transaction((tx) =>
      savePhotos(deps, tx, user.id, uuid, photos, identity !== null),
    );
    return {
      photos: entries.map((entry) => toVerdictJson(deps, entry, verdicts)),
      reference_count: referenceCount,
      min_photos: limits.minPhotos,
    };
  } catch (error) {
    await Promise.all(storedKeys.map((key) => deps.storage.delete(key).catch(() => undefined)));
    throw error;
  }
}

function tooManyPhotos(maxPhotos: number): AppError {
  return new AppError({
    code: 'models.too_many_photos',
    detail: `A model can hold at most ${maxPhotos} photos. Delete some to add others.`,
    extra: { max_photos: maxPhotos },
  });
}

async function preparePhoto(
  deps: ModelsDeps,
  userId: number,
  modelUuid: string,
  file: IncomingPhoto,
  identity: readonly number[] | null,
): Promise<PreparedPhoto | { problem: TModelPhotoProblem }> {
  const { uploads: limits } = deps.config;
  if (file.truncated || file.data.length > limits.maxBytes) return { problem: 'file.too_big' };
  const type = file.data.length ? detectImageType(file.data) : null;
  if (!type) return { problem: 'file.unsupported' };
  let image: Awaited<ReturnType<typeof normaliseUploadImage>>;
  try {
    image = await normaliseUploadImage(file.data, type, {
      maxPixels: limits.maxPixels,
      maxSide: limits.maxSide,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'uploads.too_many_pixels')
      return { problem: 'file.too_many_pixels' };
    if (error instanceof AppError) return { problem: 'file.unsupported' };
    throw error;
  }
  const analysis = compactAnalysis(await deps.faceAnalyzer.analyze(image.data));
  const fingerprint = await photoFingerprint(image.data);
  const uuid = randomUUID();
  const keys = modelPhotoKeys(userId, modelUuid, uuid, image.format === 'png' ? 'png' : 'jpg');
  const thumbnail = await sharp(image.data)
    .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 78 })
    .toBuffer();
  const stored: string[] = [];
  await deps.storage.put(keys.original, image.data, image.contentType);
  stored.push(keys.original);
  await deps.storage.put(keys.thumbnail, thumbnail, 'image/webp');
  stored.push(keys.thumbnail);
  let verdict: PhotoCheck | null = null;
  let alignedKey: string | null = null;
  if (identity) {
    verdict = judgeModelPhotos([{ id: 0, analysis }], identity).get(0)!;
    const crop = verdict.ok ? await alignedFaceCrop(image.data, analysis, ALIGNED_CROP_SIZE) : null;
    if (crop) {
      await deps.storage.put(keys.aligned, crop, 'image/png');
      stored.push(keys.aligned);
      alignedKey = keys.aligned;
    }
  }
  return {
    uuid,
    filename: file.filename,
    keys,
    stored,
    width: image.width,
    height: image.height,
    bytes: image.data.length,
    analysis,
    fingerprint,
    verdict,
    alignedKey,
  };
}

/** Inserts the photos and settles every verdict, with the model row locked. */
async function savePhotos(
  deps: ModelsDeps,
  tx: DbOrTx,
  userId: number,
  uuid: string,
  photos: PreparedPhoto[],
  isTrained: boolean,
): Promise<{ verdicts: Map<string, PhotoCheck>; referenceCount: number }> {
  const model = await modelsRepository.lockOwned(tx, userId, uuid);
  if (!model) throw modelNotFound();
  if (isTraining(model.status)) throw trainingInProgress();
  if ((model.status === GenerationStatus.COMPLETED) !== isTrained) {
    // Training finished between the checks and now: the photos were judged the wrong way.
    throw new AppError({
      code: 'models.training_in_progress',
      detail: 'The model just changed. Upload again.',
    });
  }
  if (model.photoCount + photos.length > deps.config.models.maxPhotos) {
    throw tooManyPhotos(deps.config.models.maxPhotos);
  }
  if (isTrained) await refuseCopiesOfTrainedPhotos(tx, model.id, photos);
  const provisional = (photo: PreparedPhoto) =>
    photo.verdict ?? checkPhoto({ analysis: photo.analysis, references: [] });
  await modelsRepository.insertPhotos(
    tx,
    photos.map((photo) => {
      const verdict = provisional(photo);
      return {
        uuid: photo.uuid,
        modelId: model.id,
        userId,
        storageKey: photo.keys.original,
        thumbnailKey: photo.keys.thumbnail,
        alignedKey: photo.alignedKey,
        width: photo.width,
        height: photo.height,
        bytes: photo.bytes,
        analysis: photo.analysis,
        fingerprint: photo.fingerprint,
        ok: verdict.ok,
        problems: verdict.problems,
        tips: verdict.tips,
        pose: verdict.pose,
        createdAt: deps.now(),
      };
    }),
  );
  const settled = await settleModelPhotos(tx, model, deps.now());
  const verdicts = new Map<string, PhotoCheck>();
  for (const photo of photos)
    verdicts.set(photo.uuid, settled.verdicts.get(photo.uuid) ?? provisional(photo));
  return { verdicts, referenceCount: settled.referenceCount };
}

/**
 * A trained model's new photos were judged one by one against its identity; with the model locked,
 * the good ones that copy a good photo it already has (or an earlier one of this upload) are
 * refused.
 */
async function refuseCopiesOfTrainedPhotos(tx: DbOrTx, modelId: number, photos: PreparedPhoto[]) {
  const stored = await modelsRepository.listPhotosWithAnalysis(tx, modelId);
  const copies = findCopies([
    ...stored
      .filter((row) => row.ok)
      .map((row) => ({ id: row.id, analysis: row.analysis as FaceAnalysis, fingerprint: row.fingerprint })),
    // New photos take negative ids, after every stored one in order.
    ...photos.flatMap((photo, index) =>
      photo.verdict?.ok ? [{ id: -1 - index, analysis: photo.analysis, fingerprint: photo.fingerprint }] : [],
    ),
  ]);
  photos.forEach((photo, index) => {
    if (!copies.has(-1 - index) || !photo.verdict) return;
    photo.verdict = asCopy(photo.verdict);
    photo.alignedKey = null;
  });
}

/**
 * Brings a model's photo verdicts, counts and (when trained) profile in line with its photos, in
 * the caller's transaction with the model locked. An untrained model's photos are re-judged
 * together; a trained model's verdicts never change (they were judged against its fixed
 * identity), but its profile's references follow the good photos.
 */
async function settleModelPhotos(
  tx: DbOrTx,
  model: ModelRow,
  now: Date,
): Promise<{ verdicts: Map<string, PhotoCheck>; referenceCount: number }> {
  const rows = await modelsRepository.listPhotosWithAnalysis(tx, model.id);
  const verdicts = new Map<string, PhotoCheck>();
  const isTrained = model.status === GenerationStatus.COMPLETED;
  if (!isTrained) {
    const judged = judgeModelPhotos(
      rows.map((row) => ({
        id: row.id,
        analysis: row.analysis as FaceAnalysis,
        fingerprint: row.fingerprint,
      })),
      null,
    );
    for (const row of rows) {
      const verdict = judged.get(row.id)!;
      verdicts.set(row.uuid, verdict);
      if (!isSameVerdict(row, verdict)) {
        await modelsRepository.updatePhoto(tx, row.id, {
          ok: verdict.ok,
          problems: verdict.problems,
          tips: verdict.tips,
          pose: verdict.pose,
        });
      }
    }
  }
  const good = rows.filter((row) => (isTrained ? row.ok : verdicts.get(row.uuid)?.ok));
  const changes: Parameters<typeof modelsRepository.update>[3] = {
    photoCount: rows.length,
    referenceCount: good.length,
  };
  if (isTrained) changes.profile = refreshedProfile(model.profile as FaceProfile, good);
  await modelsRepository.update(tx, model.id, now, changes);
  return { verdicts, referenceCount: good.length };
}

/**
 * "A model is immutable afterwards; photos can be added": the trained identity (the profile's
 * descriptor, what every later photo and face swap is compared with) never changes and the model is
 * never retrained from scratch or replaced. What follows the photos is the set of references the
 * face swap draws from (best per pose) and the landmark statistics, rebuilt around that identity.
 */
function refreshedProfile(trained: FaceProfile, good: ModelPhotoRow[]): FaceProfile {
  return buildFaceProfile(
    good.map((row) => ({ photoId: row.uuid, analysis: row.analysis as FaceAnalysis })),
    undefined,
    { identity: trained.descriptor },
  );
}

function toVerdictJson(
  deps: ModelsDeps,
  entry: Entry,
  verdicts: Map<string, PhotoCheck>,
): TModelPhotoVerdict {
  if (entry.kind === 'file') {
    return {
      uuid: null,
      filename: entry.filename,
      ok: false,
      problems: [entry.problem],
      tips: [],
      pose: null,
      thumbnail_url: null,
    };
  }
  const { photo } = entry;
  const verdict = verdicts.get(photo.uuid)!;
  return {
    uuid: photo.uuid,
    filename: photo.filename,
    ok: verdict.ok,
    problems: verdict.problems,
    tips: verdict.tips,
    pose: verdict.pose,
    thumbnail_url: thumbnailUrl(deps.mediaUrls, photo.keys.thumbnail, deps.now()),
  };
}

/** Deletes one photo of a model and its files; the other photos' verdicts and the counts follow. */
export async function deleteModelPhoto(
  deps: ModelsDeps,
  user: UserRow,
  uuid: string,
  photoUuid: string,
): Promise<TModel> {
  if (!isUuid(uuid)) throw modelNotFound();
  const photoNotFound = () => new AppError({ code: 'models.photo_not_found', detail: 'Not found.' });
  if (!isUuid(photoUuid)) throw photoNotFound();
  const { deleted, model } = await deps.db.transaction(async (tx) => {
    const locked = await modelsRepository.lockOwned(tx, user.id, uuid);
    if (!locked) throw modelNotFound();
    if (isTraining(locked.status)) throw trainingInProgress();
    const row = await modelsRepository.deletePhoto(tx, locked.id, photoUuid);
    if (!row) throw photoNotFound();
    await settleModelPhotos(tx, locked, deps.now());
    return { deleted: row, model: (await modelsRepository.findOwned(tx, user.id, uuid))! };
  });
  // The aligned crop by its fixed key too: a training that ended without completing wrote it
  // but never recorded it on the row.
  const alignedKey = modelPhotoKeys(user.id, uuid, deleted.uuid, 'png').aligned;
  await Promise.all(
    [...new Set([deleted.storageKey, deleted.thumbnailKey, deleted.alignedKey, alignedKey])]
      .filter((key): key is string => Boolean(key))
      .map((key) => deps.storage.delete(key)),
  );
  return modelJson(deps, deps.db, model);
}

// --- Training ------------------------------------------------------------------------------------

const chargeKey = (model: { uuid: string }, attempt: number) => `model:${model.uuid}:train:${attempt}:charge`;
const refundKey = (model: { uuid: string }, attempt: number) => `model:${model.uuid}:train:${attempt}:refund`;

/**
 * Starts training, in one transaction with the model locked: at least MODEL_MIN_PHOTOS good
 * photos, the charge (`model_training_charge`, once per attempt), IN_QUEUE, and the job — so a
 * crash can never leave a charge without a job, or a job without its charge.
 */
export async function startTraining(deps: ModelsDeps, user: UserRow, uuid: string): Promise<TModel> {
  if (!isUuid(uuid)) throw modelNotFound();
  const { minPhotos, trainingPrice } = deps.config.models;
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
    const attempt = model.trainingAttempt + 1;
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
    });
    if (!queued) throw trainingInProgress();
    await addJob(tx, trainModelJob, { modelId: model.id, attempt }, { jobKey: `model-train:${model.id}` });
    return queued;
  });
  return modelJson(deps, deps.db, row);
}

async function refundTraining(
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
 * process's session cache through the users trigger), the in-app notification, and — when the
 * user lets the bot write to them — a Telegram message with a button opening the model in the
 * Mini App. Returns false when the attempt had already ended (or the model was deleted).
 */
export async function completeTraining(
  deps: ModelsDeps,
  model: Pick<ModelRow, 'id' | 'uuid' | 'userId' | 'name' | 'trainingAttempt'>,
  result: { profile: FaceProfile; alignedKeys: Map<string, string> },
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
      },
      { attempt: model.trainingAttempt },
    );
    if (!completed) return null;
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
    if (user.telegramAllowsWrite && user.telegramId) {
      await addJob(tx, sendTelegramMessageJob, {
        chatId: user.telegramId,
        text: translate(user.language, 'bot.model_ready', { name: model.name }),
        openAppUrl: `${deps.config.publicUrl}/model/${model.uuid}/`,
        openAppLabel: translate(user.language, 'bot.open_model'),
      });
    }
    return !user.hasLora;
  });
  if (loraChanged === null) return false;
  // This process's cache must not serve `lora: false` in the moment before the NOTIFY arrives.
  if (loraChanged) deps.sessionCache.forgetUser(model.userId);
  return true;
}

// --- For generations -----------------------------------------------------------------------------

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
