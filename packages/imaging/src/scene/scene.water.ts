import type { Rgb } from '../raster/colour.js';

/*
 * Open water in an animated scene: ripples that travel and mirror the sky, and waves that roll in
 * towards the viewer. Pure pixel arithmetic over Float32 RGB frames.
 */

/** The ripples' sine and cosine per water pixel, so a frame only turns them by the time. */
export function waveField(width: number, height: number, horizon: number, calm: boolean) {
  const rows = Math.max(0, height - horizon);
  const sin = new Float32Array(rows * width);
  const cos = new Float32Array(rows * width);
  for (let y = horizon; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const angle = x * 0.02 + y * (calm ? 0.9 : 0.55);
      sin[(y - horizon) * width + x] = Math.sin(angle);
      cos[(y - horizon) * width + x] = Math.cos(angle);
    }
  }
  return { sin, cos, roll: rollField(width, height, horizon) };
}

/** Rolling waves: crests per unit of distance over the water, and how fast they come in (per second). */
const WAVE_CRESTS = 0.7;
const WAVE_SPEED = 0.42;
/** The share of a wave's period its foam (behind the crest) and its dark face (before it) take. */
const WAVE_FOAM = 0.3;
const WAVE_FACE = 0.35;

/**
 * Each water pixel's wave phase at time 0: the distance to the water seen at that row (near the
 * horizon a row spans far more water than near the viewer, so crests crowd together and thin out
 * there) times the crests per unit, the crests gently bowed along their length.
 */
function rollField(width: number, height: number, horizon: number): Float32Array {
  const rows = Math.max(0, height - horizon);
  const roll = new Float32Array(rows * width);
  for (let y = horizon; y < height; y++) {
    const depth = (y - horizon + 1) / Math.max(1, rows);
    const distance = 1 / (depth + 0.05);
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const bow = 0.18 * Math.sin(u * 5.1 + 0.6) + 0.09 * Math.sin(u * 11.3 + 2.2);
      roll[(y - horizon) * width + x] = distance * WAVE_CRESTS + bow;
    }
  }
  return roll;
}

/**
 * Waves rolling in towards the viewer (onto the beach when there is one): each crest is a band of
 * broken white foam with its foam trailing behind it and the darker face of the wave before it,
 * all travelling shorewards as the phase advances with time; faint near the horizon, strong near.
 */
export function rollWaves(
  out: Float32Array,
  width: number,
  height: number,
  horizon: number,
  foam: Float32Array,
  roll: Float32Array,
  t: number,
) {
  const rows = Math.max(1, height - horizon);
  const advance = t * WAVE_SPEED;
  for (let y = horizon; y < height; y++) {
    const depth = (y - horizon) / rows;
    const strength = Math.min(1, depth * 5) * (0.6 + 0.4 * depth);
    if (strength <= 0) continue;
    const row = (y - horizon) * width;
    for (let x = 0; x < width; x++) {
      const phase = roll[row + x]! + advance;
      const crest = Math.floor(phase);
      const f = phase - crest;
      const i = (y * width + x) * 3;
      if (f < WAVE_FOAM) {
        // Broken foam: thick in places, gaps in others, different for every crest.
        const patch = foam[(x + ((crest * 97) % 512) + 512) % (width + 512)]!;
        const cover = Math.max(0, Math.min(1, (patch - 0.12) * 3));
        const fade = (1 - f / WAVE_FOAM) ** 1.6;
        const alpha = 0.95 * strength * cover * fade;
        out[i] = out[i]! + (248 - out[i]!) * alpha;
        out[i + 1] = out[i + 1]! + (244 - out[i + 1]!) * alpha;
        out[i + 2] = out[i + 2]! + (236 - out[i + 2]!) * alpha;
      } else if (f > 1 - WAVE_FACE) {
        // The face of the wave, steepest just before the crest: shaded.
        const shade = 1 - 0.5 * strength * ((f - (1 - WAVE_FACE)) / WAVE_FACE) ** 2;
        out[i] = out[i]! * shade;
        out[i + 1] = out[i + 1]! * shade;
        out[i + 2] = out[i + 2]! * shade;
      }
    }
  }
}

/**
 * Water below the horizon mirrors the rows above it, broken sideways by ripples that travel
 * towards the viewer (their phase moves with time) and tinted by the water's colour, as the still
 * image's reflection is.
 */
export function reflectWater(
  out: Float32Array,
  width: number,
  height: number,
  horizon: number,
  water: { calm: boolean; colour: Rgb; ripple: Float32Array; foam: Float32Array },
  waves: { sin: Float32Array; cos: Float32Array },
  t: number,
) {
  const { calm, colour, ripple } = water;
  const travel = t * (calm ? 1.4 : 2.6);
  // sin(a − travel) = sin a · cos travel − cos a · sin travel.
  const cosTravel = Math.cos(travel);
  const sinTravel = Math.sin(travel);
  for (let y = horizon; y < height; y++) {
    const depth = (y - horizon) / Math.max(1, height - horizon);
    const mirrorY = Math.max(0, Math.min(horizon - 1, 2 * horizon - y - 1));
    const amplitude = (calm ? 2 : 6) + (calm ? 22 : 40) * depth * depth + (calm ? 6 : 10) * depth;
    const mix = 0.3 + 0.55 * depth * depth;
    const row = (y - horizon) * width;
    for (let x = 0; x < width; x++) {
      const sine = waves.sin[row + x]! * cosTravel - waves.cos[row + x]! * sinTravel;
      const wave = sine * 0.5 + (ripple[y]! - 0.5);
      const sx = Math.max(0, Math.min(width - 1, Math.round(x + wave * amplitude)));
      const from = (mirrorY * width + sx) * 3;
      const i = (y * width + x) * 3;
      out[i] = out[from]! * (1 - mix) * 0.92 + colour[0] * mix;
      out[i + 1] = out[from + 1]! * (1 - mix) * 0.92 + colour[1] * mix;
      out[i + 2] = out[from + 2]! * (1 - mix) * 0.95 + colour[2] * mix;
    }
  }
}
