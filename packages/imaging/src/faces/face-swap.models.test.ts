import { describe, expect, it } from 'vitest';
import { poissonBlend, solveMembrane } from './face-blend.models.js';
import { labStats, transferColour } from './face-colour.models.js';
import {
  type Affine,
  applyAffine,
  convexHull,
  delaunay,
  isInsideConvex,
  type Point2,
  polygonArea,
  similarityTransform,
  triangleAffine,
} from './face-geometry.models.js';
import { warpAffineImage, warpTriangles } from './face-warp.models.js';

const close = (a: readonly number[], b: readonly number[], digits = 6) =>
  a.forEach((value, i) => expect(value).toBeCloseTo(b[i]!, digits));

describe('face geometry', () => {
  it('triangulates points into triangles that tile their convex hull', () => {
    const points: Point2[] = [];
    // A jittered grid, like a face mesh: no four points on one circle.
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < 9; x++)
        points.push([x * 10 + ((x * 7 + y * 3) % 5) * 0.7, y * 10 + ((x * 5 + y * 11) % 7) * 0.5]);
    const triangles = delaunay(points);
    const area = (t: [number, number, number]) => polygonArea(t.map((i) => points[i]!));
    const total = triangles.reduce((sum, t) => sum + area(t), 0);
    expect(total).toBeCloseTo(polygonArea(convexHull(points)), 3);
    expect(new Set(triangles.flat()).size).toBe(points.length);
    // Euler: a triangulation of n points with h on the hull has 2n − h − 2 triangles.
    expect(triangles).toHaveLength(2 * points.length - convexHull(points).length - 2);
  });

  it('skips points that fall on an earlier one (a turned face folds its mesh)', () => {
    const triangles = delaunay([
      [0, 0],
      [10, 0],
      [0, 10],
      [0.1, 0.1],
    ]);
    expect(triangles).toHaveLength(1);
  });

  it('finds the affine map of one triangle onto another', () => {
    const from: Point2[] = [
      [0, 0],
      [4, 1],
      [1, 5],
    ];
    const to: Point2[] = [
      [10, 10],
      [18, 14],
      [9, 22],
    ];
    const m = triangleAffine(from, to)!;
    from.forEach((p, i) => close(applyAffine(m, p), to[i]!));
    expect(triangleAffine(from, [to[0]!, to[0]!, to[0]!])).not.toBeNull();
    expect(triangleAffine([from[0]!, from[0]!, from[0]!], to)).toBeNull();
  });

  it('recovers a rotation, scale and shift from points', () => {
    const angle = 0.3;
    const scale = 1.7;
    const truth: Affine = [
      scale * Math.cos(angle),
      -scale * Math.sin(angle),
      scale * Math.sin(angle),
      scale * Math.cos(angle),
      12,
      -4,
    ];
    const from: Point2[] = [
      [0, 0],
      [10, 3],
      [4, 9],
      [-6, 2],
    ];
    const to = from.map((p) => applyAffine(truth, p));
    close(similarityTransform(from, to), truth);
  });

  it('tells inside from outside of a convex outline', () => {
    const square: Point2[] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ];
    expect(isInsideConvex(square, 5, 5)).toBe(true);
    expect(isInsideConvex(square, 11, 5)).toBe(false);
    expect(isInsideConvex([...square].reverse(), 5, 5)).toBe(true);
  });
});

