import sharp from 'sharp';
import { differenceHash, FINGERPRINT_SIDE } from './photo-fingerprint.models.js';

/**
 * The photo's perceptual fingerprint (see differenceHash): decoded upright, on white, in grey, at
 * (side + 1) × side pixels. Re-saving, resizing or recompressing a picture barely changes it.
 */
export async function photoFingerprint(photo: Buffer): Promise<string> {
  const grey = await sharp(photo, { limitInputPixels: 100_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(FINGERPRINT_SIDE + 1, FINGERPRINT_SIDE, { fit: 'fill' })
    .raw()
    .toBuffer();
  return differenceHash(grey, FINGERPRINT_SIDE);
}
