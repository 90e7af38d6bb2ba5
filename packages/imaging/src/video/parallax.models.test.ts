import { describe, expect, it } from 'vitest';
import { fillBehindSubject, isParallaxSubject, solidMatte, subjectStats } from './parallax.models.js';
import { planParallax, type Rect } from './video.models.js';

const SIDE = 64;

function maskOf(value: (x: number, y: number) => number) {
  const data = new Uint8Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) data[y * SIDE + x] = value(x, y);
  return { data, width: SIDE, height: SIDE };
}

const disc = (cx: number, cy: number, r: number) => (x: number, y: number) =>
  Math.hypot(x + 0.5 - cx, y + 0.5 - cy) < r ? 255 : 0;

describe('which photos get the parallax move', () => {
  it('a clear subject of a fair size does, with its centre', () => {
    const stats = subjectStats(maskOf(disc(40, 24, 14)));
    expect(isParallaxSubject(stats)).toBe(true);
    expect(stats.centre.x).toBeCloseTo(40 / SIDE, 1);
    expect(stats.centre.y).toBeCloseTo(24 / SIDE, 1);
  });

  it('a speck, a photo that is all subject, or a mask the model is unsure of does not', () => {
    expect(isParallaxSubject(subjectStats(maskOf(disc(32, 32, 3))))).toBe(false);
    expect(isParallaxSubject(subjectStats(maskOf(() => 255)))).toBe(false);
    // Half-sure everywhere it sees something: a cup or a landscape, not a person.
    expect(isParallaxSubject(subjectStats(maskOf((x, y) => (disc(32, 32, 20)(x, y) ? 140 : 0))))).toBe(false);
  });

  it('the cut-out is solid: holes inside the subject close, the edge stays where it was', () => {
    const holed = maskOf((x, y) => (disc(32, 32, 20)(x, y) && !disc(30, 30, 2)(x, y) ? 230 : 0));
    const matte = solidMatte(holed);
    expect(matte.data[30 * SIDE + 30]).toBe(255);
    expect(matte.data[32 * SIDE + 32]).toBe(255);
    expect(matte.data[2 * SIDE + 2]).toBe(0);
    expect(matte.data[32 * SIDE + 32 + 25]).toBe(0);
  });
});

describe('the background behind the subject', () => {
  it('is filled from around it: no trace of the subject, the rest untouched', () => {
    const width = 256;
    const height = 160;
    const rgb = new Uint8Array(width * height * 3);
    const alpha = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 3;
        // Blue on the left, green on the right; a red subject in the middle.
        const isSubject = Math.hypot(x - 128, y - 80) < 40;
        const colour = isSubject ? [220, 30, 30] : x < 128 ? [30, 60, 200] : [40, 180, 60];
        rgb.set(colour, i);
        alpha[y * width + x] = isSubject ? 255 : 0;
      }
    }
    const filled = fillBehindSubject(rgb, alpha, width, height);
    let red = 0;
    for (let y = 40; y < 120; y++) {
      for (let x = 88; x < 168; x++) {
        if (Math.hypot(x - 128, y - 80) >= 40) continue;
        const i = (y * width + x) * 3;
        if (filled[i]! > 120 && filled[i + 1]! < 100) red++;
      }
    }
    expect(red).toBe(0);
    // Left of the hole the fill leans blue, right of it green.
    const at = (x: number, y: number) =>
      Array.from(filled.subarray((y * width + x) * 3, (y * width + x) * 3 + 3));
    expect(at(100, 80)[2]!).toBeGreaterThan(at(100, 80)[1]!);
    expect(at(156, 80)[1]!).toBeGreaterThan(at(156, 80)[2]!);
    // Far from the subject nothing changed.
    expect(at(5, 5)).toEqual([30, 60, 200]);
    expect(at(250, 150)).toEqual([40, 180, 60]);
  });
});

describe('the parallax plan', () => {
  const plan = planParallax({
    photo: { width: 1200, height: 1600 },
    aspect: '9:16',
    durationSeconds: 3,
    subject: { x: 0.6, y: 0.45 },
  });
  /** Where a canvas point shows in the frame through a window. */
  const project = (window: Rect, x: number, y: number) => ({
    x: ((x - window.left) / window.width) * plan.frame.width,
    y: ((y - window.top) / window.height) * plan.frame.height,
  });

  it('starts with both layers as one picture and ends with the foreground moved and magnified more', () => {
    expect(plan.windows[0]).toEqual(plan.backgroundWindows[0]);
    const last = plan.windows.length - 1;
    const foreground = plan.windows[last]!;
    const background = plan.backgroundWindows[last]!;
    expect(foreground.width).toBeLessThan(background.width);
    // A point at the subject's side: how far it travels on screen in each layer.
    const point = { x: plan.canvas.width * 0.75, y: plan.canvas.height * 0.6 };
    const start = project(plan.windows[0]!, point.x, point.y);
    const near = project(foreground, point.x, point.y);
    const far = project(background, point.x, point.y);
    const travel = (to: { x: number; y: number }) => Math.hypot(to.x - start.x, to.y - start.y);
    expect(travel(near)).toBeGreaterThan(1.8 * travel(far));
    expect(travel(far)).toBeGreaterThan(2);
    // Every window stays inside the canvas.
    for (const window of [...plan.windows, ...plan.backgroundWindows]) {
      expect(window.left).toBeGreaterThanOrEqual(0);
      expect(window.top).toBeGreaterThanOrEqual(0);
      expect(window.left + window.width).toBeLessThanOrEqual(plan.canvas.width);
      expect(window.top + window.height).toBeLessThanOrEqual(plan.canvas.height);
    }
  });
});
