import sharp from 'sharp';
import { LOCAL_ENGINE_DESCRIPTIONS, withLocalEngineLabel } from '../raster/image-label.js';
import { engineNote, UnusableInputError, type EngineNote } from '../pipeline.types.js';
import { clampedBuffer, decodePhoto, encodePng, type RawImage, rawFrom, toSharp } from '../raster/raster.js';
import { describeScene, planScene } from '../scene/scene.models.js';
import { renderScene } from '../scene/scene.render.js';
import { createPersonSegmenter, type PersonSegmenter } from '../video/person-segmentation.js';
import { boxMean, estimateForeground, halve, refineAlpha, smoothstep } from './matting.models.js';
import { type Step, stepOf, type ToolProgress, type ToolResult } from './tool.types.js';

/**
 * The background tool of the local engine: the person cut out by the bundled selfie segmentation,
 * the outline refined on the photo's colours (hair becomes partial alpha), then the background
 * removed (a PNG with real transparency) or replaced by a colour, a blurred copy of the photo or a
 * drawn scene from a description. Classical processing around one small model; deterministic.
 */

export type BackgroundChoice =
  | { kind: 'transparent' }
  | { kind: 'colour'; colour: string }
  | { kind: 'blur' }
  | { kind: 'scene'; prompt: string; seed: number };

export interface BackgroundOptions extends ToolProgress {
  /** The selfie segmentation (the engine's shared one); a new one by default (its model loads once). */
  segmenter?: PersonSegmenter;
  /** Longest side worked at and returned; larger photos are scaled down to it. */
  maxSide?: number;
}

/** The largest side the tool works at: 2048 px keeps a cut-out within a few seconds on one core. */
export const BACKGROUND_MAX_SIDE = 2048;

/** Below this share of the picture nobody was found to cut out. */
export const MIN_PERSON_SHARE = 0.01;

/*
 * How sure the model must be: of what it calls person (above one half), the share it is sure of
 * (above 0.9) and the share it hesitates over (0.2–0.8). Measured on the test photos: portraits
 * are 0.77–0.99 sure with at most 0.28 hesitant (a small person seen closer included); a coffee
 * cup, the model's favourite mistake, is 0.67 sure and 0.46 hesitant.
 */
const MIN_SURE_SHARE = 0.72;
const MAX_UNSURE_SHARE = 0.4;

function noPerson(share: number): UnusableInputError {
  return new UnusableInputError(
    'no_person',
    `No person was found in the photo (${(share * 100).toFixed(1)}% of it looks like a person, not surely).`,
  );
}

interface Mask {
  data: Buffer;
  width: number;
  height: number;
}

/** The model's answer for the photo and for its mirror image, averaged. */
async function segmentBothWays(segmenter: PersonSegmenter, image: RawImage): Promise<Mask> {
  const straight = await segmenter.segment(image);
  const flipped = await segmenter.segment(await rawFrom(toSharp(image).flop()));
  const { width, height } = straight;
  const data = Buffer.alloc(straight.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      data[i] = (straight.data[i]! + flipped.data[y * width + (width - 1 - x)]!) >> 1;
    }
  }
  return { data, width, height };
}

/** The person's bounding box in photo pixels with a margin of a third, or null when there is none. */
function personBox(mask: Mask, width: number, height: number) {
  let x0 = mask.width;
  let y0 = mask.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      if (mask.data[y * mask.width + x]! <= 127) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  if (x1 < 0) return null;
  const sx = width / mask.width;
  const sy = height / mask.height;
  const side = Math.max((x1 - x0 + 1) * sx, (y1 - y0 + 1) * sy) * 1.33;
  const cx = ((x0 + x1 + 1) / 2) * sx;
  const cy = ((y0 + y1 + 1) / 2) * sy;
  const left = Math.max(0, Math.round(cx - side / 2));
  const top = Math.max(0, Math.round(cy - side / 2));
  return {
    left,
    top,
    width: Math.max(8, Math.min(width - left, Math.round(side))),
    height: Math.max(8, Math.min(height - top, Math.round(side))),
  };
}

function confidenceOf(mask: Uint8Array | Buffer) {
  let person = 0;
  let sure = 0;
  let unsure = 0;
  for (const v of mask) {
    if (v > 127) person++;
    if (v > 230) sure++;
    if (v > 50 && v < 205) unsure++;
  }
  return {
    share: person / mask.length,
    sure: sure / Math.max(1, person),
    unsure: unsure / Math.max(1, person),
  };
}

