/**
 * How well a swapped face's colour meets the photo around it, measured on the pixels: the face's
 * skin just inside the cut against the target's skin just outside it, in CIE Lab (ΔE76, where
 * about 2 is a just-noticeable difference and above 10 two clearly different colours). Used by the
 * face swap tests and bench/face-swap-colour.bench.ts.
 */
import { distanceInside } from '../faces/face-blend.models.js';
import { rgbToLab } from '../faces/face-colour.models.js';
import type { Region, RgbImage } from '../faces/face-warp.models.js';

export interface SwapColourMeasurement {
  /** ΔE76 between the mean colour of the face's skin (a band inside the cut, away from its edge) and the surrounding skin (a ring outside it). */
  skinDeltaE: number;
  /**
   * ΔE76 between the face's skin (the inner band) and the skin the target had in the same place:
   * the ring outside the cut is left as it was, so this is how far the skin departs from the
   * surrounding skin beyond the photo's own variation (its light falling off towards the ring).
   */
  skinShift: number;
  /** The part of skinShift in hue alone (a*, b*), leaving lightness out: a colour cast. */
  skinCast: number;
  /** Mean over directions around the face of the ΔE76 between the narrow bands either side of the cut: the colour step at the seam. */
  seamStep: number;
  /** The largest redness (a*) of a pixel on the seam beyond the reddest the target had there, smoothed over 3×3. */
  seamRedExcess: number;
  /** The same two numbers on the target before the swap: its own skin's variation, the floor. */
  before: { skinDeltaE: number; seamStep: number };
}

/** Bands, as fractions of the face's size (the square root of the cut's area). */
const INNER_SKIN = [0.06, 0.16] as const;
const OUTER_SKIN = [0.02, 0.1] as const;
const SEAM_BAND = 0.04;
const SECTORS = 24;

/** Skin by its chroma (YCrCb, the classic Chai–Ngan box widened for shadows), on the target as it was. */
function isSkin(r: number, g: number, b: number): boolean {
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  const cr = 128 + 0.713 * (r - y);
  const cb = 128 + 0.564 * (b - y);
  return y > 35 && cr >= 133 && cr <= 180 && cb >= 77 && cb <= 130;
}

/**
 * Measures the seam of a swap: `before` is the target, `after` the swap's result (same size), and
 * `mask` (over `region`) the pixels that took the new face.
 */
