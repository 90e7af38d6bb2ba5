/*
 * The hole's first guess for the patch fill (patch-fill.models.ts) at its coarsest level, and the
 * patch geometry both share.
 */

/** Patch radius: 7×7 patches. */
export const R = 3;
export const SIDE = 2 * R + 1;

/** RGB floats (0–255), row by row, and which pixels are unknown (1). */
export interface FillLevel {
  rgb: Float32Array;
  hole: Uint8Array;
  width: number;
  height: number;
}

/** Centres whose whole patch lies inside the picture and outside the hole. */
export function validSources(level: FillLevel): Int32Array {
  const { width, height, hole } = level;
  // Column-wise then row-wise "any hole within R" (a dilation of the hole by R).
  const rows = new Uint8Array(hole.length);
  for (let y = 0; y < height; y++) {
    let last = -1_000_000;
    let next = 1_000_000;
    const nextAt = new Int32Array(width);
    for (let x = width - 1; x >= 0; x--) {
      if (hole[y * width + x]) next = x;
      nextAt[x] = next;
    }
    for (let x = 0; x < width; x++) {
      if (hole[y * width + x]) last = x;
      rows[y * width + x] = x - last <= R || nextAt[x]! - x <= R ? 1 : 0;
    }
  }
  const out: number[] = [];
  for (let y = R; y < height - R; y++) {
    for (let x = R; x < width - R; x++) {
      let blocked = false;
      for (let dy = -R; dy <= R && !blocked; dy++) blocked = rows[(y + dy) * width + x] === 1;
      if (!blocked) out.push(y * width + x);
    }
  }
  return Int32Array.from(out);
}

/**
 * The first guess at the coarsest level, in the manner of Criminisi, Pérez and Toyama ("Region
 * Filling and Object Removal by Exemplar-Based Image Inpainting"): the hole is filled from its edge
 * inwards, one patch at a time, the most certain edge point first (most known pixels around it,
 * strongest edge reaching it, so lines are continued into the hole), each time copying the unknown
 * part of the best-matching known patch (an exhaustive search: the level is small).
 */
