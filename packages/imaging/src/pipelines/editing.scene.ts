import sharp from 'sharp';
import { clampedBuffer, type Plane, type RawImage, rawFrom, toSharp } from '../raster/raster.js';
import { createRng, fractalNoise, mixSeeds, type Rng } from '../raster/random.js';
import { planScene } from '../scene/scene.models.js';
import { renderScene } from '../scene/scene.render.js';
import type { LightLook, SceneStrength, SkyLook } from './editing.scene.models.js';

/**
 * The scene edits as pixel operations: finding and repainting the sky, regrading the light to a
 * time of day, fog, rain and snow, a film look, and a drawn scene behind the person that the
 * bundled selfie segmentation cuts out. Classical image processing, deterministic for a seed.
 */

const STRENGTH: Record<SceneStrength, number> = { light: 0.55, medium: 0.8, strong: 1 };

// ---------------------------------------------------------------------------------------------------
// Sky

export interface SkyRegion {
  /** 0–255 per pixel, soft-edged, at the image's size. */
  mask: Plane;
  /** Share of the picture that is sky, 0–1. */
  share: number;
  /** The row where the sky meets the land, on average (0 at the top). */
  horizon: number;
}

/** Below this share no open sky was found: a portrait indoors, a close-up. */
export const MIN_SKY_SHARE = 0.04;

/**
 * The open sky: bright, smooth, bluish or white pixels joined to the top edge (a flood fill over a
 * small copy, stopping at edges and at colour jumps). No learned model: a sky seen through leaves
 * or under a roof edge is only partly found, which the soft edge hides.
 */
