/**
 * How close a picture is to a reference of the same size: PSNR over all RGB values, and SSIM on
 * luminance (the mean over 8×8 windows with a stride of 4, the usual constants for 8-bit images).
 * For tests and benchmarks of the restoring tools.
 */

export interface RgbBytes {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Peak signal-to-noise ratio in dB (higher is closer; identical pictures give Infinity). */
export function psnr(a: RgbBytes, b: RgbBytes, mask?: Uint8Array): number {
  assertSameSize(a, b);
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.data.length; i++) {
    if (mask && !mask[Math.floor(i / 3)]) continue;
    const d = a.data[i]! - b.data[i]!;
    sum += d * d;
    n++;
  }
  return n === 0 || sum === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sum / n));
}

/** Mean absolute difference per RGB value, over the pixels of `mask` (all when absent). */
export function meanAbsoluteError(a: RgbBytes, b: RgbBytes, mask?: Uint8Array): number {
  assertSameSize(a, b);
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.data.length; i++) {
    if (mask && !mask[Math.floor(i / 3)]) continue;
    sum += Math.abs(a.data[i]! - b.data[i]!);
    n++;
  }
  return n === 0 ? 0 : sum / n;
}

/** Structural similarity of the luminance, 0–1 (1: identical). */
export function ssim(a: RgbBytes, b: RgbBytes): number {
  assertSameSize(a, b);
  const la = luma(a);
  const lb = luma(b);
  const { width, height } = a;
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  const window = 8;
  let total = 0;
  let count = 0;
  for (let y = 0; y + window <= height; y += 4) {
    for (let x = 0; x + window <= width; x += 4) {
      let ma = 0;
      let mb = 0;
      for (let v = 0; v < window; v++) {
        for (let u = 0; u < window; u++) {
          const i = (y + v) * width + x + u;
          ma += la[i]!;
          mb += lb[i]!;
        }
      }
      const n = window * window;
      ma /= n;
      mb /= n;
      let va = 0;
      let vb = 0;
      let cov = 0;
      for (let v = 0; v < window; v++) {
        for (let u = 0; u < window; u++) {
          const i = (y + v) * width + x + u;
          const da = la[i]! - ma;
          const db = lb[i]! - mb;
          va += da * da;
          vb += db * db;
          cov += da * db;
        }
      }
      va /= n - 1;
      vb /= n - 1;
      cov /= n - 1;
      total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      count++;
    }
  }
  return count === 0 ? 1 : total / count;
}

function luma(image: RgbBytes): Float32Array {
  const out = new Float32Array(image.width * image.height);
  for (let i = 0; i < out.length; i++) {
    out[i] = 0.299 * image.data[i * 3]! + 0.587 * image.data[i * 3 + 1]! + 0.114 * image.data[i * 3 + 2]!;
  }
  return out;
}

function assertSameSize(a: RgbBytes, b: RgbBytes) {
  if (a.width !== b.width || a.height !== b.height || a.data.length !== b.data.length) {
    throw new Error(`sizes differ: ${a.width}×${a.height} and ${b.width}×${b.height}`);
  }
}
