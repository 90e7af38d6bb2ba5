import { createRng, type Rng } from '../raster/random.js';
import { type FillLevel, greedyFill, R, SIDE, validSources } from './patch-fill.first-guess.models.js';

export type { FillLevel } from './patch-fill.first-guess.models.js';

/*
 * Exemplar-based hole filling in the manner of Wexler, Shechtman and Irani ("Space-Time Completion
 * of Video") with Barnes et al.'s PatchMatch as the nearest-neighbour search: on a pyramid from
 * coarse to fine, every 7×7 patch that touches the hole is matched to the most similar patch
 * wholly outside it, and each hole pixel becomes the similarity-weighted vote of the patches over
 * it; repeated, the hole fills with the photo's own texture, continued across the hole's edge
 * (which is why no seam shows). Pure arithmetic on float RGB, deterministic for a seed.
 */

export interface FillOptions {
  seed: number;
  /**
   * The finest level is searched only while it has at most this many patches to match; above it
   * the next levels copy from the coarser matches (pixels at full detail, no new search), which
   * keeps a large outpaint within seconds.
   */
  maxTargets?: number;
  /** Awaited between iterations with the share done (0–1): progress, stopping and a yield. */
  progress?: (fraction: number) => Promise<void>;
}

const COARSEST_SIDE = 56;

/** Fills `level.rgb` where `level.hole` is 1 and returns the filled copy. */
export async function fillHole(level: FillLevel, options: FillOptions): Promise<Float32Array> {
  const rng = createRng(options.seed >>> 0 || 1);
  const pyramid: FillLevel[] = [level];
  while (Math.max(pyramid[0]!.width, pyramid[0]!.height) > COARSEST_SIDE * 1.5) {
    const finer = pyramid[0]!;
    if (Math.min(finer.width, finer.height) < SIDE * 4) break;
    pyramid.unshift(downsample(finer));
  }
  const coarsest = pyramid[0]!;
  let current = Float32Array.from(coarsest.rgb);
  greedyFill(current, coarsest);
  let field: Field | null = null;
  for (let index = 0; index < pyramid.length; index++) {
    const at = pyramid[index]!;
    if (index > 0) {
      const previous = pyramid[index - 1]!;
      field = upsampleField(field!, previous, at);
      current = Float32Array.from(at.rgb);
      const targets = countTargets(at);
      if (targets > (options.maxTargets ?? 160_000)) {
        copyThroughField(current, at, field);
        continue;
      }
      vote(current, at, field, rng);
    }
    const sources = validSources(at);
    if (sources.length === 0) return current;
    field ??= randomField(at, sources, rng);
    const iterations = index === 0 ? 8 : index < pyramid.length - 1 ? 4 : 3;
    for (let it = 0; it < iterations; it++) {
      patchMatch(current, at, field, sources, rng, it);
      vote(current, at, field, rng);
      // Each level has about four times the pixels of the one before: weigh progress by that.
      if (options.progress) {
        const before = (4 ** index - 1) / 3;
        await options.progress(
          (before + (4 ** index * (it + 1)) / iterations) / ((4 ** pyramid.length - 1) / 3),
        );
      }
    }
  }
  return current;
}

/** The nearest-neighbour field: for each target patch centre, its source centre and distance. */
interface Field {
  /** Target centres (pixel indices) in scan order. */
  targets: Int32Array;
  sx: Int32Array;
  sy: Int32Array;
  dist: Float64Array;
  width: number;
}

function downsample(level: FillLevel): FillLevel {
  const width = Math.max(1, level.width >> 1);
  const height = Math.max(1, level.height >> 1);
  const rgb = new Float32Array(width * height * 3);
  const hole = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let known = 0;
      const sum = [0, 0, 0];
      let unknown = 0;
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const fx = Math.min(level.width - 1, 2 * x + dx);
          const fy = Math.min(level.height - 1, 2 * y + dy);
          const f = fy * level.width + fx;
          if (level.hole[f]) {
            unknown++;
            continue;
          }
          known++;
          for (let c = 0; c < 3; c++) sum[c]! += level.rgb[f * 3 + c]!;
        }
      }
      const i = y * width + x;
      // Any unknown pixel makes the coarse pixel unknown: the sources stay free of the hole.
      hole[i] = unknown > 0 ? 1 : 0;
      for (let c = 0; c < 3; c++) rgb[i * 3 + c] = known > 0 ? sum[c]! / known : 0;
    }
  }
  return { rgb, hole, width, height };
}