/** The person's alpha (0–1 per pixel) at the photo's size, refined at the edges. */
export interface PersonMatte {
  image: RawImage;
  alpha: Float32Array;
  /** Share of the picture that is person (alpha above one half), 0–1. */
  share: number;
}

/**
 * Finds the person and refines the outline. The model sees the photo and its mirror image (its
 * 256 px view is noisy at the outline; the average of both is steadier), the 256 px answer is
 * scaled up smoothly and refined on the full-size colours. Throws UnusableInputError when no
 * person is in the photo.
 */
export async function mattePerson(
  data: Buffer,
  options: BackgroundOptions = {},
  step: Step = stepOf(options),
): Promise<PersonMatte> {
  const segmenter = options.segmenter ?? createPersonSegmenter();
  let image: RawImage;
  try {
    image = await decodePhoto(data, options.maxSide ?? BACKGROUND_MAX_SIDE);
  } catch (error) {
    throw new UnusableInputError(
      'unreadable_photo',
      `The photo could not be read: ${(error as Error).message}`,
    );
  }
  return matteOf(image, segmenter, step);
}

/** The matte of a decoded photo (see mattePerson). */
export async function matteOf(image: RawImage, segmenter: PersonSegmenter, step: Step): Promise<PersonMatte> {
  const { width, height } = image;
  const whole = await segmentBothWays(segmenter, image);
  await step(0.2);
  const box = personBox(whole, width, height);
  if (!box) throw noPerson(0);
  // A small person is a few dozen of the model's 256 px: a second, closer look at them gives a
  // steadier outline and a surer answer (a cup or a lamp stays unsure however close it is seen).
  const zoom = box.width * box.height < 0.6 * width * height;
  const view = zoom ? await segmentBothWays(segmenter, await rawFrom(toSharp(image).extract(box))) : whole;
  const frame = zoom ? box : { left: 0, top: 0, width, height };
  const certainty = confidenceOf(view.data);
  if (certainty.sure < MIN_SURE_SHARE || certainty.unsure > MAX_UNSURE_SHARE) throw noPerson(certainty.share);
  const { data: large } = await sharp(view.data, {
    raw: { width: view.width, height: view.height, channels: 1 },
  })
    .resize(frame.width, frame.height, { fit: 'fill', kernel: 'cubic' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const coarse = new Float32Array(width * height);
  let person = 0;
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const v = large[y * frame.width + x]!;
      coarse[(y + frame.top) * width + x + frame.left] = v / 255;
      if (v > 127) person++;
    }
  }
  const coarseShare = person / coarse.length;
  if (coarseShare < MIN_PERSON_SHARE) throw noPerson(coarseShare);
  await step(0.35);
  const alpha = refineAlpha(image, coarse);
  await step(0.55);
  let kept = 0;
  for (let i = 0; i < alpha.length; i++) if (alpha[i]! > 0.5) kept++;
  return { image, alpha, share: kept / alpha.length };
}

/** The person on a transparent background: a PNG whose alpha is the refined matte. */
export async function cutOutPerson(data: Buffer, options: BackgroundOptions = {}): Promise<ToolResult> {
  return replaceBackground(data, { kind: 'transparent' }, options);
}

