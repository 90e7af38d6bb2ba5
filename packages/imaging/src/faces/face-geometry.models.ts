/**
 * Plane geometry for moving a face from one photo onto another: triangulation of the face mesh,
 * the affine map of each triangle, similarity transforms, and the face outline. Pure functions.
 */

export type Point2 = readonly [x: number, y: number];

/** A 2×3 matrix [a, b, c, d, e, f]: x' = a·x + b·y + e, y' = c·x + d·y + f (as in alignmentTransform). */
export type Affine = [number, number, number, number, number, number];

/**
 * The face outline of the MediaPipe face mesh ("silhouette"), clockwise from the top of the
 * forehead: what a swapped face is cut along.
 */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149,
  150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
] as const;

/** Points of the mesh that describe the face surface (the iris points 468–477 are left out). */
export const MESH_SURFACE_POINTS = 468;

export function applyAffine(m: Affine, [x, y]: Point2): [number, number] {
  return [m[0] * x + m[1] * y + m[4], m[2] * x + m[3] * y + m[5]];
}

export function invertAffine(m: Affine): Affine | null {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (Math.abs(det) < 1e-12) return null;
  const ia = d / det;
  const ib = -b / det;
  const ic = -c / det;
  const id = a / det;
  return [ia, ib, ic, id, -(ia * e + ib * f), -(ic * e + id * f)];
}

/** The affine map taking triangle `from` onto triangle `to` (null when `from` is degenerate). */
export function triangleAffine(from: readonly Point2[], to: readonly Point2[]): Affine | null {
  const [p0, p1, p2] = from;
  const [q0, q1, q2] = to;
  if (!p0 || !p1 || !p2 || !q0 || !q1 || !q2) return null;
  // Map the unit basis of `from` (edges from p0) to that of `to`.
  const base: Affine = [p1[0] - p0[0], p2[0] - p0[0], p1[1] - p0[1], p2[1] - p0[1], p0[0], p0[1]];
  const toUnit = invertAffine(base);
  if (!toUnit) return null;
  const target: Affine = [q1[0] - q0[0], q2[0] - q0[0], q1[1] - q0[1], q2[1] - q0[1], q0[0], q0[1]];
  return composeAffine(target, toUnit);
}

/** `outer ∘ inner`: first inner, then outer. */
export function composeAffine(outer: Affine, inner: Affine): Affine {
  const [a, b, c, d, e, f] = outer;
  const [A, B, C, D, E, F] = inner;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, a * E + b * F + e, c * E + d * F + f];
}

/**
 * The rotation, uniform scale and translation that best maps `from` onto `to` in the least-squares
 * sense (Umeyama, without reflection): how a whole face is moved when its shape must not change.
 */
export function similarityTransform(from: readonly Point2[], to: readonly Point2[]): Affine {
  const n = Math.min(from.length, to.length);
  if (n === 0) return [1, 0, 0, 1, 0, 0];
  let fx = 0;
  let fy = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i]![0] / n;
    fy += from[i]![1] / n;
    tx += to[i]![0] / n;
    ty += to[i]![1] / n;
  }
  // With complex numbers z = x + iy the best similarity is t = Σ conj(f)·g / Σ |f|².
  let re = 0;
  let im = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const ax = from[i]![0] - fx;
    const ay = from[i]![1] - fy;
    const bx = to[i]![0] - tx;
    const by = to[i]![1] - ty;
    re += ax * bx + ay * by;
    im += ax * by - ay * bx;
    norm += ax * ax + ay * ay;
  }
  if (norm === 0) return [1, 0, 0, 1, tx - fx, ty - fy];
  const a = re / norm;
  const s = im / norm;
  return [a, -s, s, a, tx - (a * fx - s * fy), ty - (s * fx + a * fy)];
}

/** Convex hull (Andrew's monotone chain), counter-clockwise in image coordinates' math sense. */
export function convexHull(points: readonly Point2[]): Point2[] {
  const sorted = [...points].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  if (sorted.length < 3) return sorted;
  const cross = (o: Point2, a: Point2, b: Point2) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point2[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Point2[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return [...lower, ...upper];
}

export function polygonArea(polygon: readonly Point2[]): number {
  let area = 0;
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i]!;
    const q = polygon[(i + 1) % polygon.length]!;
    area += p[0] * q[1] - q[0] * p[1];
  }
  return Math.abs(area) / 2;
}