/** Centres whose patch touches the hole: the hole dilated by R. */
function targetsOf(level: FillLevel): Int32Array {
  const { width, height, hole } = level;
  const out: number[] = [];
  const mark = new Uint8Array(hole.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!hole[y * width + x]) continue;
      for (let dy = -R; dy <= R; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -R; dx <= R; dx++) {
          const xx = x + dx;
          if (xx >= 0 && xx < width) mark[yy * width + xx] = 1;
        }
      }
    }
  }
  for (let i = 0; i < mark.length; i++) if (mark[i]) out.push(i);
  return Int32Array.from(out);
}

function countTargets(level: FillLevel): number {
  let holes = 0;
  for (let i = 0; i < level.hole.length; i++) holes += level.hole[i]!;
  return holes;
}

function randomField(level: FillLevel, sources: Int32Array, rng: Rng): Field {
  const targets = targetsOf(level);
  const sx = new Int32Array(targets.length);
  const sy = new Int32Array(targets.length);
  for (let t = 0; t < targets.length; t++) {
    const s = sources[Math.floor(rng() * sources.length)]!;
    sx[t] = s % level.width;
    sy[t] = (s - sx[t]!) / level.width;
  }
  return { targets, sx, sy, dist: new Float64Array(targets.length).fill(Infinity), width: level.width };
}

/** Sum of squared differences between the patch at target (tx, ty) and the one at source (sx, sy). */
function distance(
  rgb: Float32Array,
  width: number,
  height: number,
  tx: number,
  ty: number,
  sx: number,
  sy: number,
  limit: number,
): number {
  let sum = 0;
  for (let dy = -R; dy <= R; dy++) {
    const y = ty + dy;
    if (y < 0 || y >= height) continue;
    const trow = y * width;
    const srow = (sy + dy) * width;
    for (let dx = -R; dx <= R; dx++) {
      const x = tx + dx;
      if (x < 0 || x >= width) continue;
      const a = (trow + x) * 3;
      const b = (srow + sx + dx) * 3;
      const d0 = rgb[a]! - rgb[b]!;
      const d1 = rgb[a + 1]! - rgb[b + 1]!;
      const d2 = rgb[a + 2]! - rgb[b + 2]!;
      sum += d0 * d0 + d1 * d1 + d2 * d2;
    }
    if (sum > limit) return sum;
  }
  return sum;
}

function isSource(valid: Uint8Array, width: number, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < width && valid[y * width + x] === 1;
}

/** One PatchMatch sweep: propagation from the neighbours already visited, then random search. */
function patchMatch(
  rgb: Float32Array,
  level: FillLevel,
  field: Field,
  sources: Int32Array,
  rng: Rng,
  iteration: number,
): void {
  const { width, height } = level;
  const valid = new Uint8Array(width * height);
  for (let i = 0; i < sources.length; i++) valid[sources[i]!] = 1;
  const slot = new Int32Array(width * height).fill(-1);
  for (let t = 0; t < field.targets.length; t++) slot[field.targets[t]!] = t;
  const { targets, sx, sy, dist } = field;
  for (let t = 0; t < targets.length; t++) {
    const p = targets[t]!;
    const x = p % width;
    dist[t] = distance(rgb, width, height, x, (p - x) / width, sx[t]!, sy[t]!, Infinity);
  }
  const backwards = iteration % 2 === 1;
  const step = backwards ? -1 : 1;
  const maxRadius = Math.max(width, height);
  for (let k = 0; k < targets.length; k++) {
    const t = backwards ? targets.length - 1 - k : k;
    const p = targets[t]!;
    const x = p % width;
    const y = (p - x) / width;
    let bx = sx[t]!;
    let by = sy[t]!;
    let best = dist[t]!;
    const tryCandidate = (cx: number, cy: number) => {
      if (!isSource(valid, width, cx, cy)) return;
      const d = distance(rgb, width, height, x, y, cx, cy, best);
      if (d < best) {
        best = d;
        bx = cx;
        by = cy;
      }
    };
    for (const [nx, ny] of [
      [x - step, y],
      [x, y - step],
    ] as const) {
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const n = slot[ny * width + nx]!;
      if (n < 0) continue;
      tryCandidate(sx[n]! + (x - nx), sy[n]! + (y - ny));
    }
    for (let radius = maxRadius; radius >= 1; radius >>= 1) {
      tryCandidate(bx + Math.round((rng() * 2 - 1) * radius), by + Math.round((rng() * 2 - 1) * radius));
    }
    sx[t] = bx;
    sy[t] = by;
    dist[t] = best;
  }
}