/** The person in front of the chosen background (or none). */
export async function replaceBackground(
  data: Buffer,
  background: BackgroundChoice,
  options: BackgroundOptions = {},
): Promise<ToolResult> {
  const step = stepOf(options);
  const matte = await mattePerson(data, options, step);
  const { image, alpha } = matte;
  const { width, height } = image;
  const foreground = estimateForeground(image, alpha);
  await step(0.7);
  const percent = Math.round(matte.share * 100);
  const cutNote = engineNote(
    'background.cut_out',
    `Person cut out (${percent}% of the picture) by the offline selfie segmentation, the outline refined on the photo’s colours.`,
    { percent },
  );
  if (background.kind === 'transparent') {
    const rgba = Buffer.alloc(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      rgba[i * 4] = foreground.data[i * 3]!;
      rgba[i * 4 + 1] = foreground.data[i * 3 + 1]!;
      rgba[i * 4 + 2] = foreground.data[i * 3 + 2]!;
      rgba[i * 4 + 3] = Math.round(alpha[i]! * 255);
    }
    const png = await labelled({ data: rgba, width, height, channels: 4 }).toBuffer();
    return {
      data: png,
      contentType: 'image/png',
      width,
      height,
      notes: [cutNote, engineNote('background.removed', 'Background removed: a PNG with transparency.')],
    };
  }
  let backdrop: RawImage;
  let notes: EngineNote[];
  let wrap = 0;
  if (background.kind === 'colour') {
    const colour = parseHexColour(background.colour);
    backdrop = solid(width, height, colour);
    notes = [
      engineNote('background.colour', `Background replaced with the colour ${background.colour}.`, {
        colour: background.colour.toLowerCase(),
      }),
    ];
  } else if (background.kind === 'blur') {
    backdrop = await blurredPlate(image, alpha);
    notes = [engineNote('background.blurred', 'Background blurred behind the sharp person.')];
    wrap = 0.25;
  } else {
    const scene = await sceneBackdrop(image, background.prompt, background.seed, () => step(0.8));
    backdrop = scene.backdrop;
    notes = [
      engineNote('edit.background_replaced', `background replaced with a drawn scene: ${background.prompt}`, {
        scene: background.prompt,
      }),
      ...scene.notes,
    ];
    wrap = 0.45;
  }
  await step(0.9);
  const composed = composite(
    matchLight(foreground, alpha, backdrop, background.kind === 'scene' ? 0.2 : 0),
    alpha,
    backdrop,
    wrap,
  );
  const png = await labelled(composed).toBuffer();
  return { data: png, contentType: 'image/png', width, height, notes: [cutNote, ...notes] };
}

/** `#rrggbb` (or `#rgb`) as RGB; anything else is a programming error of the caller. */
export function parseHexColour(colour: string): [number, number, number] {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(colour);
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  const parts = long ? long.slice(1) : short ? short.slice(1).map((c) => c + c) : null;
  if (!parts) throw new TypeError(`Not a #rrggbb colour: ${colour}`);
  return parts.map((part) => parseInt(part, 16)) as [number, number, number];
}

function solid(width: number, height: number, [r, g, b]: [number, number, number]): RawImage {
  const data = Buffer.alloc(width * height * 3);
  for (let p = 0; p < data.length; p += 3) {
    data[p] = r;
    data[p + 1] = g;
    data[p + 2] = b;
  }
  return { data, width, height, channels: 3 };
}

/**
 * The photo's background out of focus, with the person taken out first: a blur weighted by how
 * much each pixel is background (normalised convolution), so the person's colours do not smear
 * into a glow around them; behind the person the surrounding background is spread in from a wider
 * window, and the whole plate is blurred like a lens at a wide aperture.
 */
export async function blurredPlate(image: RawImage, alpha: Float32Array): Promise<RawImage> {
  const { width, height } = image;
  // Worked out at half size: the plate is blurred anyway, and it is four times less work.
  const small = halve(image.data, width, height, 3);
  const half: RawImage = {
    data: Buffer.from(small.data.map((v) => Math.round(v))),
    width: small.width,
    height: small.height,
    channels: 3,
  };
  const n = half.width * half.height;
  const smallAlpha = halve(alpha, width, height, 1).data;
  const radius = Math.max(2, Math.round(Math.max(half.width, half.height) / 45));
  const weight = new Float32Array(n);
  for (let i = 0; i < n; i++) weight[i] = (1 - smallAlpha[i]!) ** 2;
  const fine = normalisedBlur(half, weight, radius);
  const wide = normalisedBlur(half, weight, radius * 5);
  const out = Buffer.alloc(n * 3);
  for (let i = 0; i < n; i++) {
    // Where the narrow window saw almost no background (behind the person), the wide one fills in.
    const k = smoothstep(0.02, 0.25, fine.weight[i]!);
    for (let c = 0; c < 3; c++) {
      out[i * 3 + c] = Math.round(fine.colour[c]![i]! * k + wide.colour[c]![i]! * (1 - k));
    }
  }
  return rawFrom(
    toSharp({ data: out, width: half.width, height: half.height, channels: 3 })
      .resize(width, height, { fit: 'fill' })
      .blur(Math.max(1, Math.max(width, height) / 110)),
  );
}

function normalisedBlur(image: RawImage, weight: Float32Array, radius: number) {
  const { width, height } = image;
  const n = width * height;
  const blur = (plane: Float32Array) =>
    boxMean(boxMean(boxMean(plane, width, height, radius), width, height, radius), width, height, radius);
  const w = blur(weight);
  const colour: Float32Array[] = [];
  const channel = new Float32Array(n);
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < n; i++) channel[i] = image.data[i * 3 + c]! * weight[i]!;
    const blurred = blur(channel);
    for (let i = 0; i < n; i++) blurred[i] = w[i]! > 1e-4 ? blurred[i]! / w[i]! : image.data[i * 3 + c]!;
    colour.push(blurred);
  }
  return { colour, weight: w };
}