export async function findSky(image: RawImage): Promise<SkyRegion> {
  const { width, height } = image;
  const scale = Math.min(1, 160 / Math.max(width, height));
  const w = Math.max(8, Math.round(width * scale));
  const h = Math.max(8, Math.round(height * scale));
  const small = await rawFrom(toSharp(image).resize(w, h, { fit: 'fill' }));
  const d = small.data;
  const lum = new Float32Array(w * h);
  for (let i = 0, p = 0; i < w * h; i++, p += 3)
    lum[i] = 0.299 * d[p]! + 0.587 * d[p + 1]! + 0.114 * d[p + 2]!;
  const skyLike = (i: number) => {
    const x = i % w;
    const y = (i - x) / w;
    const r = d[i * 3]!;
    const b = d[i * 3 + 2]!;
    const l = lum[i]!;
    const gx = Math.abs(lum[y * w + Math.min(w - 1, x + 1)]! - lum[y * w + Math.max(0, x - 1)]!);
    const gy = Math.abs(lum[Math.min(h - 1, y + 1) * w + x]! - lum[Math.max(0, y - 1) * w + x]!);
    const smooth = gx + gy < 28;
    const bluish = b >= r - 8;
    const white = l > 185 && Math.abs(r - b) < 40;
    return l > 95 && smooth && (bluish || white);
  };
  const inSky = new Uint8Array(w * h);
  const queue: number[] = [];
  for (let x = 0; x < w; x++) {
    if (skyLike(x)) {
      inSky[x] = 1;
      queue.push(x);
    }
  }
  const colourJump = (a: number, b: number) =>
    Math.abs(d[a * 3]! - d[b * 3]!) +
    Math.abs(d[a * 3 + 1]! - d[b * 3 + 1]!) +
    Math.abs(d[a * 3 + 2]! - d[b * 3 + 2]!);
  while (queue.length > 0) {
    const i = queue.pop()!;
    const x = i % w;
    const neighbours = [i + w, x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w];
    for (const n of neighbours) {
      if (n < 0 || n >= w * h || inSky[n]) continue;
      if (colourJump(i, n) > 36 || !skyLike(n)) continue;
      inSky[n] = 1;
      queue.push(n);
    }
  }
  let count = 0;
  let horizonSum = 0;
  let columns = 0;
  for (let x = 0; x < w; x++) {
    let lowest = -1;
    for (let y = 0; y < h; y++) if (inSky[y * w + x]) lowest = y;
    // Clouds and the sun inside the sky are edges to the flood fill, not land: bright pixels above
    // the column's lowest sky pixel join the sky (dark branches and roofs poking into it do not).
    for (let y = 0; y < lowest; y++) if (lum[y * w + x]! > 110) inSky[y * w + x] = 1;
    for (let y = 0; y < h; y++) count += inSky[y * w + x]!;
    if (lowest >= 0) {
      horizonSum += lowest + 1;
      columns++;
    }
  }
  const share = count / (w * h);
  const horizon = columns > 0 ? (horizonSum / columns / h) * height : height * 0.4;
  const small255 = Buffer.from(inSky.map((v) => v * 255));
  const { data } = await sharp(small255, { raw: { width: w, height: h, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .blur(Math.max(0.6, Math.max(width, height) / 300))
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    mask: { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height },
    share,
    horizon,
  };
}

type Rgb = [number, number, number];

/** Zenith to horizon, four stops each. */
const SKY_GRADIENTS: Record<SkyLook, Rgb[]> = {
  sunset: [
    [46, 32, 92],
    [150, 58, 110],
    [238, 104, 72],
    [255, 190, 96],
  ],
  dusk: [
    [14, 22, 60],
    [46, 52, 110],
    [120, 84, 146],
    [232, 140, 128],
  ],
  night: [
    [4, 7, 22],
    [10, 18, 48],
    [20, 34, 76],
    [40, 54, 96],
  ],
  stormy: [
    [46, 50, 58],
    [70, 76, 86],
    [96, 102, 112],
    [128, 134, 142],
  ],
  clear: [
    [40, 100, 200],
    [74, 138, 222],
    [128, 180, 236],
    [196, 222, 244],
  ],
};

function gradientAt(stops: Rgb[], t: number): Rgb {
  const f = Math.min(0.999, Math.max(0, t)) * (stops.length - 1);
  const i = Math.floor(f);
  const k = f - i;
  const a = stops[i]!;
  const b = stops[i + 1]!;
  return [a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k, a[2] + (b[2] - a[2]) * k];
}

/**
 * Paints `look` into the sky region: its gradient down to the horizon, clouds (the photo's own
 * cloud detail kept, more drawn for a dramatic or stormy sky), a low sun's glow for sunsets and
 * stars for the night.
 */
export async function paintSky(
  image: RawImage,
  sky: SkyRegion,
  look: SkyLook,
  dramatic: boolean,
  seed: number,
): Promise<RawImage> {
  const { width, height } = image;
  const rng = createRng(mixSeeds(seed, 0x5c1));
  const cloudy = look === 'stormy' || dramatic;
  // Coarse noise at a quarter of the size, scaled up: clouds are big and soft.
  const nw = Math.max(8, Math.round(width / 4));
  const nh = Math.max(8, Math.round(height / 4));
  const noise = fractalNoise(rng, nw, nh, { cell: Math.max(8, nw / 5), octaves: 5, persistence: 0.55 });
  const detail = await skyDetail(image);
  const [out, outBuffer] = clampedBuffer(image.data.length);
  const horizon = Math.max(1, sky.horizon);
  const sunX = width * 0.68;
  const sunY = horizon * 0.92;
  const glowRadius = Math.max(width, height) * 0.45;
  const stops = SKY_GRADIENTS[look];
  for (let y = 0; y < height; y++) {
    const t = y / horizon;
    const base = gradientAt(stops, t);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const m = sky.mask.data[i]! / 255;
      const p = i * 3;
      if (m <= 0) {
        out[p] = image.data[p]!;
        out[p + 1] = image.data[p + 1]!;
        out[p + 2] = image.data[p + 2]!;
        continue;
      }
      let [r, g, b] = base;
      // The photo's own clouds, as light and shade on the new sky.
      const own = detail[i]! * (look === 'night' ? 0.3 : 0.9);
      r += own;
      g += own;
      b += own;
      if (cloudy || look === 'sunset' || look === 'dusk') {
        const n = noise[Math.min(nh - 1, Math.floor(y / 4)) * nw + Math.min(nw - 1, Math.floor(x / 4))]!;
        const cover = cloudy ? Math.max(0, n - 0.42) * 2.4 : Math.max(0, n - 0.55) * 1.8;
        // Lit undersides for sunsets, dark bellies for storms.
        const cloud: Rgb =
          look === 'stormy' ? [34, 36, 42] : look === 'sunset' ? [255, 150, 96] : [180, 120, 150];
        const k = Math.min(0.85, cover) * (dramatic ? 1 : 0.7);
        r += (cloud[0] - r) * k;
        g += (cloud[1] - g) * k;
        b += (cloud[2] - b) * k;
      }
      if (look === 'sunset') {
        const dx = x - sunX;
        const dy = y - sunY;
        const glow = Math.max(0, 1 - Math.sqrt(dx * dx + dy * dy) / glowRadius) ** 2;
        r += 60 * glow;
        g += 40 * glow;
        b += 10 * glow;
      }
      out[p] = image.data[p]! + (r - image.data[p]!) * m;
      out[p + 1] = image.data[p + 1]! + (g - image.data[p + 1]!) * m;
      out[p + 2] = image.data[p + 2]! + (b - image.data[p + 2]!) * m;
    }
  }
  if (look === 'night') drawStars(out, width, height, sky.mask, rng);
  return { ...image, data: outBuffer };
}

/** The photo's local brightness minus its smooth brightness: the shape of its clouds. */
async function skyDetail(image: RawImage): Promise<Float32Array> {
  const { width, height } = image;
  const lum = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < lum.length; i++, p += 3) {
    lum[i] = (77 * image.data[p]! + 150 * image.data[p + 1]! + 29 * image.data[p + 2]!) >> 8;
  }
  const { data } = await sharp(Buffer.from(lum.buffer, lum.byteOffset, lum.length), {
    raw: { width, height, channels: 1 },
  })
    .blur(Math.max(1, Math.max(width, height) / 40))
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(lum.length);
  for (let i = 0; i < lum.length; i++) out[i] = lum[i]! - data[i]!;
  return out;
}