describe('warping pixels', () => {
  const gradient = (width: number, height: number) => {
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        data.set([x * 4, y * 4, 100], (y * width + x) * 3);
      }
    }
    return { data, width, height };
  };

  it('cuts a shifted crop with an affine map', () => {
    const source = gradient(60, 60);
    const crop = warpAffineImage(source, [1, 0, 0, 1, -10, -20], 20, 20);
    // Output pixel (0, 0) shows source pixel (10, 20).
    expect([...crop.data.subarray(0, 3)]).toEqual([40, 80, 100]);
  });

  it('moves each triangle of the source onto the target’s', () => {
    const source = gradient(60, 60);
    const sourcePoints: Point2[] = [
      [0, 0],
      [40, 0],
      [0, 40],
      [40, 40],
    ];
    // The same square shifted by (5, 5): every target pixel reads the source 5 px up-left.
    const targetPoints = sourcePoints.map(([x, y]) => [x + 5, y + 5] as const);
    const warped = warpTriangles(source, sourcePoints, targetPoints, delaunay(targetPoints), {
      x: 0,
      y: 0,
      width: 60,
      height: 60,
    });
    const at = (x: number, y: number) => [...warped.pixels.subarray((y * 60 + x) * 3, (y * 60 + x) * 3 + 3)];
    close(at(25, 30), [80, 100, 100], 3);
    expect(warped.covered[30 * 60 + 25]).toBe(1);
    expect(warped.covered[2 * 60 + 2]).toBe(0);
  });
});

describe('blending', () => {
  const size = 40;
  const insideSquare = (from: number, to: number) => {
    const inside = new Uint8Array(size * size);
    for (let y = from; y < to; y++) for (let x = from; x < to; x++) inside[y * size + x] = 1;
    return inside;
  };

  it('fills a hole with the harmonic membrane (a plane stays a plane), at full and coarse resolution', () => {
    const inside = insideSquare(8, 32);
    const known = new Float32Array(size * size * 3);
    const defined = new Uint8Array(size * size).fill(1);
    for (let i = 0; i < size * size; i++) {
      const x = i % size;
      const y = Math.floor(i / size);
      known.set([x + 2 * y, 50 - x, 7], i * 3);
    }
    for (const coarse of [1, 4]) {
      const solved = solveMembrane(size, size, inside, known, defined, coarse, coarse === 1 ? 400 : 60);
      const i = 20 * size + 20;
      close([...solved.subarray(i * 3, i * 3 + 3)], [60, 30, 7], 0);
    }
  });

  it('blends seamlessly: a face only brighter than the target takes the target’s light', () => {
    const target = new Float32Array(size * size * 3);
    const source = new Float32Array(size * size * 3);
    for (let i = 0; i < size * size; i++) {
      const texture = (i * 37) % 11;
      target.set([100 + texture, 90 + texture, 80 + texture], i * 3);
      source.set([140 + texture, 130 + texture, 120 + texture], i * 3);
    }
    const inside = insideSquare(10, 30);
    const defined = new Uint8Array(size * size).fill(1);
    const blended = poissonBlend(size, size, source, target, inside, defined, 1);
    let worst = 0;
    for (let i = 0; i < blended.length; i++) worst = Math.max(worst, Math.abs(blended[i]! - target[i]!));
    expect(worst).toBeLessThan(1);
  });

  it('clamps outliers along the cut so a dark strand does not spread into the face', () => {
    const target = new Float32Array(size * size * 3).fill(120);
    const source = new Float32Array(size * size * 3).fill(120);
    const inside = insideSquare(10, 30);
    // A dark line crossing the cut at the top.
    for (let x = 18; x < 22; x++) target.set([0, 0, 0], (9 * size + x) * 3);
    const defined = new Uint8Array(size * size).fill(1);
    const plain = poissonBlend(size, size, source, target, inside, defined, 1);
    const robust = poissonBlend(size, size, source, target, inside, defined, 1, 1.5);
    const below = (11 * size + 20) * 3;
    expect(plain[below]).toBeLessThan(100);
    expect(robust[below]).toBeGreaterThan(110);
  });

  it('moves colour statistics onto the target’s in Lab', () => {
    const count = 200;
    const pixels = new Float32Array(count * 3);
    const reference = new Float32Array(count * 3);
    for (let i = 0; i < count; i++) {
      pixels.set([200 - (i % 40), 160 - (i % 30), 140], i * 3);
      reference.set([120 + (i % 20), 80 + (i % 25), 70 + (i % 10)], i * 3);
    }
    const mask = new Uint8Array(count).fill(1);
    const target = labStats(reference, mask);
    transferColour(pixels, mask, labStats(pixels, mask), target, 10);
    const after = labStats(pixels, mask);
    close(after.mean, target.mean, 0);
  });
});