/** The drawn scene of the description at the photo's size, softened like a background out of focus. */
async function sceneBackdrop(
  image: RawImage,
  prompt: string,
  seed: number,
  checkpoint: () => Promise<void>,
): Promise<{ backdrop: RawImage; notes: EngineNote[] }> {
  const { width, height } = image;
  const plan = planScene(prompt, seed);
  const scale = Math.min(1, 1024 / Math.max(width, height));
  plan.width = Math.max(64, Math.round(width * scale));
  plan.height = Math.max(64, Math.round(height * scale));
  const scene = await renderScene(plan, checkpoint);
  const backdrop = await rawFrom(
    toSharp(scene)
      .resize(width, height, { fit: 'cover' })
      .blur(Math.max(0.6, Math.max(width, height) / 500)),
  );
  return { backdrop, notes: describeScene(plan).filter((note) => note.code !== 'scene.procedural') };
}

/**
 * The person's colours moved part of the way towards the new background's average light (in
 * proportion to their own brightness, so shadows stay shadows): a person lit by a grey office
 * does not look pasted onto a sunset.
 */
function matchLight(
  foreground: RawImage,
  alpha: Float32Array,
  backdrop: RawImage,
  strength: number,
): RawImage {
  if (strength <= 0) return foreground;
  const n = foreground.width * foreground.height;
  const fore = [0, 0, 0];
  const back = [0, 0, 0];
  let fw = 0;
  let bw = 0;
  for (let i = 0; i < n; i++) {
    const a = alpha[i]!;
    for (let c = 0; c < 3; c++) {
      fore[c]! += foreground.data[i * 3 + c]! * a;
      back[c]! += backdrop.data[i * 3 + c]! * (1 - a);
    }
    fw += a;
    bw += 1 - a;
  }
  const foreMean = fore.map((v) => v / Math.max(1, fw));
  const backMean = back.map((v) => v / Math.max(1, bw));
  const foreLum = (foreMean[0]! + foreMean[1]! + foreMean[2]!) / 3;
  const backLum = (backMean[0]! + backMean[1]! + backMean[2]!) / 3;
  // Gains that carry the backdrop's colour cast (not its brightness) onto the person.
  const gain = [0, 1, 2].map((c) => {
    const cast = backMean[c]! / Math.max(1, backLum);
    const own = foreMean[c]! / Math.max(1, foreLum);
    return 1 + (cast / Math.max(0.2, own) - 1) * strength;
  });
  const brightness = 1 + (backLum / Math.max(1, foreLum) - 1) * strength * 0.5;
  const [out, buffer] = clampedBuffer(foreground.data.length);
  for (let i = 0; i < n * 3; i++)
    out[i] = foreground.data[i]! * gain[i % 3]! * Math.min(1.3, Math.max(0.7, brightness));
  return { ...foreground, data: buffer };
}

/**
 * αF + (1−α)B, with a little "light wrap": near the outline some of the new background's light
 * spills over the person's edge, as it does in a real photo.
 */
function composite(foreground: RawImage, alpha: Float32Array, backdrop: RawImage, wrap: number): RawImage {
  const { width, height } = foreground;
  const n = width * height;
  const spill =
    wrap > 0
      ? boxMean(
          boxMean(alpha, width, height, Math.max(2, Math.round(Math.max(width, height) / 200))),
          width,
          height,
          2,
        )
      : null;
  const [out, buffer] = clampedBuffer(n * 3);
  for (let i = 0; i < n; i++) {
    const a = alpha[i]!;
    const edge = spill ? wrap * a * (1 - spill[i]!) * 2 : 0;
    for (let c = 0; c < 3; c++) {
      const f = foreground.data[i * 3 + c]!;
      const b = backdrop.data[i * 3 + c]!;
      const person = f + (b - f) * Math.min(0.6, edge);
      out[i * 3 + c] = person * a + b * (1 - a);
    }
  }
  return { data: buffer, width, height, channels: 3 };
}

/** The PNG with the local engine's label (EXIF and XMP): what made it, offline. */
function labelled(image: RawImage) {
  return withLocalEngineLabel(encodePng(image), LOCAL_ENGINE_DESCRIPTIONS.background);
}