function drawStars(out: Uint8ClampedArray, width: number, height: number, mask: Plane, rng: Rng): void {
  const count = Math.round((width * height) / 1800);
  for (let s = 0; s < count; s++) {
    const x = Math.floor(rng() * width);
    const y = Math.floor(rng() * height);
    const m = mask.data[y * width + x]! / 255;
    if (m < 0.9) continue;
    const bright = 120 + rng() * 135;
    const p = (y * width + x) * 3;
    out[p] = Math.max(out[p]!, bright);
    out[p + 1] = Math.max(out[p + 1]!, bright);
    out[p + 2] = Math.max(out[p + 2]!, bright * 1.05);
  }
}

// ---------------------------------------------------------------------------------------------------
// Light

/** Per channel multipliers and offsets, then how much colour is kept (1 = all). */
const GRADES: Record<LightLook, { gain: Rgb; lift: Rgb; saturation: number }> = {
  sunset: { gain: [1.1, 0.9, 0.72], lift: [14, 2, -6], saturation: 1.1 },
  golden: { gain: [1.08, 0.98, 0.78], lift: [10, 6, -4], saturation: 1.08 },
  dusk: { gain: [0.62, 0.6, 0.82], lift: [6, 4, 14], saturation: 0.8 },
  night: { gain: [0.32, 0.38, 0.58], lift: [0, 2, 10], saturation: 0.6 },
  sunny: { gain: [1.1, 1.07, 1.0], lift: [6, 5, 0], saturation: 1.18 },
  stormy: { gain: [0.78, 0.8, 0.86], lift: [0, 0, 4], saturation: 0.65 },
};

