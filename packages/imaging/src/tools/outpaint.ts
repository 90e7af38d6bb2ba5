import type { TExtendDirection, TImageAspect } from '@mirra/contracts';
import { LOCAL_ENGINE_DESCRIPTIONS, withLocalEngineLabel } from '../raster/image-label.js';
import { engineNote, UnusableInputError } from '../pipeline.types.js';
import { encodePng, type RawImage, rawFrom, toSharp } from '../raster/raster.js';
import type { PersonSegmenter } from '../video/person-segmentation.js';
import { blurredPlate, matteOf } from './background.js';
import { decodeOrRefuse } from './inpaint.js';
import { type Step, stepOf, type ToolProgress, type ToolResult } from './tool.types.js';

/**
 * "Extend" for the local engine: canvas added on the chosen side (or all round, or to reach an
 * aspect) and filled from the photo itself, mirrored outwards and softened with distance (see
 * extendByMirror). The original pixels stay exactly where they were, shifted by the canvas added
 * before them. Patch-based fill was tried for this and rejected: over a third of a new picture it
 * assembles collages of the photo's most distinctive parts (a second face, half a helmet).
 */

export interface OutpaintTarget {
  /** The shape to reach (canvas is added on the sides that need it). */
  aspect?: TImageAspect;
  /** Where the canvas goes; with an aspect, the sides it may grow on ('all' centres the photo). */
  direction?: TExtendDirection;
  /** Without an aspect: how much is added, as a share of the photo's size in that direction (0.1–1). */
  by?: number;
}

export interface OutpaintOptions extends ToolProgress {
  seed: number;
  /**
   * The selfie segmentation: with it the person is left out of what is mirrored (no upside-down
   * head above a portrait, no second pair of shoulders beside it); without it everything is.
   */
  segmenter?: PersonSegmenter;
  /** The longest side of the result; the photo is scaled down first when the canvas would be larger. */
  maxSide?: number;
}

export const OUTPAINT_MAX_SIDE = 2048;
const DEFAULT_BY = 0.5;

/** Where the photo sits on the new canvas, in the photo's own pixels. */
export interface CanvasPlan {
  width: number;
  height: number;
  left: number;
  top: number;
}

/**
 * The canvas for a photo of width×height. With an aspect the canvas is the smallest of exactly that
 * shape (a whole multiple of it, so 16:9 is 16:9 to the pixel) that holds the photo; the photo is
 * placed by `direction` on the side that grows (centred for 'all' or a direction along the other
 * axis). Without one, `by` of the photo's size is added on that side (on each side for 'all').
 */
export function planCanvas(width: number, height: number, target: OutpaintTarget): CanvasPlan {
  const direction = target.direction ?? 'all';
  if (target.aspect) {
    const [aw, ah] = target.aspect.split(':').map(Number) as [number, number];
    const k = Math.max(Math.ceil(width / aw), Math.ceil(height / ah));
    const cw = aw * k;
    const ch = ah * k;
    const place = (room: number, before: boolean, after: boolean) =>
      before ? room : after ? 0 : Math.floor(room / 2);
    return {
      width: cw,
      height: ch,
      left: place(cw - width, direction === 'left', direction === 'right'),
      top: place(ch - height, direction === 'up', direction === 'down'),
    };
  }
  const by = Math.min(1, Math.max(0.1, target.by ?? DEFAULT_BY));
  const dx = Math.round(width * by);
  const dy = Math.round(height * by);
  switch (direction) {
    case 'left':
      return { width: width + dx, height, left: dx, top: 0 };
    case 'right':
      return { width: width + dx, height, left: 0, top: 0 };
    case 'up':
      return { width, height: height + dy, left: 0, top: dy };
    case 'down':
      return { width, height: height + dy, left: 0, top: 0 };
    default: {
      const sx = Math.round(dx / 2);
      const sy = Math.round(dy / 2);
      return { width: width + 2 * sx, height: height + 2 * sy, left: sx, top: sy };
    }
  }
}

export async function outpaint(
  data: Buffer,
  target: OutpaintTarget,
  options: OutpaintOptions,
): Promise<ToolResult> {
  const step = stepOf(options);
  const maxSide = options.maxSide ?? OUTPAINT_MAX_SIDE;
  let image = await decodeOrRefuse(data, maxSide);
  let plan = planCanvas(image.width, image.height, target);
  if (Math.max(plan.width, plan.height) > maxSide) {
    // Scale the photo so the canvas fits: the shape asked for matters more than the pixel count.
    const scale = maxSide / Math.max(plan.width, plan.height);
    image = await decodeOrRefuse(data, Math.floor(Math.max(image.width, image.height) * scale));
    plan = planCanvas(image.width, image.height, target);
  }
  if (plan.width === image.width && plan.height === image.height) {
    const png = await labelled(image).toBuffer();
    return {
      data: png,
      contentType: 'image/png',
      width: image.width,
      height: image.height,
      notes: [engineNote('outpaint.nothing', 'Nothing added: the photo already has that shape.')],
    };
  }
  const withoutPerson = options.segmenter ? await personRemoved(image, options.segmenter, step) : null;
  const filled = await extendByMirror(image, withoutPerson, plan, step);
  const png = await labelled(filled).toBuffer();
  const added = Math.round((1 - (image.width * image.height) / (plan.width * plan.height)) * 100);
  return {
    data: png,
    contentType: 'image/png',
    width: plan.width,
    height: plan.height,
    notes: [
      engineNote(
        'outpaint.extended',
        `Extended to ${plan.width}×${plan.height}: ${added}% of the picture is new, the photo’s edges mirrored outwards and softened with distance (the offline engine draws nothing new).`,
        { width: plan.width, height: plan.height, percent: added },
      ),
    ],
  };
}

