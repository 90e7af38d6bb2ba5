import type { Rgb } from './restore.models.js';

/**
 * Grain and scanner noise smoothed by non-local means: each pixel becomes the average of the
 * pixels within 3 px whose 5×5 neighbourhoods look alike (on luminance), so grain averages away
 * along edges and texture rather than across them, and edges well above the noise stay. Per offset
 * the neighbourhood distances of all pixels come from one box filter: O(pixels × 49). `noise` is
 * the photo's σ; the caller may yield between offsets.
 */
export async function denoise(image: Rgb, noise: number, between?: () => Promise<void>): Promise<Rgb> {
  const search = 3;
  const patch = 2;
  const { width, height, data } = image;
  // Padded copies (edges repeated) so no index is clamped in the inner loops.
  const pad = search + patch;
  const pw = width + 2 * pad;
  const ph = height + 2 * pad;
  const luma = new Float32Array(pw * ph);
  const rgb = new Uint8Array(pw * ph * 3);
  for (let y = 0; y < ph; y++) {
    const sy = Math.min(height - 1, Math.max(0, y - pad));
    for (let x = 0; x < pw; x++) {
      const s = (sy * width + Math.min(width - 1, Math.max(0, x - pad))) * 3;
      const p = y * pw + x;
      rgb[p * 3] = data[s]!;
      rgb[p * 3 + 1] = data[s + 1]!;
      rgb[p * 3 + 2] = data[s + 2]!;
      luma[p] = 0.299 * data[s]! + 0.587 * data[s + 1]! + 0.114 * data[s + 2]!;
    }
  }
  const count = width * height;
  const sumR = new Float32Array(count);
  const sumG = new Float32Array(count);
  const sumB = new Float32Array(count);
  const sumW = new Float32Array(count);
  // Squared differences over the output plus a patch's border, then box sums along rows and columns.
  const rw = width + 2 * patch;
  const rh = height + 2 * patch;
  const diff = new Float32Array(rw * rh);
  const rows = new Float32Array(width * rh);
  const side = 2 * patch + 1;
  const area = side * side;
  // Two patches of pure noise differ by 2σ² per pixel on average: below that they count as alike;
  // the strength h = 0.75σ keeps a little grain (more reads as plastic skin).
  const floor = 2 * noise * noise;
  const h2 = 2 * (0.75 * Math.max(1, noise)) ** 2;
  const steps = 1024;
  const reach = 10;
  const weights = new Float32Array(steps + 1);
  for (let k = 0; k <= steps; k++) weights[k] = k === steps ? 0 : Math.exp(-(k / steps) * reach);
  const toStep = steps / (reach * h2);
  for (let dy = -search; dy <= search; dy++) {
    for (let dx = -search; dx <= search; dx++) {
      const offset = dy * pw + dx;
      for (let y = 0; y < rh; y++) {
        let p = (y + pad - patch) * pw + pad - patch;
        let q = y * rw;
        for (let x = 0; x < rw; x++, p++, q++) {
          const d = luma[p]! - luma[p + offset]!;
          diff[q] = d * d;
        }
      }
      for (let y = 0; y < rh; y++) {
        const row = y * rw;
        let sum = 0;
        for (let x = 0; x < side; x++) sum += diff[row + x]!;
        const out = y * width;
        rows[out] = sum;
        for (let x = 1; x < width; x++) {
          sum += diff[row + x + side - 1]! - diff[row + x - 1]!;
          rows[out + x] = sum;
        }
      }
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let y = 0; y < side; y++) sum += rows[y * width + x]!;
        for (let y = 0; y < height; y++) {
          if (y > 0) sum += rows[(y + side - 1) * width + x]! - rows[(y - 1) * width + x]!;
          const i = y * width + x;
          const excess = sum / area - floor;
          const w = excess <= 0 ? 1 : weights[Math.min(steps, Math.floor(excess * toStep))]!;
          if (w === 0) continue;
          const j = ((y + pad) * pw + x + pad + offset) * 3;
          sumR[i] = sumR[i]! + w * rgb[j]!;
          sumG[i] = sumG[i]! + w * rgb[j + 1]!;
          sumB[i] = sumB[i]! + w * rgb[j + 2]!;
          sumW[i] = sumW[i]! + w;
        }
      }
      await between?.();
    }
  }
  const out = new Uint8Array(data.length);
  for (let i = 0; i < count; i++) {
    out[i * 3] = Math.round(sumR[i]! / sumW[i]!);
    out[i * 3 + 1] = Math.round(sumG[i]! / sumW[i]!);
    out[i * 3 + 2] = Math.round(sumB[i]! / sumW[i]!);
  }
  return { data: out, width, height };
}
