import sharp from 'sharp';
import { mixHex } from '../raster/colour.js';
import { createRng, mixSeeds, pick, range, type Rng } from '../raster/random.js';
import { addGrain, type Checkpoint, rawFrom, type RawImage, toSharp, vignette } from '../raster/raster.js';
import type { ScenePlan } from './scene.models.js';
import {
  drawAurora,
  drawBokeh,
  drawClouds,
  drawGalaxy,
  drawNebula,
  drawSnowfall,
  drawStars,
  meshGradient,
  reflect,
} from './scene.pixels.js';
import { type AbstractKind, abstractLayer } from './scene.svg-abstract.js';
import { beachLayer, palmsLayer } from './scene.svg-coast.js';
import {
  cityLayer,
  dunesLayer,
  forestLayer,
  foregroundSlopes,
  groundLayer,
  hillsLayer,
  mountainLayer,
} from './scene.svg-land.js';
import { flowersLayer, neonGridLayer, rainLayer, waterHighlights } from './scene.svg-weather.js';
import { interiorLayer } from './scene.svg-interior.js';
import { type Layout, planetLayer, skyLayer, sunLayer, svgDocument } from './scene.svg.js';
import { composeSubjects, subjectsPart } from './subjects.compose.js';

export type SvgPart = { defs: string[]; body: string[] };

/**
 * Renders a scene plan in passes, back to front: vector sky → per-pixel sky (stars, gas, clouds) →
 * vector land → water reflection → vector foreground → particles → finish (vignette, grain).
 * Each layer draws from its own random stream (seed + layer name), so adding an element to a prompt
 * changes that element only, not the whole layout.
 */
export async function renderScene(
  plan: ScenePlan,
  checkpoint: Checkpoint = async () => {},
): Promise<RawImage> {
  const stream = (name: string) => createRng(mixSeeds(plan.renderSeed, hashName(name)));
  const image = plan.features.has('abstract')
    ? await renderAbstract(plan, stream, checkpoint)
    : await renderLandscape(plan, stream, checkpoint);
  await checkpoint();
  return finish(plan, image, stream('finish'));
}

export function hashName(name: string): number {
  let hash = 7;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
  return hash;
}

export function layoutFor(plan: ScenePlan, rng: Rng): Layout {
  const { width, height, features } = plan;
  const water = features.has('sea') || features.has('lake');
  const groundless =
    features.has('space') &&
    !['mountains', 'hills', 'sea', 'lake', 'forest', 'city', 'desert', 'flowers', 'snow'].some((f) =>
      features.has(f as never),
    );
  let horizonShare = 0.68;
  if (water) horizonShare = 0.6;
  else if (features.has('flowers')) horizonShare = 0.55;
  else if (features.has('desert')) horizonShare = 0.58;
  else if (features.has('hills') && !features.has('mountains')) horizonShare = 0.64;
  if (plan.shape === 'portrait') horizonShare += 0.04;
  if (plan.shape === 'wide') horizonShare += 0.04;
  let horizon = groundless ? height : Math.round(height * (horizonShare + range(rng, -0.03, 0.03)));
  // Seen through a room's window the land sits low in the glass; the floor starts below it.
  const floor = features.has('interior') ? Math.round(height * 0.66) : undefined;
  if (floor !== undefined) horizon = Math.round(height * 0.5);

  let sun: Layout['sun'] = null;
  if (features.has('sun') && plan.time !== 'night' && plan.time !== 'dusk') {
    const low = plan.time === 'sunset' || plan.time === 'sunrise';
    const r =
      width * (low ? 0.075 : plan.time === 'golden' ? 0.06 : 0.045) * (plan.moods.has('neon') ? 2.2 : 1);
    const y =
      plan.time === 'day'
        ? height * range(rng, 0.14, 0.26)
        : plan.time === 'golden'
          ? horizon - height * range(rng, 0.14, 0.2)
          : // Above the ridges when there are mountains, else just touching the horizon.
            horizon -
            (features.has('mountains') || features.has('city')
              ? height * range(rng, 0.3, 0.38)
              : r * range(rng, 0.2, 0.9));
    sun = { x: width * (plan.moods.has('neon') ? 0.5 : range(rng, 0.28, 0.72)), y, r };
  }
  const moon: Layout['moon'] =
    features.has('moon') && !sun
      ? {
          x: width * range(rng, 0.2, 0.8),
          y: Math.min(horizon * 0.45, height * range(rng, 0.14, 0.28)),
          r: width * 0.05,
        }
      : null;
  return { width, height, horizon, sun, moon, hasWater: water, ...(floor ? { floor } : {}) };
}