export function measureSwapColour(
  before: RgbImage,
  after: RgbImage,
  region: Region,
  mask: Uint8Array,
): SwapColourMeasurement {
  const { width, height } = before;
  const full = new Uint8Array(width * height);
  const outside = new Uint8Array(width * height).fill(1);
  let area = 0;
  let cx = 0;
  let cy = 0;
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      if (!mask[y * region.width + x]) continue;
      const i = (region.y + y) * width + region.x + x;
      full[i] = 1;
      outside[i] = 0;
      area++;
      cx += region.x + x;
      cy += region.y + y;
    }
  }
  if (!area) throw new Error('the mask is empty');
  cx /= area;
  cy /= area;
  const faceSize = Math.sqrt(area);
  const inDepth = distanceInside(full, width, height);
  const outDepth = distanceInside(outside, width, height);

  const labOf = (image: RgbImage) => {
    const lab = new Float32Array(width * height * 3);
    for (let i = 0; i < width * height; i++) {
      rgbToLab(image.data[i * 3]!, image.data[i * 3 + 1]!, image.data[i * 3 + 2]!, lab, i * 3);
    }
    return lab;
  };
  const labBefore = labOf(before);
  const labAfter = labOf(after);
  const skin = new Uint8Array(width * height);
  let grey = true;
  for (let i = 0; i < skin.length; i++) {
    const [r, g, b] = [before.data[i * 3]!, before.data[i * 3 + 1]!, before.data[i * 3 + 2]!];
    skin[i] = isSkin(r, g, b) ? 1 : 0;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 12) grey = false;
  }
  // A greyscale photo has no skin hue: every pixel that is neither black nor blown out counts.
  if (grey) {
    for (let i = 0; i < skin.length; i++) {
      const l = labBefore[i * 3]!;
      skin[i] = l > 15 && l < 95 ? 1 : 0;
    }
  }

  const within = (value: number, [from, to]: readonly [number, number]) =>
    value >= from * faceSize && value < to * faceSize;
  const deltaE = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

  const measure = (lab: Float32Array) => {
    const inner = [0, 0, 0, 0];
    const outer = [0, 0, 0, 0];
    const sectorIn = Array.from({ length: SECTORS }, () => [0, 0, 0, 0]);
    const sectorOut = Array.from({ length: SECTORS }, () => [0, 0, 0, 0]);
    const add = (sum: number[], i: number) => {
      sum[0]! += lab[i * 3]!;
      sum[1]! += lab[i * 3 + 1]!;
      sum[2]! += lab[i * 3 + 2]!;
      sum[3]! += 1;
    };
    for (let i = 0; i < skin.length; i++) {
      if (!skin[i]) continue;
      const x = i % width;
      const y = (i - x) / width;
      const sector = Math.floor(((Math.atan2(y - cy, x - cx) + Math.PI) / (2 * Math.PI)) * SECTORS) % SECTORS;
      if (full[i]) {
        if (within(inDepth[i]!, INNER_SKIN)) add(inner, i);
        if (inDepth[i]! <= SEAM_BAND * faceSize) add(sectorIn[sector]!, i);
      } else {
        if (within(outDepth[i]!, OUTER_SKIN)) add(outer, i);
        if (outDepth[i]! <= SEAM_BAND * faceSize) add(sectorOut[sector]!, i);
      }
    }
    const mean = (sum: number[]) => [sum[0]! / sum[3]!, sum[1]! / sum[3]!, sum[2]! / sum[3]!];
    const minimum = Math.max(8, (faceSize * faceSize) / 2000);
    const steps: number[] = [];
    for (let s = 0; s < SECTORS; s++) {
      if (sectorIn[s]![3]! < minimum || sectorOut[s]![3]! < minimum) continue;
      steps.push(deltaE(mean(sectorIn[s]!), mean(sectorOut[s]!)));
    }
    if (!inner[3] || !outer[3] || !steps.length) throw new Error('no skin on one side of the cut');
    return {
      innerSkin: mean(inner),
      skinDeltaE: deltaE(mean(inner), mean(outer)),
      seamStep: steps.reduce((a, b) => a + b, 0) / steps.length,
    };
  };

  // Redness on the seam: a* smoothed over 3×3 (one noisy pixel is not an edge), against the
  // reddest the target itself had anywhere on that band.
  const smoothA = (lab: Float32Array, i: number) => {
    const x = i % width;
    const y = (i - x) / width;
    let sum = 0;
    let count = 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        sum += lab[(ny * width + nx) * 3 + 1]!;
        count++;
      }
    }
    return sum / count;
  };
  let reddestBefore = -Infinity;
  let reddestAfter = -Infinity;
  const seamWidth = Math.max(2, SEAM_BAND * faceSize);
  for (let i = 0; i < full.length; i++) {
    const depth = full[i] ? inDepth[i]! : outDepth[i]!;
    if (depth > seamWidth || !skin[i]) continue;
    reddestBefore = Math.max(reddestBefore, smoothA(labBefore, i));
    reddestAfter = Math.max(reddestAfter, smoothA(labAfter, i));
  }
  const swapped = measure(labAfter);
  const original = measure(labBefore);
  return {
    skinDeltaE: swapped.skinDeltaE,
    skinShift: deltaE(swapped.innerSkin, original.innerSkin),
    skinCast: Math.hypot(
      swapped.innerSkin[1]! - original.innerSkin[1]!,
      swapped.innerSkin[2]! - original.innerSkin[2]!,
    ),
    seamStep: swapped.seamStep,
    seamRedExcess: Math.max(0, reddestAfter - reddestBefore),
    before: { skinDeltaE: original.skinDeltaE, seamStep: original.seamStep },
  };
}
