import { createRng } from '../raster/random.js';
import type { RgbBytes } from './image-quality.js';

/**
 * A clean photo aged like an old print, for testing restoration: faded (blacks lifted, whites
 * dimmed), yellowed (blue loses most), grainy, with a few long thin scratches and dust specks.
 * Deterministic for a seed. Returns which pixels the scratches and specks cover.
 */
export function ageLikeOldPrint(
  photo: RgbBytes,
  seed = 7,
): { image: RgbBytes; defects: Uint8Array; scratches: number; specks: number } {
  const rng = createRng(seed);
  const { width, height } = photo;
  const data = new Uint8Array(photo.data.length);
  // Per channel: out = gain·in + offset (a faded print with a yellow-brown cast).
  const gain = [0.6, 0.57, 0.45];
  const offset = [66, 56, 40];
  let spare: number | null = null;
  const gaussian = () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    const u = Math.max(1e-9, rng());
    const v = rng();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  for (let i = 0; i < data.length; i++) {
    const c = i % 3;
    data[i] = clamp(gain[c]! * photo.data[i]! + offset[c]! + 6 * gaussian());
  }
  const defects = new Uint8Array(width * height);
  const long = Math.max(width, height);
  const scratches = 4;
  for (let s = 0; s < scratches; s++) {
    // A gentle arc across a good part of the picture, bright (emulsion lost) or dark (dirt).
    const x0 = rng() * width;
    const y0 = rng() * height;
    const angle = rng() * Math.PI;
    const length = long * (0.35 + 0.3 * rng());
    const bend = (rng() - 0.5) * 0.6;
    const value = s % 2 === 0 ? 238 : 28;
    const halfWidth = 0.6 + 0.5 * rng();
    const steps = Math.ceil(length * 2);
    for (let k = 0; k <= steps; k++) {
      const t = k / steps;
      const a = angle + bend * t;
      const x = x0 + Math.cos(a) * length * t;
      const y = y0 + Math.sin(a) * length * t;
      paintDot(data, defects, width, height, x, y, halfWidth, value);
    }
  }
  const specks = 30;
  for (let s = 0; s < specks; s++) {
    paintDot(
      data,
      defects,
      width,
      height,
      rng() * width,
      rng() * height,
      0.7 + 1.1 * rng(),
      rng() < 0.5 ? 25 : 235,
    );
  }
  return { image: { data, width, height }, defects, scratches, specks };
}

function paintDot(
  data: Uint8Array,
  defects: Uint8Array,
  width: number,
  height: number,
  cx: number,
  cy: number,
  radius: number,
  value: number,
) {
  for (let y = Math.floor(cy - radius - 1); y <= Math.ceil(cy + radius + 1); y++) {
    for (let x = Math.floor(cx - radius - 1); x <= Math.ceil(cx + radius + 1); x++) {
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      // Coverage falls off over one pixel at the mark's edge, as a scanned mark's does.
      const coverage = Math.min(1, Math.max(0, radius + 0.5 - Math.hypot(x + 0.5 - cx, y + 0.5 - cy)));
      if (coverage <= 0) continue;
      const i = y * width + x;
      for (let c = 0; c < 3; c++) {
        const p = i * 3 + c;
        data[p] = clamp(data[p]! + coverage * (value - data[p]!));
      }
      if (coverage >= 0.5) defects[i] = 1;
    }
  }
}

const clamp = (value: number) => (value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value));
