import { AppError } from '../../shared/errors.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { perceptualHash } from './perceptual-hash.js';
import { MATCH_MAX_DISTANCE } from './provenance.models.js';
import { provenanceRepository } from './provenance.repository.js';

/**
 * Keeps a removed picture's perceptual hash so the same picture cannot come back: the hash kept
 * for the generation at creation when there is one, else the hash of `still` (its picture, a
 * video's poster). In the caller's transaction, the one that deletes the picture.
 */
export async function blockPicture(
  tx: DbOrTx,
  picture: { generationId: number; still: () => Promise<Buffer | null>; reason: string; at: Date },
): Promise<boolean> {
  let hash = await provenanceRepository.hashOfGeneration(tx, picture.generationId);
  if (hash === null) {
    const still = await picture.still();
    if (!still) return false;
    hash = await perceptualHash(still);
  }
  await provenanceRepository.block(tx, { hash, reason: picture.reason, createdAt: picture.at });
  return true;
}

export const pictureBlocked = () =>
  new AppError({
    code: 'uploads.blocked',
    detail: 'This picture was removed after a takedown request and cannot be uploaded.',
  });

/**
 * Whether an upload shows a removed picture: the same picture re-encoded, resized or without its
 * metadata is within the same bound the verify page uses for "the same picture".
 */
export async function isPictureBlocked(db: DbOrTx, image: Buffer): Promise<boolean> {
  return provenanceRepository.isBlocked(db, await perceptualHash(image), MATCH_MAX_DISTANCE);
}

/** Refuses an upload of a removed picture (`uploads.blocked`). */
export async function refuseBlockedPicture(db: DbOrTx, image: Buffer): Promise<void> {
  if (await isPictureBlocked(db, image)) throw pictureBlocked();
}