/**
 * Regrades the picture to the light of `look`, outside the sky region when one was repainted (the
 * new sky has its own colours). A strength below full mixes the grade with the original.
 */
export function relight(
  image: RawImage,
  look: LightLook,
  strength: SceneStrength,
  skyMask: Plane | null,
): RawImage {
  const { gain, lift, saturation } = GRADES[look];
  const amount = STRENGTH[strength];
  const [out, outBuffer] = clampedBuffer(image.data.length);
  const d = image.data;
  for (let i = 0, p = 0; p < d.length; i++, p += 3) {
    const k = amount * (skyMask ? 1 - skyMask.data[i]! / 255 : 1);
    const r = d[p]!;
    const g = d[p + 1]!;
    const b = d[p + 2]!;
    const l = 0.299 * r + 0.587 * g + 0.114 * b;
    const sr = l + (r - l) * saturation;
    const sg = l + (g - l) * saturation;
    const sb = l + (b - l) * saturation;
    out[p] = r + (sr * gain[0] + lift[0] - r) * k;
    out[p + 1] = g + (sg * gain[1] + lift[1] - g) * k;
    out[p + 2] = b + (sb * gain[2] + lift[2] - b) * k;
  }
  return { ...image, data: outBuffer };
}

// ---------------------------------------------------------------------------------------------------
// Weather

/**
 * Fog: the picture fades towards a pale grey, more at the top (farther away in most photos) and in
 * drifting patches, less over the person when one was found (the person stands in front of it).
 */
export function addFog(
  image: RawImage,
  strength: SceneStrength,
  seed: number,
  person: Plane | null,
): RawImage {
  const { width, height } = image;
  const rng = createRng(mixSeeds(seed, 0xf06));
  const nw = Math.max(8, Math.round(width / 8));
  const nh = Math.max(8, Math.round(height / 8));
  const patches = fractalNoise(rng, nw, nh, { cell: Math.max(6, nw / 3), octaves: 4 });
  const density = STRENGTH[strength] * 0.95;
  const fog: Rgb = [214, 218, 222];
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let y = 0; y < height; y++) {
    const depth = 0.55 + 0.45 * (1 - y / height);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const patch = 0.75 + 0.5 * patches[Math.min(nh - 1, y >> 3) * nw + Math.min(nw - 1, x >> 3)]!;
      const front = person ? 1 - 0.6 * (person.data[i]! / 255) : 1;
      const k = Math.min(0.92, density * depth * patch * front);
      const p = i * 3;
      out[p] = image.data[p]! + (fog[0] - image.data[p]!) * k;
      out[p + 1] = image.data[p + 1]! + (fog[1] - image.data[p + 1]!) * k;
      out[p + 2] = image.data[p + 2]! + (fog[2] - image.data[p + 2]!) * k;
    }
  }
  return { ...image, data: outBuffer };
}