export function greedyFill(rgb: Float32Array, level: FillLevel): void {
  const { width, height } = level;
  const known = Uint8Array.from(level.hole, (v) => 1 - v);
  const confidence = Float32Array.from(known);
  const sources = validSources(level);
  if (sources.length === 0) {
    diffuse(rgb, level);
    return;
  }
  let remaining = level.hole.reduce((sum, v) => sum + v, 0);
  const gradientAt = (i: number) => {
    const x = i % width;
    const y = (i - x) / width;
    if (x === 0 || y === 0 || x === width - 1 || y === height - 1) return 0;
    if (!known[i - 1] || !known[i + 1] || !known[i - width] || !known[i + width]) return 0;
    let g = 0;
    for (let c = 0; c < 3; c++) {
      const gx = rgb[(i + 1) * 3 + c]! - rgb[(i - 1) * 3 + c]!;
      const gy = rgb[(i + width) * 3 + c]! - rgb[(i - width) * 3 + c]!;
      g += gx * gx + gy * gy;
    }
    return Math.sqrt(g) / 255;
  };
  while (remaining > 0) {
    let best = -1;
    let bestPriority = -1;
    for (let i = 0; i < known.length; i++) {
      if (known[i]) continue;
      const x = i % width;
      const y = (i - x) / width;
      const front =
        (x > 0 && known[i - 1]) ||
        (x < width - 1 && known[i + 1]) ||
        (y > 0 && known[i - width]) ||
        (y < height - 1 && known[i + width]);
      if (!front) continue;
      let c = 0;
      let edge = 0;
      for (let dy = -R; dy <= R; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -R; dx <= R; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const q = yy * width + xx;
          c += confidence[q]!;
          if (known[q]) edge = Math.max(edge, gradientAt(q));
        }
      }
      const priority = (c / (SIDE * SIDE)) * (0.05 + edge);
      if (priority > bestPriority) {
        bestPriority = priority;
        best = i;
      }
    }
    if (best < 0) break;
    const x = best % width;
    const y = (best - x) / width;
    let match = sources[0]!;
    let matchCost = Infinity;
    for (let s = 0; s < sources.length; s++) {
      const source = sources[s]!;
      const sx = source % width;
      const sy = (source - sx) / width;
      // A faint pull towards nearby sources: the same wall rather than a similar one across the photo.
      let cost = ((sx - x) ** 2 + (sy - y) ** 2) * 0.5;
      for (let dy = -R; dy <= R && cost < matchCost; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -R; dx <= R; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const q = yy * width + xx;
          if (!known[q]) continue;
          const a = q * 3;
          const b = ((sy + dy) * width + sx + dx) * 3;
          const d0 = rgb[a]! - rgb[b]!;
          const d1 = rgb[a + 1]! - rgb[b + 1]!;
          const d2 = rgb[a + 2]! - rgb[b + 2]!;
          cost += d0 * d0 + d1 * d1 + d2 * d2;
        }
      }
      if (cost < matchCost) {
        matchCost = cost;
        match = source;
      }
    }
    const mx = match % width;
    const my = (match - mx) / width;
    let c = 0;
    for (let dy = -R; dy <= R; dy++) {
      for (let dx = -R; dx <= R; dx++) {
        const yy = y + dy;
        const xx = x + dx;
        if (yy >= 0 && yy < height && xx >= 0 && xx < width) c += confidence[yy * width + xx]!;
      }
    }
    c /= SIDE * SIDE;
    for (let dy = -R; dy <= R; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= height) continue;
      for (let dx = -R; dx <= R; dx++) {
        const xx = x + dx;
        if (xx < 0 || xx >= width) continue;
        const q = yy * width + xx;
        if (known[q]) continue;
        const b = ((my + dy) * width + mx + dx) * 3;
        rgb[q * 3] = rgb[b]!;
        rgb[q * 3 + 1] = rgb[b + 1]!;
        rgb[q * 3 + 2] = rgb[b + 2]!;
        known[q] = 1;
        confidence[q] = c;
        remaining--;
      }
    }
  }
}

/** A smooth first guess: the hole's border colours spread inwards (repeated neighbour averages). */
function diffuse(rgb: Float32Array, level: FillLevel): void {
  const { width, height, hole } = level;
  const inside: number[] = [];
  for (let i = 0; i < hole.length; i++) if (hole[i]) inside.push(i);
  if (inside.length === 0) return;
  const known = Uint8Array.from(hole, (v) => 1 - v);
  // Grow inwards ring by ring, then smooth.
  let frontier = true;
  while (frontier) {
    frontier = false;
    const newly: number[] = [];
    for (const i of inside) {
      if (known[i]) continue;
      const x = i % width;
      const y = (i - x) / width;
      const sum = [0, 0, 0];
      let count = 0;
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
        [1, 1],
        [-1, -1],
        [1, -1],
        [-1, 1],
      ] as const) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const n = ny * width + nx;
        if (!known[n]) continue;
        for (let c = 0; c < 3; c++) sum[c]! += rgb[n * 3 + c]!;
        count++;
      }
      if (count === 0) continue;
      for (let c = 0; c < 3; c++) rgb[i * 3 + c] = sum[c]! / count;
      newly.push(i);
    }
    for (const i of newly) known[i] = 1;
    frontier = newly.length > 0;
  }
  for (let pass = 0; pass < 20; pass++) {
    for (const i of inside) {
      const x = i % width;
      const y = (i - x) / width;
      for (let c = 0; c < 3; c++) {
        const l = rgb[(y * width + Math.max(0, x - 1)) * 3 + c]!;
        const r = rgb[(y * width + Math.min(width - 1, x + 1)) * 3 + c]!;
        const u = rgb[(Math.max(0, y - 1) * width + x) * 3 + c]!;
        const d = rgb[(Math.min(height - 1, y + 1) * width + x) * 3 + c]!;
        rgb[i * 3 + c] = (l + r + u + d) / 4;
      }
    }
  }
}