async function renderLandscape(
  plan: ScenePlan,
  stream: (name: string) => Rng,
  checkpoint: Checkpoint,
): Promise<RawImage> {
  const layout = layoutFor(plan, stream('layout'));
  const { features, palette } = plan;

  // Pass A: sky gradient, glow, sun and moon.
  let image = await rasterise(plan, [skyLayer(plan, layout), sunLayer(plan, layout)]);
  await checkpoint();

  // Per-pixel sky.
  drawSky(image, plan, layout, stream, { stars: true });
  const cover = cloudCover(plan);
  if (cover > 0) {
    drawClouds(image, layout, stream('clouds'), cloudLight(plan), cloudShade(plan), cover);
  }
  await checkpoint();

  // Pass B: land on the horizon and the ground.
  image = await composite(plan, image, landParts(plan, layout, stream));
  await checkpoint();

  // Water mirrors everything drawn so far.
  if (layout.hasWater) {
    const calm = features.has('lake') && !features.has('sea');
    reflect(image, layout, stream('reflection'), palette.water, calm);
  }

  // Pass C: foreground.
  const front = foregroundParts(plan, layout, stream);
  const indoors = features.has('interior');
  // Indoors the rain falls outside the window; outdoors it falls in front of everything.
  if (features.has('rain') && indoors) front.push(rainLayer(layout, stream('rain')));
  front.push(...roomAndSubjects(plan, layout, stream));
  if (features.has('rain') && !indoors) front.push(rainLayer(layout, stream('rain')));
  if (front.length > 0) image = await composite(plan, image, front);

  if (features.has('snow') && !indoors) drawSnowfall(image, stream('snowfall'));
  const bokeh = bokehCount(plan);
  if (bokeh > 0) drawBokeh(image, stream('bokeh'), [palette.lights, ...palette.accents], bokeh);
  return image;
}

/**
 * The room around the viewer (interiors) and the prompt's subjects standing in the scene. A plan
 * with its subjects emptied draws the same scene without them (each layer has its own stream).
 */
export function roomAndSubjects(plan: ScenePlan, layout: Layout, stream: (name: string) => Rng): SvgPart[] {
  const parts: SvgPart[] = [];
  if (plan.features.has('interior')) {
    const window = !plan.subjects.some((subject) => subject.art.icon === 'window');
    parts.push(interiorLayer(plan, layout, stream('interior'), { window }));
  }
  const placements = composeSubjects(plan, layout);
  if (placements.length > 0) parts.push(subjectsPart(plan, layout, placements));
  return parts;
}

/** The sky drawn per pixel over its gradient: gas of space, stars (unless the caller draws them), galaxy, aurora. */
export function drawSky(
  image: RawImage,
  plan: ScenePlan,
  layout: Layout,
  stream: (name: string) => Rng,
  options: { stars: boolean },
) {
  const { features, palette } = plan;
  if (features.has('space')) {
    const accents = palette.accents;
    drawNebula(image, stream('nebula'), [accents[0]!, accents[1]!, accents[2] ?? '#5a3dff']);
  }
  if (options.stars && features.has('stars'))
    drawStars(image, layout, stream('stars'), features.has('space') ? 1.6 : 1);
  if (features.has('galaxy'))
    drawGalaxy(image, stream('galaxy'), [palette.accents[1]!, palette.accents[2] ?? '#7fb2ff']);
  if (features.has('aurora')) drawAurora(image, layout, stream('aurora'));
}

/** How much of the sky clouds cover (0: no clouds): asked for, or a plain daytime sky's few. */
export function cloudCover(plan: ScenePlan): number {
  const { features, moods, time } = plan;
  const wanted =
    features.has('clouds') ||
    (!features.has('space') && !moods.has('minimal') && !moods.has('neon') && time !== 'night');
  if (!wanted) return 0;
  return features.has('rain') ? 0.95 : features.has('clouds') ? 0.6 : 0.3;
}

/** The colour of the clouds' shaded undersides. */
export function cloudShade(plan: ScenePlan): string {
  return mixHex(plan.palette.sky[1]!, plan.palette.near, 0.35);
}

/** The land on the horizon and the ground, back to front. */
export function landParts(plan: ScenePlan, layout: Layout, stream: (name: string) => Rng): SvgPart[] {
  const { features, moods } = plan;
  const landRng = stream('land');
  const land: SvgPart[] = [];
  if (features.has('planet')) land.push(planetLayer(plan, layout, stream('planet')));
  if (layout.horizon < plan.height) {
    if (features.has('mountains')) land.push(mountainLayer(plan, layout, landRng));
    if (features.has('hills')) land.push(hillsLayer(plan, layout, landRng));
    if (features.has('city')) land.push(cityLayer(plan, layout, stream('city')));
    if (features.has('forest')) land.push(forestLayer(plan, layout, stream('forest'), false));
    if (!layout.hasWater) {
      land.push(
        moods.has('neon') && !features.has('desert') && !features.has('flowers')
          ? neonGridLayer(layout)
          : groundLayer(plan, layout),
      );
      if (features.has('desert')) land.push(dunesLayer(plan, layout, stream('dunes')));
      else if (
        (features.has('mountains') || features.has('hills') || features.has('forest')) &&
        !features.has('flowers') &&
        !moods.has('neon')
      ) {
        land.push(foregroundSlopes(plan, layout, stream('slopes')));
      }
    }
  }
  return land;
}

