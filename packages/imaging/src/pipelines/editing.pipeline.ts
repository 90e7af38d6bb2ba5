import sharp from 'sharp';
import { engineNote, type EngineNote } from '../pipeline.types.js';
import { describeEdit, type EditOperation, MAX_UPSCALE_SIDE, type Strength } from './editing.models.js';
import {
  type Checkpoint,
  clampedBuffer,
  type Plane,
  rawFrom,
  type RawImage,
  toSharp,
} from '../raster/raster.js';
import {
  addFog,
  addRain,
  addSnow,
  findSky,
  MIN_SKY_SHARE,
  paintSky,
  personPlane,
  relight,
  replaceBackground,
  type SkyRegion,
  vintageLook,
} from './editing.scene.js';

export interface EditResult {
  image: RawImage;
  /** One line per operation actually applied, for the user. */
  notes: EngineNote[];
}

export interface EditTools {
  /** Seeds the drawn parts (clouds, stars, rain, snow, grain): the same seed, the same picture. */
  seed?: number;
  /**
   * The person mask of a photo (the bundled selfie segmentation): what a new background goes
   * behind, what a background blur keeps sharp and what fog stays in front of. Without it those
   * work without a person (centre kept sharp; no background replaced).
   */
  segmentPerson?: (photo: RawImage) => Promise<Plane>;
}

/**
 * Applies parsed operations one at a time. Each is its own sharp pipeline over raw pixels because
 * sharp reorders operations inside one pipeline, and the order here is deliberate (EDIT_ORDER).
 * `beforeEach` lets the caller stop between operations (cancellation).
 */
export async function applyEdits(
  input: RawImage,
  operations: EditOperation[],
  beforeEach: Checkpoint = async () => {},
  tools: EditTools = {},
): Promise<EditResult> {
  let image = input;
  const notes: EngineNote[] = [];
  const state: EditState = { seed: tools.seed ?? 1, sky: undefined, person: undefined };
  // The person is found once, on the picture as framed by the geometry steps that run first.
  const person = async (current: RawImage) => {
    if (state.person === undefined) {
      state.person = tools.segmentPerson ? await personPlane(current, tools.segmentPerson) : null;
    }
    return state.person;
  };
  for (const operation of operations) {
    await beforeEach();
    const result = await applySceneEdit(image, operation, state, person);
    const applied = result ?? (await applyEdit(image, operation));
    image = applied.image;
    notes.push(...('notes' in applied ? applied.notes : [applied.note]));
  }
  return { image, notes };
}

interface EditState {
  seed: number;
  /** The sky found by a sky step (null: none found), for the light step after it. */
  sky: SkyRegion | null | undefined;
  person: Plane | null | undefined;
}

/** The scene operations (editing.scene.ts); null for the others. */
async function applySceneEdit(
  image: RawImage,
  operation: EditOperation,
  state: EditState,
  person: (image: RawImage) => Promise<Plane | null>,
): Promise<{ image: RawImage; notes: EngineNote[] } | null> {
  const note = describeEdit(operation);
  switch (operation.kind) {
    case 'background': {
      const found = await person(image);
      if (!found) {
        return {
          image,
          notes: [
            engineNote(
              'edit.background_no_person',
              `background not replaced (${operation.scene}): no person was found to keep in front of a new one`,
              { scene: operation.scene },
            ),
          ],
        };
      }
      return { image: await replaceBackground(image, found, operation.scene, state.seed), notes: [note] };
    }
    case 'sky': {
      const sky = await findSky(image);
      if (sky.share < MIN_SKY_SHARE) {
        state.sky = null;
        return {
          image,
          notes: [
            engineNote(
              'edit.no_sky',
              'no open sky was found in the photo, so the sky was not repainted; the light of the whole picture was changed instead',
            ),
          ],
        };
      }
      state.sky = sky;
      const percent = Math.round(sky.share * 100);
      return {
        image: await paintSky(image, sky, operation.look, operation.dramatic, state.seed),
        notes: [
          { ...note, params: { ...note.params, percent }, text: `${note.text} (${percent}% of the picture)` },
        ],
      };
    }
    case 'light': {
      // With no sky to repaint the light carries the whole wish, so it is not held back.
      const strength = state.sky === null && operation.strength === 'light' ? 'medium' : operation.strength;
      return { image: relight(image, operation.look, strength, state.sky?.mask ?? null), notes: [note] };
    }
    case 'fog':
      return { image: addFog(image, operation.strength, state.seed, await person(image)), notes: [note] };
    case 'rain':
      return { image: await addRain(image, operation.strength, state.seed), notes: [note] };
    case 'snow':
      return { image: await addSnow(image, operation.strength, state.seed), notes: [note] };
    case 'vintage':
      return { image: vintageLook(image, state.seed), notes: [note] };
    case 'blur_background': {
      const found = await person(image);
      if (!found) return null;
      const sigma = 9 * STRENGTH_SCALE[operation.strength] * sizeScale(image);
      return {
        image: await blurAround(image, found, sigma),
        notes: [
          engineNote(
            'edit.blur_background_person',
            `background blurred (${operation.strength}) around the person found in the photo`,
            { strength: operation.strength },
          ),
        ],
      };
    }
    default:
      return null;
  }
}

