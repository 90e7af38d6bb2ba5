/**
 * Perceptual fingerprints of photos: a difference hash ("dHash") of a 17×16 greyscale thumbnail,
 * one bit per neighbouring pair of pixels (is the left one darker?), 256 bits as 64 hex digits.
 * A re-saved, resized or recompressed copy of a picture differs in a few bits; another picture,
 * even another crop of the same scene, in many. 256 bits rather than 64 because crops a few
 * percent apart came within the noise of recompression at 64.
 */
export const FINGERPRINT_SIDE = 16;

/** Bits two fingerprints may differ in and still be one picture (of 256). */
export const MAX_COPY_DISTANCE = 40;

/** The hash of a greyscale image of (side + 1) × side pixels, row by row. */
export function differenceHash(grey: Uint8Array, side: number = FINGERPRINT_SIDE): string {
  if (grey.length !== (side + 1) * side) throw new Error(`expected ${(side + 1) * side} grey pixels`);
  let hex = '';
  let nibble = 0;
  let bits = 0;
  for (let row = 0; row < side; row++) {
    for (let column = 0; column < side; column++) {
      const at = row * (side + 1) + column;
      nibble = (nibble << 1) | (grey[at]! < grey[at + 1]! ? 1 : 0);
      if (++bits === 4) {
        hex += nibble.toString(16);
        nibble = 0;
        bits = 0;
      }
    }
  }
  return hex;
}

/** How many bits two fingerprints of the same length differ in. */
export function fingerprintDistance(a: string, b: string): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let distance = 0;
  for (let i = 0; i < a.length; i++) {
    let diff = parseInt(a[i]!, 16) ^ parseInt(b[i]!, 16);
    while (diff) {
      distance += diff & 1;
      diff >>= 1;
    }
  }
  return distance;
}

/**
 * The fingerprint of the horizontally mirrored picture, from the picture's own: mirrored, each
 * row's pairs of neighbours come in reverse order with left and right swapped, so each row's bits
 * are reversed and inverted (pixels of equal brightness aside).
 */
export function mirroredFingerprint(hex: string, side: number = FINGERPRINT_SIDE): string {
  const bits = Array.from(hex, (digit) => parseInt(digit, 16).toString(2).padStart(4, '0')).join('');
  if (bits.length !== side * side) return hex;
  let mirrored = '';
  for (let row = 0; row < side; row++) {
    const rowBits = bits.slice(row * side, (row + 1) * side);
    for (let column = side - 1; column >= 0; column--) mirrored += rowBits[column] === '1' ? '0' : '1';
  }
  let out = '';
  for (let at = 0; at < mirrored.length; at += 4) out += parseInt(mirrored.slice(at, at + 4), 2).toString(16);
  return out;
}

/** How far apart two pictures are, counting a mirrored copy as a copy: the nearer of the two. */
export function copyDistance(a: string, b: string): number {
  return Math.min(fingerprintDistance(a, b), fingerprintDistance(mirroredFingerprint(a), b));
}
