import sharp from 'sharp';
import { hexToRgb, type Rgb } from '../raster/colour.js';
import { createRng, fractalLine, mixSeeds, range, type Rng } from '../raster/random.js';
import { rawFrom, type RawImage, vignette } from '../raster/raster.js';
import type { ScenePlan, Shape } from './scene.models.js';
import { drawBokeh, drawClouds, drawStars } from './scene.pixels.js';
import {
  bokehCount,
  cloudCover,
  cloudLight,
  cloudShade,
  drawSky,
  foregroundParts,
  hashName,
  landParts,
  layoutFor,
  rasterise,
  renderScene,
  roomAndSubjects,
  type SvgPart,
  svgOf,
} from './scene.render.js';
import { rainLayer } from './scene.svg-weather.js';
import { reflectWater, rollWaves, waveField } from './scene.water.js';
import { skyLayer, sunLayer } from './scene.svg.js';

/** What moves in an animated scene, as the notes tell it. */
export type SceneMotion = 'light' | 'clouds' | 'stars' | 'water' | 'rain' | 'snow' | 'camera';

export interface SceneAnimation {
  width: number;
  height: number;
  motions: SceneMotion[];
  /** RGB pixels of the frame at `seconds` of a clip `durationSeconds` long. */
  frameAt(seconds: number, durationSeconds: number): Buffer;
}

/** The scene's shape for a video frame: the renderer's layout keys horizon heights off it. */
export function shapeForFrame(width: number, height: number): Shape {
  if (width === height) return 'square';
  return width > height ? 'wide' : 'portrait';
}

/**
 * The procedural scene of the simple mode, drawn once in layers (sky, clouds, land, water,
 * foreground, rain, snow, lights) at the video's frame size and put together again for every
 * frame with what moves moved: clouds drift, their shadows pass over the land, the sun's or
 * moon's light breathes and its rays turn, stars twinkle, water ripples towards the viewer,
 * rain and snow fall. An abstract composition (nothing scenic named) gets a slow camera move over
 * its still instead. Deterministic for a plan: the same prompt and seed give the same video.
 */
