import { randomUUID } from 'node:crypto';
import type { TUpload } from '@mirra/contracts';
import type { UploadsDeps } from './uploads.deps.js';
import { fieldError } from '../../shared/errors.js';
import { refuseBlockedPicture } from '../provenance/index.js';
import { normaliseUploadImage } from './upload-images.js';
import {
  emptyFileSubmitted,
  noFileSubmitted,
  uploadNotFound,
  uploadTooBig,
  uploadUnsupported,
} from './uploads.errors.js';
import {
  AUDIO_CONTENT_TYPES,
  AUDIO_MAX_BYTES,
  audioStorageKey,
  derivedUploadUuid,
  detectAudioType,
  detectImageType,
  isUuid,
  uploadStorageKey,
  type UploadAudioType,
} from './uploads.models.js';
import { uploadsRepository } from './uploads.repository.js';
import { toUploadJson } from './uploads.serializers.js';
import type { DbOrTx } from '../../shared/db/client.js';
import {
  deleteStoredFilesLater,
  deleteStoredFilesNow,
  type StoredFiles,
} from '../../shared/storage/file-deletion.js';

export interface UploadedFile {
  data: Buffer;
}

/**
 * Stores a photo for later generations: checks the type by its bytes, refuses oversized files
 * and decompression bombs, re-encodes it without metadata, and keeps it private to the owner.
 * `readFile` is called only after the rate limit, so a throttled client costs no body parsing.
 */