/** What stands in front of the land and the water (rain is the caller's: a video moves it). */
export function foregroundParts(plan: ScenePlan, layout: Layout, stream: (name: string) => Rng): SvgPart[] {
  const { features, moods } = plan;
  const calm = features.has('lake') && !features.has('sea');
  const front: SvgPart[] = [];
  if (layout.hasWater) front.push(waterHighlights(plan, layout, stream('water'), calm));
  if (features.has('flowers') && !layout.hasWater) front.push(flowersLayer(plan, layout, stream('flowers')));
  if (features.has('beach')) front.push(beachLayer(plan, layout, stream('beach')));
  if (features.has('palms')) front.push(palmsLayer(plan, layout, stream('palms')));
  if (features.has('forest') && !moods.has('minimal'))
    front.push(forestLayer(plan, layout, stream('trees'), true));
  return front;
}

/** How many out-of-focus lights float over the scene (0: none). */
export function bokehCount(plan: ScenePlan): number {
  const { features, moods } = plan;
  if (!features.has('bokeh') && !(features.has('city') && moods.has('neon'))) return 0;
  return moods.has('minimal') || !features.has('bokeh') ? 12 : 30;
}

export function cloudLight(plan: ScenePlan): string {
  switch (plan.time) {
    case 'day':
      return '#ffffff';
    case 'sunrise':
    case 'sunset':
    case 'golden':
      return mixHex(plan.palette.glow, '#fff4e8', 0.35);
    case 'dusk':
      return mixHex(plan.palette.glow, plan.palette.sky[2]!, 0.4);
    case 'night':
      return mixHex(plan.palette.sky[3]!, '#aab4cc', 0.35);
  }
}

async function renderAbstract(
  plan: ScenePlan,
  stream: (name: string) => Rng,
  checkpoint: Checkpoint,
): Promise<RawImage> {
  const { width, height, palette } = plan;
  const rng = stream('abstract');
  // "Lights", "bokeh": a photographer's bokeh shot — dark, softly coloured, full of discs.
  const lightsOnly = plan.features.has('bokeh');
  const meshColours = lightsOnly
    ? palette.accents.map((colour) => mixHex(colour, '#07060f', 0.78))
    : [
        ...palette.accents,
        mixHex(palette.accents[0]!, '#0b0b1a', 0.6),
        mixHex(palette.accents[1]!, '#ffffff', 0.5),
      ];
  // The mesh gradient is smooth by nature: compute it small and let sharp scale it up.
  const small = meshGradient(96, Math.round((96 * height) / width), rng, meshColours);
  const image = await rawFrom(
    toSharp(small)
      .resize(width, height, { kernel: 'cubic', fit: 'fill' })
      .blur(width / 80),
  );
  await checkpoint();
  if (lightsOnly) {
    drawBokeh(image, stream('bokeh'), [palette.lights, ...palette.accents], 70);
    return image;
  }
  const layout: Layout = { width, height, horizon: height, sun: null, moon: null, hasWater: false };
  const kind: AbstractKind = pick(rng, ['ribbons', 'orbs', 'bauhaus', 'waves'] as const);
  return composite(plan, image, [abstractLayer(plan, layout, rng, kind)]);
}

function finish(plan: ScenePlan, image: RawImage, rng: Rng): Promise<RawImage> | RawImage {
  const vintage = plan.moods.has('vintage');
  const finished = addGrain(vignette(image, vintage ? 0.45 : 0.22), rng, vintage ? 10 : 3.5);
  return finished;
}

/** The parts as one SVG document the plan's size. */
export function svgOf(plan: ScenePlan, parts: SvgPart[]): Buffer {
  return Buffer.from(
    svgDocument(
      plan.width,
      plan.height,
      parts.flatMap((p) => p.defs),
      parts.flatMap((p) => p.body),
    ),
  );
}

/** The parts drawn on black, as RGB. */
export async function rasterise(plan: ScenePlan, parts: SvgPart[]): Promise<RawImage> {
  return rawFrom(sharp(svgOf(plan, parts)).flatten({ background: '#000000' }).removeAlpha());
}

async function composite(plan: ScenePlan, base: RawImage, parts: SvgPart[]): Promise<RawImage> {
  if (parts.length === 0) return base;
  return rawFrom(
    toSharp(base)
      .composite([{ input: svgOf(plan, parts), top: 0, left: 0 }])
      .removeAlpha(),
  );
}
