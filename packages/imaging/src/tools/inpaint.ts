import sharp from 'sharp';
import { LOCAL_ENGINE_DESCRIPTIONS, withLocalEngineLabel } from '../raster/image-label.js';
import { engineNote, UnusableInputError, type EngineNote } from '../pipeline.types.js';
import { decodePhoto, encodePng, MAX_INPUT_PIXELS, type RawImage } from '../raster/raster.js';
import { fillHole } from './patch-fill.models.js';
import { type Step, stepOf, type ToolProgress, type ToolResult } from './tool.types.js';

/**
 * Masked removal for the local engine: the painted area is filled from the rest of the photo by
 * exemplar-based inpainting (patch-fill.models.ts). It can remove, erase and clean up; it cannot
 * draw something new, and says so in a note naming the words it did not draw.
 */

export interface InpaintOptions extends ToolProgress {
  /** What the person asked for the painted area; removal wording (or none) is what can be done. */
  prompt?: string;
  seed: number;
  /** Longest side worked at and returned. */
  maxSide?: number;
}

/** 2048 px keeps a brush-sized fill within a few seconds; a larger photo is scaled to it. */
export const INPAINT_MAX_SIDE = 2048;

/**
 * Removes what the mask covers. `mask` is an image of any size (scaled to the photo's): white,
 * or any light colour, marks what to change; black or transparent keeps. Throws UnusableInputError
 * when the mask marks nothing or the whole photo (nothing would be left to fill from).
 */
export async function inpaint(data: Buffer, mask: Buffer, options: InpaintOptions): Promise<ToolResult> {
  const step = stepOf(options);
  const image = await decodeOrRefuse(data, options.maxSide ?? INPAINT_MAX_SIDE);
  const hole = await readMask(mask, image.width, image.height);
  const share = hole.reduce((sum, v) => sum + v, 0) / hole.length;
  if (share === 0) throw new UnusableInputError('empty_mask', 'The mask marks nothing to change.');
  if (share > 0.9) {
    throw new UnusableInputError(
      'empty_mask',
      'The mask covers almost the whole photo: nothing is left to fill from.',
    );
  }
  await step(0.05);
  const filled = await fillRaw(image, hole, { seed: options.seed, step: (done) => step(0.05 + 0.9 * done) });
  const png = await labelled(filled).toBuffer();
  const percent = Math.max(1, Math.round(share * 100));
  const notes: EngineNote[] = [
    engineNote(
      'inpaint.filled',
      `The painted area (${percent}% of the picture) was filled from the rest of the photo (patch-based inpainting by the offline engine).`,
      { percent },
    ),
  ];
  const notDrawn = wordsNotDrawn(options.prompt ?? '');
  if (notDrawn.length > 0) {
    notes.push(
      engineNote(
        'inpaint.not_drawn',
        `Not drawn: ${notDrawn.join('; ')}. The offline engine can only remove things and fill the area from the photo’s surroundings.`,
        { parts: notDrawn.join('; ') },
      ),
    );
  }
  return { data: png, contentType: 'image/png', width: filled.width, height: filled.height, notes };
}

export async function decodeOrRefuse(data: Buffer, maxSide: number): Promise<RawImage> {
  try {
    return await decodePhoto(data, maxSide);
  } catch (error) {
    throw new UnusableInputError(
      'unreadable_photo',
      `The photo could not be read: ${(error as Error).message}`,
    );
  }
}

/**
 * The mask at the photo's size as 0/1: flattened onto black (a brush stroke on a transparent layer
 * counts), light means change; then grown by a pixel or two, since a painted stroke's soft rim and
 * an object's own shadow and halo must go with it.
 */
export async function readMask(mask: Buffer, width: number, height: number): Promise<Uint8Array> {
  let grey: Buffer;
  try {
    grey = await sharp(mask, { limitInputPixels: MAX_INPUT_PIXELS })
      .flatten({ background: '#000000' })
      .resize(width, height, { fit: 'fill' })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
  } catch (error) {
    throw new UnusableInputError(
      'unreadable_photo',
      `The mask could not be read: ${(error as Error).message}`,
    );
  }
  const hole = new Uint8Array(width * height);
  for (let i = 0; i < hole.length; i++) hole[i] = grey[i]! > 127 ? 1 : 0;
  return grow(hole, width, height, Math.max(1, Math.round(Math.max(width, height) / 400)));
}

function grow(hole: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const out = Uint8Array.from(hole);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!hole[y * width + x]) continue;
      for (let dy = -radius; dy <= radius; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < width && yy < height) out[yy * width + xx] = 1;
        }
      }
    }
  }
  return out;
}

/** Fills the 1s of `hole` in a raw RGB image and returns the new image (known pixels untouched). */
export async function fillRaw(
  image: RawImage,
  hole: Uint8Array,
  options: { seed: number; step: Step },
): Promise<RawImage> {
  const { width, height } = image;
  const rgb = new Float32Array(width * height * 3);
  for (let i = 0; i < rgb.length; i++) rgb[i] = image.data[i]!;
  const filled = await fillHole({ rgb, hole, width, height }, { seed: options.seed, progress: options.step });
  const out = Buffer.from(image.data);
  for (let i = 0; i < hole.length; i++) {
    if (!hole[i]) continue;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.max(0, Math.min(255, Math.round(filled[i * 3 + c]!)));
  }
  return { data: out, width, height, channels: 3 };
}

/*
 * Removal wording in the app's six languages (en, ru, uk, de, kk, az): a clause that starts with
 * one of these (after "please") asks for what the fill does. Stems, so "removing", "убери",
 * "уберите", "entfernen" and "entferne" all match.
 */
const REMOVAL = [
  /^(please\s+)?(remove|erase|delete|clean|clear|get rid of|take (out|away|off)|retouch|hide|wipe|fix|without)\b/,
  /^(пожалуйста\s+)?(убер|убрат|удал|стер|сотр|очист|почист|скрой|спрячь|без)/,
  /^(будь ласка\s+)?(прибер|прибрат|видал|стер|зітр|очист|почист|сховай|без)/,
  /^(bitte\s+)?(entfern|lösch|weg|radier|bereinig|säuber|ohne)/,
  /^(өтінемін\s+)?(алып таста|өшір|жой|тазала|кетір|жасыр)/,
  /^(zəhmət olmasa\s+)?(sil|təmizlə|götür|çıxar|gizlət|yox et)/,
];

/**
 * The parts of the description asking for something other than a removal (split at commas,
 * semicolons, full stops and "and" in the six languages), as written: the words the fill cannot
 * draw. An empty description or one made of removals gives none.
 */
export function wordsNotDrawn(prompt: string): string[] {
  return prompt
    .split(/[,;.!?\n]+|\s+(?:and|then|и|і|та|und|dann|және|və)\s+/iu)
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .filter((part) => !REMOVAL.some((pattern) => pattern.test(part.toLowerCase())));
}

/** The PNG with the local engine's label (EXIF and XMP): what made it, offline. */
function labelled(image: RawImage) {
  return withLocalEngineLabel(encodePng(image), LOCAL_ENGINE_DESCRIPTIONS.inpaint);
}
