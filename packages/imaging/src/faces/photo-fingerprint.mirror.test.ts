import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { astronautPhotos } from '../testing/test-faces.js';
import { photoFingerprint } from './photo-fingerprint.js';
import {
  copyDistance,
  differenceHash,
  fingerprintDistance,
  MAX_COPY_DISTANCE,
  mirroredFingerprint,
} from './photo-fingerprint.models.js';

/** A greyscale image of (side + 1) × side pixels from a brightness function, and its mirror. */
const grey = (side: number, at: (row: number, column: number) => number) =>
  Uint8Array.from({ length: (side + 1) * side }, (_, i) => at(Math.floor(i / (side + 1)), i % (side + 1)));

describe('mirrored copies', () => {
  it('the mirrored fingerprint is the fingerprint of the mirrored picture (no two neighbours equal)', () => {
    const side = 16;
    // Distinct brightness in every row, in no simple order.
    const picture = (row: number, column: number) => ((row * 5 + column * 7) % (side + 1)) * 11 + row;
    const mirror = (row: number, column: number) => picture(row, side - column);
    expect(mirroredFingerprint(differenceHash(grey(side, picture)))).toBe(differenceHash(grey(side, mirror)));
    expect(mirroredFingerprint(mirroredFingerprint('0123456789abcdef'.repeat(4)))).toBe(
      '0123456789abcdef'.repeat(4),
    );
  });

  it('a mirrored, recompressed real portrait is a copy of it; another portrait is not', async () => {
    const [portrait, other] = await astronautPhotos();
    const original = await photoFingerprint(portrait!);
    const mirrored = await photoFingerprint(await sharp(portrait!).flop().jpeg({ quality: 70 }).toBuffer());
    // Compared as they are, the mirror looks like another picture…
    expect(fingerprintDistance(mirrored, original)).toBeGreaterThan(MAX_COPY_DISTANCE);
    // …compared with the mirror taken into account, it is the same one.
    expect(copyDistance(mirrored, original)).toBeLessThanOrEqual(MAX_COPY_DISTANCE);
    expect(copyDistance(original, mirrored)).toBeLessThanOrEqual(MAX_COPY_DISTANCE);
    const another = await photoFingerprint(other!);
    expect(copyDistance(another, original)).toBeGreaterThan(MAX_COPY_DISTANCE);
  });
});