export async function animateScene(plan: ScenePlan, durationSeconds: number): Promise<SceneAnimation> {
  const stream = (name: string) => createRng(mixSeeds(plan.renderSeed, hashName(name)));
  if (plan.features.has('abstract')) return animateAbstract(plan);
  const { width, height, features, palette, moods } = plan;
  const layout = layoutFor(plan, stream('layout'));
  const horizon = Math.round(layout.horizon);
  const motions = new Set<SceneMotion>();

  // Sky: gradient, sun and moon, then what is drawn per pixel and stays put.
  const sky = await rasterise(plan, [skyLayer(plan, layout), sunLayer(plan, layout)]);
  drawSky(sky, plan, layout, stream, { stars: false });
  // Stars on black: added to the sky with a twinkle per star.
  let stars: { pixels: Uint32Array; light: Float32Array; phase: Float32Array } | null = null;
  if (features.has('stars')) {
    const drawn = blank(width, height);
    drawStars(drawn, layout, stream('stars'), features.has('space') ? 1.6 : 1);
    stars = starPixels(drawn);
    motions.add('stars');
  }

  // Clouds, drawn wider than the frame so they can drift across it.
  const cover = cloudCover(plan);
  const cloudDrift = Math.ceil(width * 0.018 * durationSeconds) + 2;
  let clouds: Overlay | null = null;
  if (cover > 0) {
    const wide = { ...layout, width: width + cloudDrift };
    clouds = overlayOf(width + cloudDrift, height, (image) =>
      drawClouds(image, wide, stream('clouds'), cloudLight(plan), cloudShade(plan), cover),
    );
    motions.add('clouds');
  }

  // Land on the horizon and the ground.
  const land = landParts(plan, layout, stream);
  const landLayer = land.length > 0 ? await rasteriseRgba(plan, land) : null;

  // Water mirrors all of the above, rippling.
  const water = layout.hasWater
    ? {
        calm: features.has('lake') && !features.has('sea'),
        colour: hexToRgb(palette.water),
        ripple: fractalLine(stream('reflection'), height, { cell: 3, octaves: 2 }),
        // Where the foam of each rolling wave is thick or thin along its crest.
        foam: fractalLine(stream('surf'), width + 512, { cell: 24, octaves: 3 }),
      }
    : null;
  if (water) motions.add('water');

  // The foreground, in front of the water; then the room around the viewer and the prompt's subjects.
  const front = [...foregroundParts(plan, layout, stream), ...roomAndSubjects(plan, layout, stream)];
  // Indoors, rain and snow fall outside: the still shows them through the window, the video does not.
  const indoors = features.has('interior');
  const frontLayer = front.length > 0 ? await rasteriseRgba(plan, front) : null;

  const rain =
    features.has('rain') && !indoors ? await rasteriseRgba(plan, [rainLayer(layout, stream('rain'))]) : null;
  if (rain) motions.add('rain');
  const snow = features.has('snow') && !indoors ? snowflakes(width, height, stream('snowfall')) : null;
  if (snow) motions.add('snow');
  let bokeh: RawImage | null = null;
  const bokehLights = bokehCount(plan);
  if (bokehLights > 0) {
    bokeh = blank(width, height);
    drawBokeh(bokeh, stream('bokeh'), [palette.lights, ...palette.accents], bokehLights);
  }

  // The light: the sun's (or moon's) glow breathing with slowly turning rays.
  const lightSource = layout.sun ?? layout.moon;
  const lightColour = hexToRgb(layout.sun ? palette.glow : '#dfe6ff');
  motions.add('light');

  // Lens finish: the still's vignette as a multiplier, and film grain that changes every frame.
  const vintage = moods.has('vintage');
  const shading = vignette(
    { data: Buffer.alloc(width * height * 3, 200), width, height, channels: 3 },
    vintage ? 0.45 : 0.22,
  ).data;
  const grainAmount = vintage ? 10 : 3.5;
  const grain = grainField(width * height + 4096, stream('finish'), grainAmount);
  const lightRng = stream('light');
  const lightPhase = range(lightRng, 0, Math.PI * 2);

  const pixels = width * height;
  const glow = lightSource ? glowField(width, height, lightSource, lightColour, Boolean(layout.sun)) : null;
  const waves = water ? waveField(width, height, horizon, water.calm) : null;
  const out = new Float32Array(pixels * 3);
  const frameAt = (seconds: number, clip: number): Buffer => {
    const t = seconds;
    for (let i = 0; i < pixels * 3; i++) out[i] = sky.data[i]!;
    if (stars) {
      for (let k = 0; k < stars.pixels.length; k++) {
        const i = stars.pixels[k]! * 3;
        // Each star its own slow flicker.
        const twinkle = 0.7 + 0.3 * Math.sin(t * 3.1 + stars.phase[k]!);
        for (let c = 0; c < 3; c++) out[i + c] = out[i + c]! + stars.light[k * 3 + c]! * twinkle;
      }
    }
    if (glow) addGlow(out, width, glow, t, lightPhase);
    const drift = clouds ? (cloudDrift - 2) * (seconds / Math.max(1e-6, clip)) : 0;
    if (clouds) blendOverlay(out, width, 0, horizon, clouds, drift);
    if (landLayer) {
      blendRgba(out, landLayer, 0, height);
      // Cloud shadows pass over the land below the horizon.
      if (clouds && !water) shadeByClouds(out, width, height, horizon, clouds, drift);
    }
    if (water && waves) {
      reflectWater(out, width, height, horizon, water, waves, t);
      if (!water.calm) rollWaves(out, width, height, horizon, water.foam, waves.roll, t);
    }
    if (frontLayer) blendRgba(out, frontLayer, 0, height);
    if (rain) blendRgbaShifted(out, width, height, rain, (t * height * 1.6) % height);
    if (bokeh) {
      const pulse = 0.85 + 0.15 * Math.sin(t * 1.3 + lightPhase);
      for (let i = 0; i < pixels * 3; i++) out[i] = out[i]! + bokeh.data[i]! * pulse;
    }
    if (snow) drawSnow(out, width, height, snow, t);
    const result = Buffer.alloc(pixels * 3);
    const grainStart = Math.floor(((Math.sin(t * 977.1) + 1) / 2) * 4000);
    for (let p = 0; p < pixels; p++) {
      const n = grain[grainStart + p]!;
      for (let c = 0; c < 3; c++) {
        const i = p * 3 + c;
        const value = (out[i]! * shading[i]!) / 200 + n;
        result[i] = value < 0 ? 0 : value > 255 ? 255 : value;
      }
    }
    return result;
  };
  return { width, height, motions: [...motions], frameAt };
}