/**
 * Every hole pixel becomes the weighted mean of what the patches over it propose; a patch's weight
 * falls with its match distance, so the best-matching texture wins instead of a blur of all.
 */
function vote(rgb: Float32Array, level: FillLevel, field: Field, _rng: Rng): void {
  const { width, height, hole } = level;
  const { targets, sx, sy, dist } = field;
  const finite: number[] = [];
  for (let t = 0; t < dist.length; t++) if (Number.isFinite(dist[t]!)) finite.push(dist[t]!);
  finite.sort((a, b) => a - b);
  const sigma2 = Math.max(1, finite.length > 0 ? finite[Math.floor(finite.length * 0.75)]! : 1);
  const acc = new Float64Array(width * height * 3);
  const weight = new Float64Array(width * height);
  const depth = holeDepth(level);
  for (let t = 0; t < targets.length; t++) {
    const p = targets[t]!;
    const x = p % width;
    const y = (p - x) / width;
    const d = Number.isFinite(dist[t]!) ? dist[t]! : sigma2 * 4;
    // Patches nearer the known edge are surer (Wexler et al.'s 1.3^-distance): the edge leads.
    const w = (Math.exp(-d / (2 * sigma2)) + 1e-6) * Math.pow(1.3, -depth[p]!);
    for (let dy = -R; dy <= R; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= height) continue;
      for (let dx = -R; dx <= R; dx++) {
        const xx = x + dx;
        if (xx < 0 || xx >= width) continue;
        const q = yy * width + xx;
        if (!hole[q]) continue;
        const s = ((sy[t]! + dy) * width + sx[t]! + dx) * 3;
        acc[q * 3]! += rgb[s]! * w;
        acc[q * 3 + 1]! += rgb[s + 1]! * w;
        acc[q * 3 + 2]! += rgb[s + 2]! * w;
        weight[q]! += w;
      }
    }
  }
  for (let q = 0; q < hole.length; q++) {
    if (!hole[q] || weight[q]! === 0) continue;
    rgb[q * 3] = acc[q * 3]! / weight[q]!;
    rgb[q * 3 + 1] = acc[q * 3 + 1]! / weight[q]!;
    rgb[q * 3 + 2] = acc[q * 3 + 2]! / weight[q]!;
  }
}