/** Rain: duller, cooler light and thin slanted streaks of falling water, soft with motion blur. */
export async function addRain(image: RawImage, strength: SceneStrength, seed: number): Promise<RawImage> {
  const dull = relight(image, 'stormy', strength === 'light' ? 'light' : 'medium', null);
  const { width, height } = image;
  const rng = createRng(mixSeeds(seed, 0x7a1));
  const streaks = new Uint8Array(width * height);
  const count = Math.round(((width * height) / 600) * STRENGTH[strength]);
  const size = Math.max(width, height) / 1024;
  for (let s = 0; s < count; s++) {
    const length = (18 + rng() * 30) * size;
    const x0 = rng() * (width + height * 0.2);
    const y0 = rng() * height - length;
    const bright = 70 + rng() * 90;
    for (let t = 0; t < length; t++) {
      const x = Math.round(x0 - t * 0.18);
      const y = Math.round(y0 + t);
      if (x < 0 || x >= width || y < 0 || y >= height) continue;
      const i = y * width + x;
      streaks[i] = Math.max(streaks[i]!, bright);
    }
  }
  const { data: soft } = await sharp(Buffer.from(streaks.buffer), { raw: { width, height, channels: 1 } })
    .blur(Math.max(0.4, 0.7 * size))
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let i = 0, p = 0; i < soft.length; i++, p += 3) {
    const k = (soft[i]! / 255) * 1.6;
    out[p] = dull.data[p]! + (210 - dull.data[p]!) * Math.min(0.7, k);
    out[p + 1] = dull.data[p + 1]! + (218 - dull.data[p + 1]!) * Math.min(0.7, k);
    out[p + 2] = dull.data[p + 2]! + (228 - dull.data[p + 2]!) * Math.min(0.7, k);
  }
  return { ...image, data: outBuffer };
}

/** Snow: colder light, a little haze, and soft round flakes, near ones bigger than far ones. */
export async function addSnow(image: RawImage, strength: SceneStrength, seed: number): Promise<RawImage> {
  const { width, height } = image;
  const cold = hazeAndCool(image, 0.12 * STRENGTH[strength]);
  const rng = createRng(mixSeeds(seed, 0x5e0));
  const flakes = new Uint8Array(width * height);
  const count = Math.round(((width * height) / 350) * STRENGTH[strength]);
  // Flakes stay a few pixels wide on small photos too, or they read as noise.
  const size = Math.max(0.9, Math.max(width, height) / 1024);
  for (let s = 0; s < count; s++) {
    const near = rng() ** 3;
    const radius = (1.1 + near * 3.4) * size;
    const cx = rng() * width;
    const cy = rng() * height;
    const r = Math.ceil(radius);
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        const x = Math.round(cx + dx);
        const y = Math.round(cy + dy);
        if (x < 0 || x >= width || y < 0 || y >= height) continue;
        const f = 1 - Math.sqrt(dx * dx + dy * dy) / (radius + 0.5);
        if (f <= 0) continue;
        const i = y * width + x;
        flakes[i] = Math.max(flakes[i]!, Math.round(255 * Math.min(1, f * 1.6) * (0.6 + 0.4 * near)));
      }
    }
  }
  const { data: soft } = await sharp(Buffer.from(flakes.buffer), { raw: { width, height, channels: 1 } })
    .blur(Math.max(0.4, 0.6 * size))
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let i = 0, p = 0; i < soft.length; i++, p += 3) {
    const k = soft[i]! / 255;
    out[p] = cold.data[p]! + (250 - cold.data[p]!) * k;
    out[p + 1] = cold.data[p + 1]! + (252 - cold.data[p + 1]!) * k;
    out[p + 2] = cold.data[p + 2]! + (255 - cold.data[p + 2]!) * k;
  }
  return { ...image, data: outBuffer };
}

function hazeAndCool(image: RawImage, haze: number): RawImage {
  const [out, outBuffer] = clampedBuffer(image.data.length);
  const d = image.data;
  for (let p = 0; p < d.length; p += 3) {
    const r = d[p]! * 0.94;
    const g = d[p + 1]! * 0.98;
    const b = Math.min(255, d[p + 2]! * 1.06 + 4);
    out[p] = r + (226 - r) * haze;
    out[p + 1] = g + (232 - g) * haze;
    out[p + 2] = b + (240 - b) * haze;
  }
  return { ...image, data: outBuffer };
}

// ---------------------------------------------------------------------------------------------------
// Film look