/** An abstract composition: its still, drawn a quarter larger, with a slow push-in across it. */
async function animateAbstract(plan: ScenePlan): Promise<SceneAnimation> {
  const margin = 1.25;
  const big = await renderScene({
    ...plan,
    width: Math.round(plan.width * margin),
    height: Math.round(plan.height * margin),
  });
  const { width, height } = plan;
  return {
    width,
    height,
    motions: ['camera', 'light'],
    frameAt(seconds, clip) {
      const u = clip > 0 ? seconds / clip : 0;
      const ease = (1 - Math.cos(Math.PI * u)) / 2;
      // From the whole still to the frame-sized middle, drifting a little sideways.
      const scale = margin - (margin - 1) * ease;
      const windowWidth = width * scale;
      const windowHeight = height * scale;
      const left = (big.width - windowWidth) / 2 + (big.width - windowWidth) * 0.3 * Math.sin(Math.PI * u);
      const top = (big.height - windowHeight) / 2;
      const out = Buffer.alloc(width * height * 3);
      const sample = new Float32Array(3);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          bilinear(
            big,
            left + ((x + 0.5) * windowWidth) / width,
            top + ((y + 0.5) * windowHeight) / height,
            sample,
          );
          const i = (y * width + x) * 3;
          out[i] = sample[0]!;
          out[i + 1] = sample[1]!;
          out[i + 2] = sample[2]!;
        }
      }
      return out;
    },
  };
}

function bilinear(image: RawImage, x: number, y: number, out: Float32Array) {
  const fx = Math.min(image.width - 1, Math.max(0, x - 0.5));
  const fy = Math.min(image.height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(image.width - 1, x0 + 1);
  const y1 = Math.min(image.height - 1, y0 + 1);
  const tx = fx - x0;
  const ty = fy - y0;
  const d = image.data;
  const w = image.width;
  for (let c = 0; c < 3; c++) {
    const top = d[(y0 * w + x0) * 3 + c]! * (1 - tx) + d[(y0 * w + x1) * 3 + c]! * tx;
    const bottom = d[(y1 * w + x0) * 3 + c]! * (1 - tx) + d[(y1 * w + x1) * 3 + c]! * tx;
    out[c] = top * (1 - ty) + bottom * ty;
  }
}

/** A layer as colour premultiplied by coverage plus the coverage itself (0–1). */
interface Overlay {
  width: number;
  height: number;
  premultiplied: Float32Array;
  alpha: Float32Array;
}

/**
 * What a drawing that blends onto the image in place adds, as a layer of its own: drawn once
 * onto black and once onto white, the difference is how much it covers, and what it left on
 * black is its colour times that coverage.
 */
function overlayOf(width: number, height: number, draw: (image: RawImage) => void): Overlay {
  const onBlack = blank(width, height);
  const onWhite: RawImage = { data: Buffer.alloc(width * height * 3, 255), width, height, channels: 3 };
  draw(onBlack);
  draw(onWhite);
  const premultiplied = new Float32Array(width * height * 3);
  const alpha = new Float32Array(width * height);
  for (let p = 0; p < width * height; p++) {
    let cover = 0;
    for (let c = 0; c < 3; c++) {
      premultiplied[p * 3 + c] = onBlack.data[p * 3 + c]!;
      cover += 1 - (onWhite.data[p * 3 + c]! - onBlack.data[p * 3 + c]!) / 255;
    }
    alpha[p] = Math.min(1, Math.max(0, cover / 3));
  }
  return { width, height, premultiplied, alpha };
}

/** The overlay over rows [y0, y1), seen through a frame-wide window starting `offset` px into it. */
function blendOverlay(
  out: Float32Array,
  width: number,
  y0: number,
  y1: number,
  layer: Overlay,
  offset: number,
) {
  const whole = Math.floor(offset);
  const frac = offset - whole;
  for (let y = y0; y < y1; y++) {
    for (let x = 0; x < width; x++) {
      const a = y * layer.width + Math.min(layer.width - 1, x + whole);
      const b = y * layer.width + Math.min(layer.width - 1, x + whole + 1);
      const alpha = layer.alpha[a]! * (1 - frac) + layer.alpha[b]! * frac;
      if (alpha <= 0.002) continue;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const colour = layer.premultiplied[a * 3 + c]! * (1 - frac) + layer.premultiplied[b * 3 + c]! * frac;
        out[i + c] = out[i + c]! * (1 - alpha) + colour;
      }
    }
  }
}

