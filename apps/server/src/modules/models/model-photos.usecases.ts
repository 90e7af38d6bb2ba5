import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  GenerationStatus,
  type TModel,
  type TModelPhotoProblem,
  type TModelPhotosUploaded,
  type TModelPhotoVerdict,
} from '@mirra/contracts';
import type { ModelsDeps } from './models.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { deleteStoredFilesLater, deleteStoredFilesNow } from '../../shared/storage/file-deletion.js';
import { AppError, fieldError } from '../../shared/errors.js';
import {
  alignedFaceCrop,
  buildFaceProfile,
  type FaceProfile,
  type FaceAnalysis,
  checkPhoto,
  type PhotoCheck,
  photoFingerprint,
} from '@mirra/imaging';
import { isPictureBlocked } from '../provenance/index.js';
import { normaliseUploadImage, detectImageType, isUuid } from '../uploads/index.js';
import type { UserRow } from '../users/index.js';
import {
  ALIGNED_CROP_SIZE,
  asCopy,
  compactAnalysis,
  findCopies,
  isSameVerdict,
  isTraining,
  judgeModelPhotos,
  modelPhotoKeys,
  THUMBNAIL_SIDE,
} from './models.models.js';
import { modelsRepository, type ModelPhotoRow, type ModelRow } from './models.repository.js';
import { thumbnailUrl } from './models.serializers.js';
import { modelNotFound, trainingInProgress } from './models.errors.js';
import { modelJson } from './model-json.js';

/** Photo intake of a digital model: checking, storing and judging photos, and deleting one. */

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
  const identity = model.status === GenerationStatus.COMPLETED ? (model.profile?.descriptor ?? null) : null;

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
  // A picture removed after a takedown request is not taken as a model's photo either.
  if (await isPictureBlocked(deps.db, image.data)) return { problem: 'file.blocked' };
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
      .map((row) => ({ id: row.id, analysis: row.analysis, fingerprint: row.fingerprint })),
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
        analysis: row.analysis,
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
  if (isTrained) changes.profile = refreshedProfile(model.profile!, good);
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
    good.map((row) => ({ photoId: row.uuid, analysis: row.analysis })),
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
    // The aligned crop by its fixed key too: a training that ended without completing wrote it
    // but never recorded it on the row.
    const alignedKey = modelPhotoKeys(user.id, uuid, row.uuid, 'png').aligned;
    const keys = [...new Set([row.storageKey, row.thumbnailKey, row.alignedKey, alignedKey])].filter(
      (key): key is string => Boolean(key),
    );
    await deleteStoredFilesLater(tx, { keys });
    return { deleted: { keys }, model: (await modelsRepository.findOwned(tx, user.id, uuid))! };
  });
  await deleteStoredFilesNow(deps.storage, deleted);
  return modelJson(deps, deps.db, model);
}