export async function createUpload(
  deps: UploadsDeps,
  userId: number,
  readFile: () => Promise<UploadedFile | null>,
): Promise<TUpload> {
  const { uploads: limits, rateLimits } = deps.config;
  await deps.rateLimiter.hit([
    {
      key: `uploads:user:${userId}`,
      limit: rateLimits.uploadsPerUser,
      windowSeconds: rateLimits.windowSeconds,
    },
  ]);
  const file = await readFile();
  if (!file) throw noFileSubmitted();
  if (file.data.length === 0) throw emptyFileSubmitted();
  if (file.data.length > limits.maxBytes) throw uploadTooBig(limits.maxMegabytes);
  const type = detectImageType(file.data);
  if (!type) {
    const audio = detectAudioType(file.data);
    if (!audio) throw uploadUnsupported();
    return storeRecording(deps, userId, file.data, audio);
  }
  const image = await normaliseUploadImage(file.data, type, {
    maxPixels: limits.maxPixels,
    maxSide: limits.maxSide,
  });
  // A picture removed after a takedown request does not come back by being uploaded again.
  await refuseBlockedPicture(deps.db, image.data);

  const uuid = randomUUID();
  const storageKey = uploadStorageKey(userId, uuid, image.format);
  await deps.storage.put(storageKey, image.data, image.contentType);
  try {
    const row = await uploadsRepository.insert(deps.db, {
      uuid,
      userId,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      bytes: image.data.length,
      storageKey,
    });
    return toUploadJson(deps, row);
  } catch (error) {
    await deps.storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

/**
 * Stores a recorded voice as it came (no width or height): private to its owner like a photo,
 * read only by the engine of the talking photo that names it, and deleted when that generation is
 * done (deleteRecording).
 */
async function storeRecording(
  deps: UploadsDeps,
  userId: number,
  data: Buffer,
  type: UploadAudioType,
): Promise<TUpload> {
  if (data.length > AUDIO_MAX_BYTES) throw uploadTooBig(AUDIO_MAX_BYTES / 1024 / 1024);
  const uuid = randomUUID();
  const storageKey = audioStorageKey(userId, uuid, type);
  const contentType = AUDIO_CONTENT_TYPES[type];
  await deps.storage.put(storageKey, data, contentType);
  try {
    const row = await uploadsRepository.insert(deps.db, {
      uuid,
      userId,
      contentType,
      width: 0,
      height: 0,
      bytes: data.length,
      storageKey,
    });
    return toUploadJson(deps, row);
  } catch (error) {
    await deps.storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

/**
 * Deletes a recorded voice once the generation that said it is done (made or failed for good): it
 * was needed only by that generation's engine. Its file goes at once and, should the store fail,
 * by the retried deletion job added in the same transaction.
 */
export async function deleteRecording(
  deps: Pick<UploadsDeps, 'db' | 'storage'>,
  userId: number,
  uuid: string,
): Promise<void> {
  const files = await deps.db.transaction(async (tx) => {
    // Only a recording: a photo named in its place is the caller's to keep.
    const found = await uploadsRepository.findOwned(tx, userId, uuid);
    if (!found || !found.contentType.startsWith('audio/')) return null;
    const row = await uploadsRepository.deleteOwned(tx, userId, uuid);
    if (!row) return null;
    const files = { keys: [row.storageKey] };
    await deleteStoredFilesLater(tx, files);
    return files;
  });
  if (files) await deleteStoredFilesNow(deps.storage, files);
}

/** One of my uploads; anyone else's is answered exactly like one that does not exist. */
export async function getUpload(deps: UploadsDeps, userId: number, uuid: string): Promise<TUpload> {
  const row = isUuid(uuid) ? await uploadsRepository.findOwned(deps.db, userId, uuid) : undefined;
  if (!row) throw uploadNotFound();
  return toUploadJson(deps, row);
}

/**
 * Deletes one of my uploads and its file, so signed links to it stop working at once (and, should
 * the store fail then, a job added with the deletion removes the file later). Generations
 * made from it keep their results; a queued one that still needs it fails and is refunded.
 */
export async function deleteUpload(deps: UploadsDeps, userId: number, uuid: string): Promise<void> {
  if (!isUuid(uuid)) throw uploadNotFound();
  const files = await deps.db.transaction(async (tx) => {
    const row = await uploadsRepository.deleteOwned(tx, userId, uuid);
    if (!row) throw uploadNotFound();
    const files = { keys: [row.storageKey] };
    await deleteStoredFilesLater(tx, files);
    return files;
  });
  await deleteStoredFilesNow(deps.storage, files);
}

export interface UploadForGeneration {
  uuid: string;
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/** Said of any photo a generation names that is not the caller's (or no longer exists). */
export const UPLOAD_NOT_FOUND_FOR_GENERATION = 'This photo was not found. Upload it again.';

/**
 * The photos a generation will use, in the order given, with their bytes. Any uuid that is
 * unknown, someone else's, or whose file is gone refuses the whole request with a field error on
 * `images` (`generations.image_required`), before anything is charged.
 */
export async function loadUploadsForGeneration(
  deps: UploadsDeps,
  userId: number,
  uuids: string[],
): Promise<UploadForGeneration[]> {
  if (!uuids.length) return [];
  const refuse = () =>
    fieldError('generations.image_required', { images: [UPLOAD_NOT_FOUND_FOR_GENERATION] });
  const wanted = uuids.map((uuid) => uuid.toLowerCase());
  if (!wanted.every(isUuid)) throw refuse();
  const rows = await uploadsRepository.findManyOwned(deps.db, userId, [...new Set(wanted)]);
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  const files = new Map<string, Buffer>();
  const result: UploadForGeneration[] = [];
  for (const uuid of wanted) {
    const row = byUuid.get(uuid);
    if (!row) throw refuse();
    let data = files.get(uuid);
    if (!data) {
      const file = await deps.storage.get(row.storageKey);
      if (!file) throw refuse();
      data = file.data;
      files.set(uuid, data);
    }
    result.push({ uuid, data, contentType: row.contentType, width: row.width, height: row.height });
  }
  return result;
}

/**
 * A server-side copy of a stored picture (a post's or a result's original, JPEG or PNG) as one of
 * the user's uploads, so the browser never downloads and re-uploads it (with S3 that would be a
 * cross-origin fetch needing bucket CORS). `seed` names what is copied: the same seed gives the
 * same upload, also when asked twice at once. Null when the stored file is gone.
 */
export async function copyStoredImageAsUpload(
  deps: Pick<UploadsDeps, 'db' | 'storage' | 'mediaUrls' | 'now'>,
  userId: number,
  seed: string,
  source: { key: string; width: number; height: number; generationId: number },
): Promise<TUpload | null> {
  const uuid = derivedUploadUuid(seed);
  const existing = await uploadsRepository.findOwned(deps.db, userId, uuid);
  if (existing) return toUploadJson(deps, existing);
  const file = await deps.storage.get(source.key);
  if (!file) return null;
  const storageKey = uploadStorageKey(userId, uuid, file.contentType === 'image/jpeg' ? 'jpeg' : 'png');
  await deps.storage.put(storageKey, file.data, file.contentType);
  try {
    const row = await uploadsRepository.insert(deps.db, {
      uuid,
      userId,
      contentType: file.contentType,
      width: source.width,
      height: source.height,
      bytes: file.data.length,
      storageKey,
      copiedFromGenerationId: source.generationId,
    });
    return toUploadJson(deps, row);
  } catch (error) {
    const raced = await uploadsRepository.findOwned(deps.db, userId, uuid);
    if (raced) return toUploadJson(deps, raced);
    throw error;
  }
}

/**
 * Every upload that copies a generation's picture (anyone's), deleted in the caller's transaction
 * with its file deletion queued there too: a picture removed for good leaves no copy behind.
 * Returns the files, to delete at once after the commit.
 */
export async function removeCopiesOfGeneration(tx: DbOrTx, generationId: number): Promise<StoredFiles> {
  const rows = await uploadsRepository.deleteCopiesOf(tx, generationId);
  if (rows.length === 0) return {};
  const files = { keys: rows.map((row) => row.storageKey) };
  await deleteStoredFilesLater(tx, files);
  return files;
}
