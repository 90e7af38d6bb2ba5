/**
 * Seeded randomness for the local engine. Everything it draws comes from here, so the same prompt and
 * seed give byte-identical images (repeat must reproduce a result) and no `Math.random` sneaks in.
 */

export type Rng = () => number;

/** mulberry32: tiny, fast and good enough for pictures; not for anything secret. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over UTF-16 code units: mixes the prompt into the seed so two prompts never share a layout. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function mixSeeds(a: number, b: number): number {
  return hashText(`${a >>> 0}:${b >>> 0}`);
}

export const range = (rng: Rng, min: number, max: number) => min + (max - min) * rng();
export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick() needs at least one item');
  return item;
}

/** Gaussian-ish in [-1, 1]: the average of three uniforms, enough for grain and jitter. */
export const softNoise = (rng: Rng) => (rng() + rng() + rng()) / 1.5 - 1;

const smooth = (t: number) => t * t * (3 - 2 * t);

/**
 * Fractal value noise in [0, 1] over a width×height grid: `cell` is the size of the coarsest feature
 * in pixels, each further octave halves it. Value noise (not Perlin) because it is simple and, blurred
 * by the octaves, reads as clouds, paper fibres or nebula gas just as well.
 */
export function fractalNoise(
  rng: Rng,
  width: number,
  height: number,
  options: { cell: number; octaves: number; persistence?: number },
): Float32Array {
  const out = new Float32Array(width * height);
  const persistence = options.persistence ?? 0.5;
  let amplitude = 1;
  let total = 0;
  let cell = options.cell;
  for (let octave = 0; octave < options.octaves; octave++) {
    const gridW = Math.ceil(width / cell) + 2;
    const gridH = Math.ceil(height / cell) + 2;
    const lattice = new Float32Array(gridW * gridH);
    for (let i = 0; i < lattice.length; i++) lattice[i] = rng();
    for (let y = 0; y < height; y++) {
      const gy = y / cell;
      const y0 = Math.floor(gy);
      const ty = smooth(gy - y0);
      const row0 = y0 * gridW;
      const row1 = row0 + gridW;
      for (let x = 0; x < width; x++) {
        const gx = x / cell;
        const x0 = Math.floor(gx);
        const tx = smooth(gx - x0);
        const a = lattice[row0 + x0]!;
        const b = lattice[row0 + x0 + 1]!;
        const c = lattice[row1 + x0]!;
        const d = lattice[row1 + x0 + 1]!;
        const top = a + (b - a) * tx;
        const bottom = c + (d - c) * tx;
        out[y * width + x]! += (top + (bottom - top) * ty) * amplitude;
      }
    }
    total += amplitude;
    amplitude *= persistence;
    cell = Math.max(1, cell / 2);
  }
  for (let i = 0; i < out.length; i++) out[i]! /= total;
  return out;
}

/** 1-D fractal noise in [0, 1], `length` samples: mountain ridges and dune crests. */
export function fractalLine(
  rng: Rng,
  length: number,
  options: { cell: number; octaves: number },
): Float32Array {
  return fractalNoise(rng, length, 1, options);
}
