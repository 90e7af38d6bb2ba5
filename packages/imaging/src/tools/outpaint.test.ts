import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestFaces, type TestFaces } from '../testing/test-faces.js';
import { createPersonSegmenter } from '../video/person-segmentation.js';
import { outpaint, planCanvas } from './outpaint.js';

let faces: TestFaces;

beforeAll(async () => {
  faces = await loadTestFaces();
});

const raw = (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });

describe('planCanvas', () => {
  it('reaches the aspect exactly, growing on the side asked for', () => {
    for (const aspect of ['1:1', '4:5', '3:4', '2:3', '9:16', '16:9'] as const) {
      const plan = planCanvas(512, 600, { aspect });
      const [w, h] = aspect.split(':').map(Number) as [number, number];
      expect(plan.width * h, aspect).toBe(plan.height * w);
      expect(plan.width).toBeGreaterThanOrEqual(512);
      expect(plan.height).toBeGreaterThanOrEqual(600);
    }
    expect(planCanvas(512, 512, { aspect: '16:9', direction: 'left' })).toMatchObject({ left: 912 - 512 });
    expect(planCanvas(512, 512, { aspect: '16:9', direction: 'right' })).toMatchObject({ left: 0 });
    expect(planCanvas(512, 512, { aspect: '9:16', direction: 'up' })).toMatchObject({
      top: 912 - 512,
      left: 0,
    });
  });

  it('adds a share of the photo on one side, or on every side', () => {
    expect(planCanvas(400, 300, { direction: 'right', by: 0.5 })).toEqual({
      width: 600,
      height: 300,
      left: 0,
      top: 0,
    });
    expect(planCanvas(400, 300, { direction: 'up', by: 0.25 })).toEqual({
      width: 400,
      height: 375,
      left: 0,
      top: 75,
    });
    expect(planCanvas(400, 300, { direction: 'all', by: 0.5 })).toEqual({
      width: 600,
      height: 450,
      left: 100,
      top: 75,
    });
  });
});

describe('outpaint', () => {
  it('extends a square portrait to exactly 16:9, keeps every original pixel in place, and shows no seam', async () => {
    const photo = faces.astronaut;
    const original = await raw(photo);
    // With the person left out of the reflection (the way the local engine runs it).
    const result = await outpaint(photo, { aspect: '16:9' }, { seed: 5, segmenter: createPersonSegmenter() });
    expect(result.width * 9).toBe(result.height * 16);
    const out = await raw(result.data);
    expect([out.info.width, out.info.height]).toEqual([result.width, result.height]);
    const plan = planCanvas(original.info.width, original.info.height, { aspect: '16:9' });
    const W = out.info.width;
    const w = original.info.width;
    const h = original.info.height;
    for (let y = 0; y < h; y++) {
      const mine = out.data.subarray(
        ((y + plan.top) * W + plan.left) * 3,
        ((y + plan.top) * W + plan.left + w) * 3,
      );
      const theirs = original.data.subarray(y * w * 3, (y + 1) * w * 3);
      expect(Buffer.compare(mine, theirs), `row ${y}`).toBe(0);
    }
    // The step across each vertical seam, against the step between neighbouring columns inside the photo.
    const step = (x: number) => {
      let sum = 0;
      for (let y = plan.top; y < plan.top + h; y++) {
        for (let c = 0; c < 3; c++)
          sum += Math.abs(out.data[(y * W + x) * 3 + c]! - out.data[(y * W + x - 1) * 3 + c]!);
      }
      return sum / (h * 3);
    };
    let inside = 0;
    for (let x = plan.left + 1; x < plan.left + w; x++) inside += step(x);
    inside /= w - 1;
    expect(step(plan.left)).toBeLessThanOrEqual(inside);
    expect(step(plan.left + w)).toBeLessThanOrEqual(inside);
    // The new canvas is filled (not left black).
    const corner = out.data.subarray(0, 3);
    expect(corner[0]! + corner[1]! + corner[2]!).toBeGreaterThan(30);
  });

  it('adds canvas on one side only', async () => {
    const result = await outpaint(faces.graceHopper, { direction: 'left', by: 0.5 }, { seed: 5 });
    expect([result.width, result.height]).toEqual([768, 600]);
    const out = await raw(result.data);
    const original = await raw(faces.graceHopper);
    expect(Buffer.compare(out.data.subarray(256 * 3, 768 * 3), original.data.subarray(0, 512 * 3))).toBe(0);
    expect(result.notes[0]?.code).toBe('outpaint.extended');
  });
});