/** Darkens the land where a cloud above would throw its shadow (the cloud band mapped onto the ground). */
function shadeByClouds(
  out: Float32Array,
  width: number,
  height: number,
  horizon: number,
  clouds: Overlay,
  offset: number,
) {
  if (horizon >= height || horizon <= 0) return;
  const whole = Math.floor(offset * 1.6);
  for (let y = horizon; y < height; y++) {
    // The nearer the ground, the higher in the sky its cloud: rows map back up into the cloud band.
    const source = Math.round(horizon * 0.25 + ((y - horizon) / (height - horizon)) * horizon * 0.45);
    for (let x = 0; x < width; x++) {
      const alpha = clouds.alpha[source * clouds.width + ((x + whole) % clouds.width)]!;
      if (alpha <= 0.01) continue;
      const f = 1 - 0.28 * alpha;
      const i = (y * width + x) * 3;
      out[i] = out[i]! * f;
      out[i + 1] = out[i + 1]! * f;
      out[i + 2] = out[i + 2]! * f;
    }
  }
}

/** Alpha blending of an RGBA raster over rows [y0, y1). */
function blendRgba(out: Float32Array, layer: RawImage, y0: number, y1: number) {
  const { width, data } = layer;
  for (let p = y0 * width; p < y1 * width; p++) {
    const alpha = data[p * 4 + 3]! / 255;
    if (alpha === 0) continue;
    const i = p * 3;
    for (let c = 0; c < 3; c++) out[i + c] = out[i + c]! + (data[p * 4 + c]! - out[i + c]!) * alpha;
  }
}

/** An RGBA raster moved down by `shift` px, wrapping round (rain that keeps falling). */
function blendRgbaShifted(out: Float32Array, width: number, height: number, layer: RawImage, shift: number) {
  const whole = Math.floor(shift);
  for (let y = 0; y < height; y++) {
    const sourceRow = (((y - whole) % height) + height) % height;
    for (let x = 0; x < width; x++) {
      const p = sourceRow * width + x;
      const alpha = layer.data[p * 4 + 3]! / 255;
      if (alpha === 0) continue;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) out[i + c] = out[i + c]! + (layer.data[p * 4 + c]! - out[i + c]!) * alpha;
    }
  }
}

interface GlowField {
  box: { x0: number; y0: number; x1: number; y1: number };
  /** Per pixel of the box: the glow's falloff (0 outside its reach) and the angle round the source. */
  falloff: Float32Array;
  angle: Float32Array;
  colour: Rgb;
  strength: number;
}

/** What of the glow stays the same in every frame, worked out once. */
function glowField(
  width: number,
  height: number,
  source: { x: number; y: number; r: number },
  colour: Rgb,
  isSun: boolean,
): GlowField {
  const reach = source.r * (isSun ? 7 : 5);
  const box = {
    x0: Math.max(0, Math.floor(source.x - reach)),
    x1: Math.min(width, Math.ceil(source.x + reach)),
    y0: Math.max(0, Math.floor(source.y - reach)),
    y1: Math.min(height, Math.ceil(source.y + reach)),
  };
  const size = Math.max(0, box.x1 - box.x0) * Math.max(0, box.y1 - box.y0);
  const falloff = new Float32Array(size);
  const angle = new Float32Array(size);
  let k = 0;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++, k++) {
      const d = Math.hypot(x - source.x, y - source.y) / reach;
      falloff[k] = d >= 1 ? 0 : (1 - d) * (1 - d);
      angle[k] = Math.atan2(y - source.y, x - source.x);
    }
  }
  return { box, falloff, angle, colour, strength: isSun ? 0.22 : 0.12 };
}

/**
 * Soft light around the sun or moon: a glow whose strength breathes slowly and whose rays turn a
 * little, added to the sky (light adds, it does not cover).
 */