/** The background blurred, the person (mask 255) kept sharp, with the mask's soft edge between. */
async function blurAround(image: RawImage, person: Plane, sigma: number): Promise<RawImage> {
  const blurred = await rawFrom(toSharp(image).blur(Math.max(0.5, sigma)));
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let i = 0, p = 0; i < person.data.length; i++, p += 3) {
    const k = 1 - person.data[i]! / 255;
    out[p] = image.data[p]! + (blurred.data[p]! - image.data[p]!) * k;
    out[p + 1] = image.data[p + 1]! + (blurred.data[p + 1]! - image.data[p + 1]!) * k;
    out[p + 2] = image.data[p + 2]! + (blurred.data[p + 2]! - image.data[p + 2]!) * k;
  }
  return { ...image, data: outBuffer };
}

const STRENGTH_SCALE: Record<Strength, number> = { light: 0.5, medium: 1, strong: 1.8 };

/** Blur radii are tuned at 1024 px; a 3000 px photo needs three times the sigma to look the same. */
const sizeScale = (image: RawImage) => Math.max(image.width, image.height) / 1024;

async function applyEdit(
  image: RawImage,
  operation: EditOperation,
): Promise<{ image: RawImage; note: EngineNote }> {
  const note = describeEdit(operation);
  const run = async (pipeline: sharp.Sharp) => ({ image: await rawFrom(pipeline), note });
  switch (operation.kind) {
    case 'rotate':
      return run(toSharp(image).rotate(operation.degrees));
    case 'flip':
      return run(operation.axis === 'horizontal' ? toSharp(image).flop() : toSharp(image).flip());
    case 'crop':
      return run(cropPipeline(image, operation));
    case 'auto_levels':
      return run(toSharp(image).normalise({ lower: 1, upper: 99 }));
    case 'brightness':
      return run(toSharp(image).modulate({ brightness: 1 + operation.percent / 100 }));
    case 'contrast': {
      // A straight line through mid-grey: slope > 1 spreads tones apart, < 1 pulls them together.
      const slope = 1 + operation.percent / 100;
      return run(toSharp(image).linear(slope, 128 * (1 - slope)));
    }
    case 'saturation':
      return run(toSharp(image).modulate({ saturation: Math.max(0, 1 + operation.percent / 100) }));
    case 'warmth': {
      // Warm = more red, less blue (like a lower colour temperature); green barely moves.
      const t = operation.percent / 100;
      return run(toSharp(image).linear([1 + 0.3 * t, 1 + 0.05 * t, 1 - 0.35 * t], [6 * t, 0, -6 * t]));
    }
    case 'grayscale':
      return run(toSharp(image).greyscale().toColourspace('srgb'));
    case 'sepia':
      return run(
        toSharp(image).recomb([
          [0.35, 0.68, 0.17],
          [0.31, 0.61, 0.15],
          [0.24, 0.47, 0.11],
        ]),
      );
    case 'invert':
      return run(toSharp(image).negate({ alpha: false }));
    case 'blur_background':
      return {
        image: await blurBackground(image, 9 * STRENGTH_SCALE[operation.strength] * sizeScale(image)),
        note,
      };
    case 'blur':
      return run(
        toSharp(image).blur(Math.max(0.5, 3 * STRENGTH_SCALE[operation.strength] * sizeScale(image))),
      );
    case 'upscale':
      return upscale(image, operation);
    case 'sharpen': {
      const amount = STRENGTH_SCALE[operation.strength];
      return run(toSharp(image).sharpen({ sigma: 0.6 + 0.6 * amount, m1: 0.5, m2: 1.5 + 1.5 * amount }));
    }
    default:
      // The scene operations are applied by applySceneEdit.
      return { image, note };
  }
}