/**
 * The canvas with the photo in place and the new part made of the photo reflected across its
 * edges: a reflection continues every line and colour at the edge exactly, so there is no seam. Further out the reflection is blurred more and more,
 * like a background out of focus, so the mirrored details (a second flag, a mirrored shoulder) do
 * not read as a copy. The photo's own pixels are not touched.
 */
async function extendByMirror(
  image: RawImage,
  withoutPerson: RawImage | null,
  plan: CanvasPlan,
  step: Step,
): Promise<RawImage> {
  const { width, height, left, top } = plan;
  const mirrored = Buffer.alloc(width * height * 3);
  // The person fades out of the reflection within a few pixels of the edge: continuous at the
  // edge itself, the background's reflection beyond.
  const fade = Math.max(3, Math.max(width, height) / 150);
  // Mirrored only within a band beside the edge, then held (the band's last line stretched out):
  // a full reflection would bring the far side of the photo, a second person, into the new part.
  const band = (size: number) => Math.max(2, Math.round(size * 0.18));
  const reflect = (v: number, size: number) => {
    if (v < 0) return Math.min(size - 1, Math.min(-v, band(size)) - 1);
    if (v >= size) return Math.max(0, size - Math.min(v - size + 1, band(size)));
    return v;
  };
  for (let y = 0; y < height; y++) {
    const sy = reflect(y - top, image.height);
    const dy = Math.max(0, top - y, y - (top + image.height - 1));
    for (let x = 0; x < width; x++) {
      const s = (sy * image.width + reflect(x - left, image.width)) * 3;
      const i = (y * width + x) * 3;
      const dx = Math.max(0, left - x, x - (left + image.width - 1));
      const own = withoutPerson ? Math.exp(-Math.sqrt(dx * dx + dy * dy) / fade) : 1;
      for (let c = 0; c < 3; c++) {
        const clean = withoutPerson ? withoutPerson.data[s + c]! : 0;
        mirrored[i + c] = Math.round(image.data[s + c]! * own + clean * (1 - own));
      }
    }
  }
  const long = Math.max(width, height);
  const canvas: RawImage = { data: mirrored, width, height, channels: 3 };
  const levels: Buffer[] = [mirrored];
  for (const [index, divisor] of [160, 60, 24].entries()) {
    levels.push((await rawFrom(toSharp(canvas).blur(Math.max(0.8, long / divisor)))).data);
    await step(0.2 + 0.2 * index);
  }
  const reach = Math.max(1, width - image.width, height - image.height) / 2 + 1;
  const out = Buffer.alloc(mirrored.length);
  for (let y = 0; y < height; y++) {
    const dy = Math.max(0, top - y, y - (top + image.height - 1));
    for (let x = 0; x < width; x++) {
      const dx = Math.max(0, left - x, x - (left + image.width - 1));
      const i = (y * width + x) * 3;
      if (dx === 0 && dy === 0) {
        out[i] = image.data[((y - top) * image.width + x - left) * 3]!;
        out[i + 1] = image.data[((y - top) * image.width + x - left) * 3 + 1]!;
        out[i + 2] = image.data[((y - top) * image.width + x - left) * 3 + 2]!;
        continue;
      }
      // 0 at the photo's edge, 3 (the strongest blur) a little beyond half the way out.
      const t = Math.min(3, (Math.sqrt(dx * dx + dy * dy) / reach) * 2.4);
      const k = Math.min(2, Math.floor(t));
      const f = t - k;
      for (let c = 0; c < 3; c++) {
        out[i + c] = Math.round(levels[k]![i + c]! * (1 - f) + levels[k + 1]![i + c]! * f);
      }
    }
  }
  return { data: out, width, height, channels: 3 };
}

/** The PNG with the local engine's label (EXIF and XMP): what made it, offline. */
function labelled(image: RawImage) {
  return withLocalEngineLabel(encodePng(image), LOCAL_ENGINE_DESCRIPTIONS.outpaint);
}

/**
 * The photo with the person replaced by the background around them (the blurred background
 * plate of the background tool), or null when there is no person.
 */
async function personRemoved(
  image: RawImage,
  segmenter: PersonSegmenter,
  step: Step,
): Promise<RawImage | null> {
  const matte = await matteOf(image, segmenter, async () => {}).catch((error: unknown) => {
    if (error instanceof UnusableInputError) return null;
    throw error;
  });
  await step(0.15);
  if (!matte) return null;
  const plate = await blurredPlate(image, matte.alpha);
  const out = Buffer.alloc(image.data.length);
  for (let i = 0; i < matte.alpha.length; i++) {
    const a = Math.min(1, matte.alpha[i]! * 1.5);
    for (let c = 0; c < 3; c++)
      out[i * 3 + c] = Math.round(image.data[i * 3 + c]! * (1 - a) + plate.data[i * 3 + c]! * a);
  }
  return { data: out, width: image.width, height: image.height, channels: 3 };
}
