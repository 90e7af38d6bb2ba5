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
import { detectImageType, isUuid, uploadStorageKey } from './uploads.models.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { uploadsRepository, type UploadRow } from './uploads.repository.js';
import { toUploadJson } from './uploads.serializers.js';

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
 * Deletes one of my uploads and its file, so signed links to it stop working at once. Generations
 * made from it keep their results; a queued one that still needs it fails and is refunded.
 */
export async function deleteUpload(deps: UploadsDeps, userId: number, uuid: string): Promise<void> {
  const row = isUuid(uuid) ? await uploadsRepository.deleteOwned(deps.db, userId, uuid) : undefined;
  if (!row) throw uploadNotFound();
  await deps.storage.delete(row.storageKey);
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

/** The caller's own upload by uuid. */
export const findOwnUpload = (db: DbOrTx, userId: number, uuid: string): Promise<UploadRow | undefined> =>
  uploadsRepository.findOwned(db, userId, uuid);

/** Records a stored image as an upload of its owner (e.g. a result published as a post). */
export const recordUpload = (
  db: DbOrTx,
  values: Parameters<typeof uploadsRepository.insert>[1],
): Promise<UploadRow> => uploadsRepository.insert(db, values);