export function centroid(points: readonly Point2[]): [number, number] {
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p[0] / points.length;
    y += p[1] / points.length;
  }
  return [x, y];
}

/** The polygon scaled by `factor` about its centroid (below 1 pulls the outline inwards). */
export function scalePolygon(polygon: readonly Point2[], factor: number): Point2[] {
  const [cx, cy] = centroid(polygon);
  return polygon.map(([x, y]) => [cx + (x - cx) * factor, cy + (y - cy) * factor] as const);
}

/** Whether a point lies inside a convex polygon (either winding). */
export function isInsideConvex(polygon: readonly Point2[], x: number, y: number): boolean {
  let sign = 0;
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i]!;
    const q = polygon[(i + 1) % polygon.length]!;
    const cross = (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
    if (cross === 0) continue;
    const s = cross > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

/**
 * Delaunay triangulation (Bowyer–Watson) of points in the plane, as index triples into `points`.
 * Points closer than half a pixel to an earlier one are skipped (a turned face's mesh folds points
 * onto each other); their triangles are covered by the neighbours'. O(n²), ~10 ms for a face mesh.
 */
export function delaunay(points: readonly Point2[]): [number, number, number][] {
  const kept: number[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) continue;
    const key = `${Math.round(p[0] * 2)},${Math.round(p[1] * 2)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(i);
  }
  if (kept.length < 3) return [];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const i of kept) {
    const [x, y] = points[i]!;
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  const span = Math.max(maxX - minX, maxY - minY, 1) * 20;
  const midX = (minX + maxX) / 2;
  const midY = (minY + maxY) / 2;
  // Vertex list: the input points, then the three corners of a triangle enclosing them all.
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const superStart = points.length;
  xs.push(midX - span, midX, midX + span);
  ys.push(midY - span, midY + span, midY - span);

  interface Triangle {
    a: number;
    b: number;
    c: number;
    cx: number;
    cy: number;
    r2: number;
  }
  const makeTriangle = (a: number, b: number, c: number): Triangle => {
    const ax = xs[a]!;
    const ay = ys[a]!;
    const bx = xs[b]!;
    const by = ys[b]!;
    const cx = xs[c]!;
    const cy = ys[c]!;
    const d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
    if (Math.abs(d) < 1e-12) return { a, b, c, cx: 0, cy: 0, r2: Infinity };
    const a2 = ax * ax + ay * ay;
    const b2 = bx * bx + by * by;
    const c2 = cx * cx + cy * cy;
    const ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
    const uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
    return { a, b, c, cx: ux, cy: uy, r2: (ax - ux) ** 2 + (ay - uy) ** 2 };
  };

  let triangles: Triangle[] = [makeTriangle(superStart, superStart + 1, superStart + 2)];
  for (const p of kept) {
    const px = xs[p]!;
    const py = ys[p]!;
    const bad: Triangle[] = [];
    const good: Triangle[] = [];
    for (const t of triangles) {
      if ((px - t.cx) ** 2 + (py - t.cy) ** 2 <= t.r2 * (1 + 1e-9)) bad.push(t);
      else good.push(t);
    }
    // The hole's outline: edges of exactly one bad triangle.
    const edges = new Map<string, [number, number]>();
    for (const t of bad) {
      for (const [u, v] of [
        [t.a, t.b],
        [t.b, t.c],
        [t.c, t.a],
      ] as const) {
        const key = u < v ? `${u},${v}` : `${v},${u}`;
        if (edges.has(key)) edges.delete(key);
        else edges.set(key, [u, v]);
      }
    }
    for (const [u, v] of edges.values()) good.push(makeTriangle(u, v, p));
    triangles = good;
  }
  return triangles
    .filter((t) => t.a < superStart && t.b < superStart && t.c < superStart)
    .map((t) => [t.a, t.b, t.c]);
}
