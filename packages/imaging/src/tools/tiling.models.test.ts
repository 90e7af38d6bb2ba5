import { describe, expect, it } from 'vitest';
import { axisWeights, mirrorIndex, planAxis, runTiled } from './tiling.models.js';

/** A picture with structure in both directions, so a misplaced tile shows. */
function pattern(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      data[p] = (x * 37 + y * 11) % 256;
      data[p + 1] = (x * y) % 256;
      data[p + 2] = (x * 5 + y * 23) % 256;
    }
  }
  return data;
}

/** A stand-in "model": a 3×3 box blur (a convolution with zero padding, as the network's) then
 * nearest-neighbour enlargement. */
function blurThenEnlarge(scale: number) {
  return async (tile: { pixels: Float32Array; width: number; height: number }) => {
    const { pixels, width, height } = tile;
    const out = new Float32Array(width * scale * height * scale * 3);
    for (let y = 0; y < height * scale; y++) {
      for (let x = 0; x < width * scale; x++) {
        const sx = Math.floor(x / scale);
        const sy = Math.floor(y / scale);
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              const nx = sx + dx;
              const ny = sy + dy;
              if (nx >= 0 && ny >= 0 && nx < width && ny < height) sum += pixels[(ny * width + nx) * 3 + c]!;
            }
          }
          out[(y * width * scale + x) * 3 + c] = sum / 9;
        }
      }
    }
    return out;
  };
}

describe('tiled super-resolution', () => {
  it('splits an axis into nearly equal cores that cover it once', () => {
    for (const [length, core] of [
      [100, 32],
      [33, 32],
      [7, 32],
      [1024, 112],
    ] as const) {
      const spans = planAxis(length, core);
      expect(spans[0]!.start).toBe(0);
      let end = 0;
      for (const span of spans) {
        expect(span.start).toBe(end);
        expect(span.size).toBeLessThanOrEqual(core);
        end = span.start + span.size;
      }
      expect(end).toBe(length);
      const sizes = spans.map((span) => span.size);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it('mirrors indices past the edges and cross-fades neighbours over the margin', () => {
    expect([-2, -1, 0, 4, 5, 6].map((i) => mirrorIndex(i, 5))).toEqual([2, 1, 0, 4, 3, 2]);
    expect(mirrorIndex(-3, 1)).toBe(0);
    const weights = axisWeights(10, 4, 2);
    expect(weights.length).toBe(36);
    expect(weights[0]).toBe(0);
    expect(weights[18]).toBe(1);
    // The weights of two neighbours (offset by one core) never sum to zero where they overlap.
    for (let u = 20; u < 36; u++) expect(weights[u]! + weights[u - 20]!).toBeGreaterThan(0);
  });

  it('gives the same picture as one pass over the whole photo, with no seams, reporting each tile', async () => {
    for (const scale of [2, 4]) {
      const image = { data: pattern(45, 38), width: 45, height: 38 };
      const infer = blurThenEnlarge(scale);
      const whole = await runTiled({ image, scale, core: 1000, margin: 4, infer });
      const fractions: number[] = [];
      const tiled = await runTiled({
        image,
        scale,
        core: 12,
        margin: 4,
        infer,
        afterTile: (fraction) => {
          fractions.push(fraction);
        },
      });
      expect(tiled.width).toBe(45 * scale);
      expect(tiled.height).toBe(38 * scale);
      let worst = 0;
      for (let i = 0; i < whole.data.length; i++)
        worst = Math.max(worst, Math.abs(whole.data[i]! - tiled.data[i]!));
      expect(worst).toBeLessThanOrEqual(1);
      expect(fractions.length).toBe(4 * 4);
      expect(fractions.at(-1)).toBe(1);
      expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    }
  });

  it('shows seams when tiles get no margin (what the margin is for)', async () => {
    const image = { data: pattern(45, 38), width: 45, height: 38 };
    const infer = blurThenEnlarge(2);
    const whole = await runTiled({ image, scale: 2, core: 1000, margin: 4, infer });
    const bare = await runTiled({ image, scale: 2, core: 12, margin: 0, infer });
    let worst = 0;
    for (let i = 0; i < whole.data.length; i++)
      worst = Math.max(worst, Math.abs(whole.data[i]! - bare.data[i]!));
    expect(worst).toBeGreaterThan(20);
  });
});
