import { randomUUID } from 'node:crypto';
import type { TUpload } from '@mirra/contracts';
import type { UploadsDeps } from './uploads.deps.js';
import { fieldError } from '../../shared/errors.js';
import { normaliseUploadImage } from './upload-images.js';
import {
  emptyFileSubmitted,
  noFileSubmitted,
  uploadNotFound,
  uploadTooBig,
  uploadUnsupported,
} from './uploads.errors.js';
import { derivedUploadUuid, detectImageType, isUuid, uploadStorageKey } from './uploads.models.js';
import { uploadsRepository } from './uploads.repository.js';
import { toUploadJson } from './uploads.serializers.js';
import { deleteStoredFilesLater, deleteStoredFilesNow } from '../../shared/storage/file-deletion.js';

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
  if (!type) throw uploadUnsupported();
  const image = await normaliseUploadImage(file.data, type, {
    maxPixels: limits.maxPixels,
    maxSide: limits.maxSide,
  });

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
  source: { key: string; width: number; height: number },
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
    });
    return toUploadJson(deps, row);
  } catch (error) {
    const raced = await uploadsRepository.findOwned(deps.db, userId, uuid);
    if (raced) return toUploadJson(deps, raced);
    throw error;
  }
}