/** The coarse field carried to the finer level: each target takes its parent's source, doubled. */
function upsampleField(coarse: Field, coarseLevel: FillLevel, fine: FillLevel): Field {
  const targets = targetsOf(fine);
  const { width, height } = fine;
  const slot = new Int32Array(coarseLevel.width * coarseLevel.height).fill(-1);
  for (let t = 0; t < coarse.targets.length; t++) slot[coarse.targets[t]!] = t;
  const sx = new Int32Array(targets.length);
  const sy = new Int32Array(targets.length);
  const valid = new Uint8Array(width * height);
  const sources = validSources(fine);
  for (let i = 0; i < sources.length; i++) valid[sources[i]!] = 1;
  for (let t = 0; t < targets.length; t++) {
    const p = targets[t]!;
    const x = p % width;
    const y = (p - x) / width;
    const cx = Math.min(coarseLevel.width - 1, x >> 1);
    const cy = Math.min(coarseLevel.height - 1, y >> 1);
    const n = slot[cy * coarseLevel.width + cx]!;
    // A target without a coarse parent (the rim of the dilation) points at itself if it may.
    let px = n >= 0 ? coarse.sx[n]! * 2 + (x & 1) : x;
    let py = n >= 0 ? coarse.sy[n]! * 2 + (y & 1) : y;
    if (!isSource(valid, width, px, py)) {
      px = Math.min(width - 1 - R, Math.max(R, px));
      py = Math.min(height - 1 - R, Math.max(R, py));
      if (!isSource(valid, width, px, py) && sources.length > 0) {
        const s = sources[(t * 7919) % sources.length]!;
        px = s % width;
        py = (s - px) / width;
      }
    }
    sx[t] = px;
    sy[t] = py;
  }
  return { targets, sx, sy, dist: new Float64Array(targets.length).fill(Infinity), width };
}

/**
 * At a level too large to search, each hole pixel copies the pixel its patch's match points at,
 * averaged over the patches that cover it (no new search; full detail from the photo itself).
 */
function copyThroughField(rgb: Float32Array, level: FillLevel, field: Field): void {
  const { width, height, hole } = level;
  const acc = new Float64Array(width * height * 3);
  const weight = new Float64Array(width * height);
  const { targets, sx, sy } = field;
  // Only the centre and its 4 neighbours vote: enough to hide block edges, 10× cheaper than 49.
  const taps = [
    [0, 0],
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ] as const;
  for (let t = 0; t < targets.length; t++) {
    const p = targets[t]!;
    const x = p % width;
    const y = (p - x) / width;
    for (const [dx, dy] of taps) {
      const xx = x + dx;
      const yy = y + dy;
      if (xx < 0 || yy < 0 || xx >= width || yy >= height) continue;
      const q = yy * width + xx;
      if (!hole[q]) continue;
      const s = ((sy[t]! + dy) * width + sx[t]! + dx) * 3;
      acc[q * 3]! += rgb[s]!;
      acc[q * 3 + 1]! += rgb[s + 1]!;
      acc[q * 3 + 2]! += rgb[s + 2]!;
      weight[q]! += 1;
    }
  }
  for (let q = 0; q < hole.length; q++) {
    if (!hole[q] || weight[q]! === 0) continue;
    for (let c = 0; c < 3; c++) rgb[q * 3 + c] = acc[q * 3 + c]! / weight[q]!;
  }
}

/** Each pixel's chamfer distance into the hole (0 outside it). */
function holeDepth(level: FillLevel): Float32Array {
  const { width, height, hole } = level;
  const depth = new Float32Array(hole.length);
  for (let i = 0; i < hole.length; i++) depth[i] = hole[i] ? 1e9 : 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!hole[i]) continue;
      let d = depth[i]!;
      if (x > 0) d = Math.min(d, depth[i - 1]! + 1);
      if (y > 0) d = Math.min(d, depth[i - width]! + 1);
      if (x > 0 && y > 0) d = Math.min(d, depth[i - width - 1]! + 1.4);
      if (x < width - 1 && y > 0) d = Math.min(d, depth[i - width + 1]! + 1.4);
      depth[i] = d;
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      if (!hole[i]) continue;
      let d = depth[i]!;
      if (x < width - 1) d = Math.min(d, depth[i + 1]! + 1);
      if (y < height - 1) d = Math.min(d, depth[i + width]! + 1);
      if (x < width - 1 && y < height - 1) d = Math.min(d, depth[i + width + 1]! + 1.4);
      if (x > 0 && y < height - 1) d = Math.min(d, depth[i + width - 1]! + 1.4);
      depth[i] = d;
    }
  }
  // A hole touching no known pixel at all (cannot happen for a real mask) counts as edge.
  for (let i = 0; i < depth.length; i++) if (depth[i]! > 1e8) depth[i] = 0;
  return depth;
}