/** Faded blacks, warm highlights, less colour, grain and a soft vignette, like an old print. */
export function vintageLook(image: RawImage, seed: number): RawImage {
  const { width, height } = image;
  const rng = createRng(mixSeeds(seed, 0xf11));
  const [out, outBuffer] = clampedBuffer(image.data.length);
  const cx = width / 2;
  const cy = height / 2;
  const norm = 1 / (cx * cx + cy * cy);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      const r = image.data[p]!;
      const g = image.data[p + 1]!;
      const b = image.data[p + 2]!;
      const l = 0.299 * r + 0.587 * g + 0.114 * b;
      const fade = (v: number) => 28 + v * 0.82;
      const vig = 1 - 0.35 * ((x - cx) ** 2 + (y - cy) ** 2) * norm;
      const grain = (rng() - 0.5) * 14;
      out[p] = (fade(l + (r - l) * 0.7) * 1.06 + 6) * vig + grain;
      out[p + 1] = (fade(l + (g - l) * 0.7) * 1.0 + 2) * vig + grain;
      out[p + 2] = fade(l + (b - l) * 0.7) * 0.86 * vig + grain;
    }
  }
  return { ...image, data: outBuffer };
}

// ---------------------------------------------------------------------------------------------------
// Background

/** Below this share of person pixels nobody was found to keep in front of a new background. */
export const MIN_PERSON_SHARE = 0.04;

/** A selfie-segmentation mask at the image's size, soft-edged; null when no person is in the photo. */
export async function personPlane(
  image: RawImage,
  segment: (photo: RawImage) => Promise<Plane>,
): Promise<Plane | null> {
  const mask = await segment(image);
  const { width, height } = image;
  const { data } = await sharp(Buffer.from(mask.data.buffer, mask.data.byteOffset, mask.data.length), {
    raw: { width: mask.width, height: mask.height, channels: 1 },
  })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .blur(Math.max(0.6, Math.max(width, height) / 500))
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
  let sum = 0;
  for (let i = 0; i < plane.data.length; i++) sum += plane.data[i]! > 127 ? 1 : 0;
  return sum / plane.data.length >= MIN_PERSON_SHARE ? plane : null;
}

/**
 * The person in front of a drawn scene: the scene of `words` (the simple mode's renderer) at the
 * photo's size, slightly softened like a background out of focus, and the person's colours moved a
 * little towards the scene's so they share its light.
 */
export async function replaceBackground(
  image: RawImage,
  person: Plane,
  words: string,
  seed: number,
): Promise<RawImage> {
  const { width, height } = image;
  const plan = planScene(words, seed);
  const long = 1024;
  const scale = long / Math.max(width, height);
  plan.width = Math.max(64, Math.round(width * scale));
  plan.height = Math.max(64, Math.round(height * scale));
  const scene = await renderScene(plan);
  const backdrop = await rawFrom(
    toSharp(scene)
      .resize(width, height, { fit: 'cover' })
      .blur(Math.max(0.5, Math.max(width, height) / 700)),
  );
  const mean = (img: RawImage, weight: (i: number) => number): Rgb => {
    const sum: Rgb = [0, 0, 0];
    let total = 0;
    for (let i = 0, p = 0; i < width * height; i++, p += 3) {
      const w = weight(i);
      sum[0] += img.data[p]! * w;
      sum[1] += img.data[p + 1]! * w;
      sum[2] += img.data[p + 2]! * w;
      total += w;
    }
    return [sum[0] / total, sum[1] / total, sum[2] / total];
  };
  const sceneMean = mean(backdrop, (i) => 1 - person.data[i]! / 255);
  const personMean = mean(image, (i) => person.data[i]! / 255 + 1e-6);
  const shift: Rgb = [0, 1, 2].map((c) => (sceneMean[c]! - personMean[c]!) * 0.18) as Rgb;
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let i = 0, p = 0; i < width * height; i++, p += 3) {
    const m = person.data[i]! / 255;
    for (let c = 0; c < 3; c++) {
      const fore = image.data[p + c]! + shift[c]!;
      out[p + c] = backdrop.data[p + c]! + (fore - backdrop.data[p + c]!) * m;
    }
  }
  return { ...image, data: outBuffer };
}
