import type { Box, FaceLandmarks } from './faces.types.js';

/**
 * Side of the square the face box is resampled to before it is measured. Fixed, so one threshold
 * fits faces of any size; small, so a face is judged at about the size it is used at (softness
 * that vanishes when a 600 px face is scaled down is no reason to refuse the photo).
 */
export const FACE_CROP_SIZE = 128;

/** Rec. 601 luma of interleaved RGB(A) pixels, 0–255. */
export function toLuminance(pixels: Uint8Array, channels: number): Uint8Array {
  const count = Math.floor(pixels.length / channels);
  const luminance = new Uint8Array(count);
  for (let i = 0, p = 0; i < count; i += 1, p += channels) {
    luminance[i] = Math.round(
      0.299 * (pixels[p] ?? 0) + 0.587 * (pixels[p + 1] ?? 0) + 0.114 * (pixels[p + 2] ?? 0),
    );
  }
  return luminance;
}

export function meanLuminance(luminance: Uint8Array): number {
  if (luminance.length === 0) return 0;
  let sum = 0;
  for (const value of luminance) sum += value;
  return sum / luminance.length;
}

/**
 * Variance of the 4-neighbour Laplacian (the classic focus measure): edges of a sharp face give
 * large second derivatives, a defocused or shaken one has none. Borders are skipped.
 */
export function laplacianVariance(luminance: Uint8Array, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumOfSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const i = y * width + x;
      const value =
        (luminance[i - 1] ?? 0) +
        (luminance[i + 1] ?? 0) +
        (luminance[i - width] ?? 0) +
        (luminance[i + width] ?? 0) -
        4 * (luminance[i] ?? 0);
      sum += value;
      sumOfSquares += value * value;
      count += 1;
    }
  }
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}

/**
 * Focus measure of a face crop: the variance of the Laplacian divided by the squared mean
 * luminance (×10⁴). Dividing by brightness keeps a dim but sharp face from reading as blurry
 * (darkening scales both by the same factor), so low light stays a tip and not a rejection.
 */
export function normalisedSharpness(luminance: Uint8Array, width: number, height: number): number {
  const mean = Math.max(meanLuminance(luminance), 8);
  return (1e4 * laplacianVariance(luminance, width, height)) / (mean * mean);
}

/**
 * A glasses signal from pixels, since Human has no glasses model: the nose bridge between the
 * inner eye corners, from below the eyebrows to just under the eyes, is smooth skin on a bare
 * face, while a frame crosses it as a thin line. The strip is sampled along the eye axis (so a
 * tilted head still gives rows parallel to the frame) and the result is the strongest row's
 * deviation from the rows a little above and below it (a line, not a gradual shadow), in percent
 * of the strip's brightness. `luminance` is the face box resampled to `size`².
 */
export function noseBridgeLineContrast(
  luminance: Uint8Array,
  size: number,
  box: Box,
  landmarks: FaceLandmarks,
): number {
  const toCrop = (point: readonly number[]) => ({
    x: (((point[0] ?? 0) - box.x) / box.width) * size,
    y: (((point[1] ?? 0) - box.y) / box.height) * size,
  });
  const right = toCrop(landmarks.rightEyeInner);
  const left = toCrop(landmarks.leftEyeInner);
  const gap = Math.hypot(left.x - right.x, left.y - right.y);
  if (gap < 4) return 0;
  // u runs along the eyes (image left to right), v down the face, whatever the head's roll.
  const u = { x: (left.x - right.x) / gap, y: (left.y - right.y) / gap };
  const v = { x: -u.y, y: u.x };
  const origin = { x: (left.x + right.x) / 2, y: (left.y + right.y) / 2 };
  const browRight = toCrop(landmarks.rightBrowInner);
  const browLeft = toCrop(landmarks.leftBrowInner);
  const brow = { x: (browRight.x + browLeft.x) / 2 - origin.x, y: (browRight.y + browLeft.y) / 2 - origin.y };
  const browDepth = -(brow.x * v.x + brow.y * v.y);
  if (browDepth < 4) return 0;

  const sample = (x: number, y: number): number => {
    const x0 = Math.min(size - 2, Math.max(0, Math.floor(x)));
    const y0 = Math.min(size - 2, Math.max(0, Math.floor(y)));
    const fx = Math.min(1, Math.max(0, x - x0));
    const fy = Math.min(1, Math.max(0, y - y0));
    const at = (dx: number, dy: number) => luminance[(y0 + dy) * size + x0 + dx] ?? 0;
    return (
      at(0, 0) * (1 - fx) * (1 - fy) +
      at(1, 0) * fx * (1 - fy) +
      at(0, 1) * (1 - fx) * fy +
      at(1, 1) * fx * fy
    );
  };
  // The middle half of the gap keeps the inner brows and eye corners out of the strip.
  const halfWidth = gap / 4;
  const rows: number[] = [];
  for (let t = -browDepth * 0.85; t <= browDepth * 0.3; t += 1) {
    let sum = 0;
    let count = 0;
    for (let s = -halfWidth; s <= halfWidth; s += 1) {
      sum += sample(origin.x + s * u.x + t * v.x, origin.y + s * u.y + t * v.y);
      count += 1;
    }
    rows.push(sum / count);
  }
  const stripMean = rows.reduce((a, b) => a + b, 0) / Math.max(rows.length, 1);
  const reach = Math.max(2, Math.round(browDepth / 8));
  let strongest = 0;
  for (let i = reach; i < rows.length - reach; i += 1) {
    const around = ((rows[i - reach] ?? 0) + (rows[i + reach] ?? 0)) / 2;
    strongest = Math.max(strongest, Math.abs((rows[i] ?? 0) - around));
  }
  return (100 * strongest) / Math.max(stripMean, 16);
}