function cropPipeline(image: RawImage, operation: Extract<EditOperation, { kind: 'crop' }>): sharp.Sharp {
  const { width, height } = image;
  if (!operation.aspect) {
    const cropWidth = Math.max(1, Math.round(width * operation.keep));
    const cropHeight = Math.max(1, Math.round(height * operation.keep));
    return toSharp(image).extract({
      left: Math.floor((width - cropWidth) / 2),
      top: Math.floor((height - cropHeight) / 2),
      width: cropWidth,
      height: cropHeight,
    });
  }
  const ratio = operation.aspect.width / operation.aspect.height;
  const cropWidth = width / height > ratio ? Math.round(height * ratio) : width;
  const cropHeight = width / height > ratio ? height : Math.round(width / ratio);
  // "cover" at the size of the largest such rectangle crops without scaling; the attention strategy
  // keeps the busiest, most skin- and colour-rich part, which is where the person usually is.
  return toSharp(image).resize(cropWidth, cropHeight, { fit: 'cover', position: sharp.strategy.attention });
}

/**
 * Portrait-mode look without a depth map: an ellipse around the centre (slightly above it, where a
 * face usually is) stays sharp and the rest is blurred, with a wide soft edge so there is no visible
 * seam. Honest about its limits in the note: it keeps the centre, not a detected person.
 */
async function blurBackground(image: RawImage, sigma: number): Promise<RawImage> {
  const { width, height } = image;
  const blurred = await rawFrom(toSharp(image).blur(Math.max(0.5, sigma)));
  const [out, outBuffer] = clampedBuffer(image.data.length);
  const cx = width / 2;
  const cy = height * 0.45;
  const rx = width * 0.3;
  const ry = height * 0.4;
  for (let y = 0; y < height; y++) {
    const dy = (y - cy) / ry;
    for (let x = 0; x < width; x++) {
      const dx = (x - cx) / rx;
      const d = Math.sqrt(dx * dx + dy * dy);
      // smoothstep from 0.8 (all sharp) to 1.35 (all blurred)
      const t = Math.min(1, Math.max(0, (d - 0.8) / 0.55));
      const k = t * t * (3 - 2 * t);
      const p = (y * width + x) * 3;
      out[p] = image.data[p]! + (blurred.data[p]! - image.data[p]!) * k;
      out[p + 1] = image.data[p + 1]! + (blurred.data[p + 1]! - image.data[p + 1]!) * k;
      out[p + 2] = image.data[p + 2]! + (blurred.data[p + 2]! - image.data[p + 2]!) * k;
    }
  }
  return { ...image, data: outBuffer };
}

async function upscale(
  image: RawImage,
  operation: Extract<EditOperation, { kind: 'upscale' }>,
): Promise<{ image: RawImage; note: EngineNote }> {
  const longSide = Math.max(image.width, image.height);
  const wanted =
    'factor' in operation.target ? longSide * operation.target.factor : operation.target.longSide;
  const target = Math.min(MAX_UPSCALE_SIDE, Math.round(wanted));
  if (target <= longSide) {
    const { width, height } = image;
    return {
      image,
      note: engineNote(
        'edit.not_upscaled',
        `not upscaled: the photo is already ${width}×${height} (the limit is ${MAX_UPSCALE_SIDE} px)`,
        { width, height, limit: MAX_UPSCALE_SIDE },
      ),
    };
  }
  const scale = target / longSide;
  const width = Math.round(image.width * scale);
  const height = Math.round(image.height * scale);
  // Lanczos keeps edges crisper than bicubic; a light unsharp mask then restores some of the
  // perceived detail any interpolation loses. There is no learned super-resolution offline.
  const upscaled = await rawFrom(
    toSharp(image)
      .resize(width, height, { kernel: sharp.kernel.lanczos3 })
      .sharpen({ sigma: 0.8, m1: 0.3, m2: 1.5 }),
  );
  const factor = formatFactor(scale);
  const capped = wanted > MAX_UPSCALE_SIDE;
  const text = `upscaled ${factor}× to ${width}×${height}${capped ? ` (capped at ${MAX_UPSCALE_SIDE} px)` : ''}, Lanczos with light sharpening`;
  return {
    image: upscaled,
    note: capped
      ? engineNote('edit.upscaled_capped', text, { factor, width, height, limit: MAX_UPSCALE_SIDE })
      : engineNote('edit.upscaled', text, { factor, width, height }),
  };
}

const formatFactor = (value: number) => String(Math.round(value * 100) / 100);