function addGlow(out: Float32Array, width: number, glow: GlowField, t: number, phase: number) {
  const strength = glow.strength * (0.75 + 0.25 * Math.sin(t * 0.9 + phase));
  const turn = t * 0.12 + phase;
  const { box, falloff, angle, colour } = glow;
  let k = 0;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++, k++) {
      const base = falloff[k]!;
      if (base === 0) continue;
      const ray = Math.max(0, Math.sin(9 * angle[k]! + turn));
      const f = strength * base * (0.65 + 0.35 * ray * ray * ray);
      const i = (y * width + x) * 3;
      out[i] = out[i]! + colour[0] * f;
      out[i + 1] = out[i + 1]! + colour[1] * f;
      out[i + 2] = out[i + 2]! + colour[2] * f;
    }
  }
}

/** The stars' lit pixels, their light and a flicker phase each: the rest of the sky is dark. */
function starPixels(image: RawImage) {
  const lit: number[] = [];
  for (let p = 0; p < image.width * image.height; p++) {
    if (image.data[p * 3]! + image.data[p * 3 + 1]! + image.data[p * 3 + 2]! > 0) lit.push(p);
  }
  const pixels = Uint32Array.from(lit);
  const light = new Float32Array(lit.length * 3);
  const phase = new Float32Array(lit.length);
  lit.forEach((p, k) => {
    for (let c = 0; c < 3; c++) light[k * 3 + c] = image.data[p * 3 + c]!;
    // Neighbouring pixels of one star share a phase (its 4×4 cell), so a star flickers as one.
    const cell = Math.floor(p / image.width / 4) * 7919 + Math.floor((p % image.width) / 4);
    phase[k] = ((cell * 2654435761) % 6283) / 1000;
  });
  return { pixels, light, phase };
}

interface Snowflake {
  x: number;
  y: number;
  near: number;
  sway: number;
}

/** As many flakes as the still has, each with its own depth (near ones bigger, brighter, faster). */
function snowflakes(width: number, height: number, rng: Rng): Snowflake[] {
  const count = Math.round((width * height) / 1400);
  return Array.from({ length: count }, () => {
    const near = Math.pow(rng(), 3);
    return { x: rng() * width, y: rng() * height, near, sway: rng() * Math.PI * 2 };
  });
}

function drawSnow(out: Float32Array, width: number, height: number, flakes: Snowflake[], t: number) {
  const scale = Math.max(width, height) / 1024;
  for (const flake of flakes) {
    const speed = (25 + 110 * flake.near) * scale;
    const y = (((flake.y + speed * t) % height) + height) % height;
    const x = flake.x + Math.sin(t * 0.8 + flake.sway) * (4 + 10 * flake.near) * scale;
    const radius = 0.6 + flake.near * 2.6;
    const intensity = 0.35 + 0.5 * flake.near;
    const reach = Math.ceil(radius * 2.5);
    const inv = 1 / (2 * radius * radius);
    for (
      let yy = Math.max(0, Math.floor(y - reach));
      yy <= Math.min(height - 1, Math.ceil(y + reach));
      yy++
    ) {
      for (
        let xx = Math.max(0, Math.floor(x - reach));
        xx <= Math.min(width - 1, Math.ceil(x + reach));
        xx++
      ) {
        const f = intensity * Math.exp(-((xx - x) ** 2 + (yy - y) ** 2) * inv);
        if (f < 0.004) continue;
        const i = (yy * width + xx) * 3;
        out[i] = out[i]! + 255 * f;
        out[i + 1] = out[i + 1]! + 255 * f;
        out[i + 2] = out[i + 2]! + 255 * f;
      }
    }
  }
}

/** Monochrome grain values, read from a different place each frame. */
function grainField(length: number, rng: Rng, amount: number): Float32Array {
  const field = new Float32Array(length);
  for (let i = 0; i < length; i++) field[i] = (rng() + rng() + rng() - 1.5) * amount;
  return field;
}

function blank(width: number, height: number): RawImage {
  return { data: Buffer.alloc(width * height * 3), width, height, channels: 3 };
}

async function rasteriseRgba(plan: ScenePlan, parts: SvgPart[]): Promise<RawImage> {
  return rawFrom(sharp(svgOf(plan, parts)).ensureAlpha());
}
