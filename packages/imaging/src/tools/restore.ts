import sharp from 'sharp';
import type { FaceAnalyzer } from '../faces/face-analyzer.js';
import type { Box } from '../faces/faces.types.js';
import { engineNote, type EngineNote } from '../pipeline.types.js';
import { denoise } from './denoise.models.js';
import {
  applyTones,
  estimateNoise,
  fillDefects,
  findDefects,
  luminanceOf,
  measureCast,
  measureLevels,
  type Rgb,
} from './restore.models.js';
import { superResolve } from './super-resolution.js';
import {
  decodeWithAlpha,
  encodeResult,
  type LocalToolOptions,
  type LocalToolResult,
  resizePlane,
  resizeRgb,
  stepper,
} from './tool-io.js';

/**
 * "Restore an old photo" in the local engine: scratches and dust filled in, grain smoothed, faded
 * tones stretched back and the colour cast of a yellowed print removed, the faces sharpened, and a
 * small scan enlarged ×2 by the super-resolution network. Classical processing around the bundled
 * face detector and ESRGAN; deterministic. Each step that changed something says so in a note.
 */

export interface RestoreOptions extends LocalToolOptions {
  /** The face analyser (the engine's shared one); without it faces are not sharpened. */
  faces?: FaceAnalyzer;
  /** Enlarge photos whose longest side is under SMALL_PHOTO_SIDE ×2 (default true). */
  upscaleSmall?: boolean;
}

/** The longest side restoration works at: old prints are scanned large; this keeps it in seconds. */
export const RESTORE_MAX_SIDE = 2048;

/** Photos smaller than this on their longest side are enlarged ×2 after the repair. */
export const SMALL_PHOTO_SIDE = 800;

/** Below this noise σ (0–255 steps) the photo is left unsmoothed: smoothing would only soften it. */
const NOISE_TO_SMOOTH = 2.5;

/** A channel's stretch or a grey gain smaller than this is not worth a note. */
const VISIBLE_CHANGE = 0.06;

export async function restoreOldPhoto(data: Buffer, options: RestoreOptions = {}): Promise<LocalToolResult> {
  const step = stepper(options);
  const decoded = await decodeWithAlpha(data);
  let image: Rgb = { data: decoded.rgb, width: decoded.width, height: decoded.height };
  let alpha = decoded.alpha;
  if (Math.max(image.width, image.height) > RESTORE_MAX_SIDE) {
    ({ image, alpha } = await shrink(image, alpha, RESTORE_MAX_SIDE));
  }
  const notes: EngineNote[] = [];
  await step(0.03);

  const faceBoxes = options.faces ? await findFaces(options.faces, image) : [];
  await step(0.15);

  // Defects first: smoothing would smear a speck into a blot the detector no longer sees.
  const noise = estimateNoise(luminanceOf(image), image.width, image.height);
  const median = await medianOf(image, Math.max(7, oddAtLeast(Math.max(image.width, image.height) / 150)));
  const defects = findDefects(image, median, { noise, protect: eyeMask(faceBoxes, image) });
  if (defects.count > 0) {
    image = fillDefects(image, median, defects.mask);
    notes.push(
      engineNote('restore.defects', `${defects.count} scratches and dust specks filled in`, {
        count: defects.count,
      }),
    );
  }
  await step(0.3);

  if (noise >= NOISE_TO_SMOOTH) {
    image = await denoise(image, noise, () => step(0.3));
    notes.push(engineNote('restore.denoised', 'grain and noise smoothed, edges kept'));
  }
  await step(0.45);

  const levels = measureLevels(image);
  const stretched = applyTones(image, levels, [1, 1, 1], 0);
  const gains = measureCast(stretched);
  const stretch = Math.max(...[0, 1, 2].map((c) => 255 / Math.max(1, levels.high[c]! - levels.low[c]!) - 1));
  const cast = Math.max(...gains.map((gain) => Math.abs(gain - 1)));
  if (stretch > VISIBLE_CHANGE || cast > VISIBLE_CHANGE) {
    // The greys' balance is trusted in part only: a picture with few true greys would be bent.
    image = applyTones(image, levels, gains, 0.7);
    if (stretch > VISIBLE_CHANGE) {
      notes.push(
        engineNote('restore.levels', 'faded tones stretched back to full contrast, per colour channel'),
      );
    }
    if (cast > VISIBLE_CHANGE) notes.push(engineNote('restore.colour_cast', 'colour cast removed'));
  }
  await step(0.55);

  const isSmall = Math.max(image.width, image.height) < SMALL_PHOTO_SIDE;
  let scale = 1;
  if (isSmall && (options.upscaleSmall ?? true)) {
    const enlarged = await superResolve(image, 2, { afterTile: (fraction) => step(0.55 + 0.3 * fraction) });
    alpha = alpha ? await resizePlane(alpha, image, enlarged.width, enlarged.height) : null;
    image = enlarged;
    scale = 2;
    notes.push(
      engineNote(
        'upscale.network',
        `upscaled 2× to ${image.width}×${image.height} by a super-resolution neural network, ESRGAN, run offline`,
        { factor: 2, width: image.width, height: image.height },
      ),
    );
  }
  await step(0.86);

  if (faceBoxes.length > 0) {
    image = await sharpenFaces(
      image,
      faceBoxes.map((box) => scaleBox(box, scale)),
    );
    notes.push(
      engineNote('restore.faces', `${faceBoxes.length} faces sharpened`, { count: faceBoxes.length }),
    );
  }
  if (notes.length === 0)
    notes.push(engineNote('restore.nothing', 'the photo looked clean: nothing to restore'));
  await step(0.94);
  const encoded = await encodeResult(
    {
      rgb: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length),
      alpha,
      width: image.width,
      height: image.height,
    },
    'restore',
  );
  await step(1);
  return { ...encoded, notes };
}

async function shrink(image: Rgb, alpha: Buffer | null, maxSide: number) {
  const scale = maxSide / Math.max(image.width, image.height);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  return {
    image: await resizeRgb(image, width, height, false),
    alpha: alpha ? await resizePlane(alpha, image, width, height) : null,
  };
}

const oddAtLeast = (value: number) => {
  const rounded = Math.round(value);
  return rounded % 2 === 1 ? rounded : rounded + 1;
};

async function medianOf(image: Rgb, size: number): Promise<Rgb> {
  const data = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .median(size)
    .raw()
    .toBuffer();
  return { data, width: image.width, height: image.height };
}

interface FaceBox extends Box {
  /** The eyes' centres and a radius that covers each eye, in the same pixels as the box. */
  eyes: { x: number; y: number; radius: number }[];
}

/** The faces, in the working image's pixels (the analyser sees at most 1024 px). */
async function findFaces(analyzer: FaceAnalyzer, image: Rgb): Promise<FaceBox[]> {
  const encoded = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const analysis = await analyzer.analyze(encoded);
  const k = image.width / analysis.image.width;
  return analysis.faces
    .filter((face) => face.score >= 0.5)
    .map((face) => {
      const { rightEyeOuter, rightEyeInner, leftEyeInner, leftEyeOuter } = face.landmarks;
      const eye = (outer: readonly number[], inner: readonly number[]) => ({
        x: ((outer[0]! + inner[0]!) / 2) * k,
        y: ((outer[1]! + inner[1]!) / 2) * k,
        radius: Math.hypot(outer[0]! - inner[0]!, outer[1]! - inner[1]!) * k * 0.75,
      });
      return {
        x: face.box.x * k,
        y: face.box.y * k,
        width: face.box.width * k,
        height: face.box.height * k,
        eyes: [eye(rightEyeOuter, rightEyeInner), eye(leftEyeOuter, leftEyeInner)],
      };
    });
}

/** The eyes, where a bright speck is a catchlight and must stay. */
function eyeMask(faces: FaceBox[], image: Rgb): Uint8Array | undefined {
  if (faces.length === 0) return undefined;
  const mask = new Uint8Array(image.width * image.height);
  for (const eye of faces.flatMap((face) => face.eyes)) {
    const r = Math.ceil(eye.radius);
    for (let y = Math.max(0, Math.floor(eye.y - r)); y <= Math.min(image.height - 1, eye.y + r); y++) {
      for (let x = Math.max(0, Math.floor(eye.x - r)); x <= Math.min(image.width - 1, eye.x + r); x++) {
        if (Math.hypot(x - eye.x, y - eye.y) <= eye.radius) mask[y * image.width + x] = 1;
      }
    }
  }
  return mask;
}

const scaleBox = (box: FaceBox, scale: number): FaceBox => ({
  x: box.x * scale,
  y: box.y * scale,
  width: box.width * scale,
  height: box.height * scale,
  eyes: box.eyes.map((eye) => ({ x: eye.x * scale, y: eye.y * scale, radius: eye.radius * scale })),
});

/**
 * An unsharp mask on each face, faded in over an ellipse around it so no edge of the work shows;
 * its radius follows the face's size (a small face in a group photo needs a fine one).
 */
async function sharpenFaces(image: Rgb, faces: FaceBox[]): Promise<Rgb> {
  const out = Uint8Array.from(image.data);
  for (const face of faces) {
    const grow = 0.25;
    const left = Math.max(0, Math.floor(face.x - face.width * grow));
    const top = Math.max(0, Math.floor(face.y - face.height * grow));
    const right = Math.min(image.width, Math.ceil(face.x + face.width * (1 + grow)));
    const bottom = Math.min(image.height, Math.ceil(face.y + face.height * (1 + grow)));
    const width = right - left;
    const height = bottom - top;
    if (width < 8 || height < 8) continue;
    const sigma = Math.min(1.5, Math.max(0.5, face.width / 300));
    const sharpened = await sharp(image.data, {
      raw: { width: image.width, height: image.height, channels: 3 },
    })
      .extract({ left, top, width, height })
      .sharpen({ sigma, m1: 0.3, m2: 0.9 })
      .raw()
      .toBuffer();
    const cx = face.x + face.width / 2;
    const cy = face.y + face.height / 2;
    const rx = (face.width / 2) * (1 + grow);
    const ry = (face.height / 2) * (1 + grow);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const d = Math.hypot((left + x - cx) / rx, (top + y - cy) / ry);
        // Full strength inside the face, fading to none at the grown ellipse's edge.
        const weight = d <= 0.75 ? 1 : d >= 1 ? 0 : (1 - d) / 0.25;
        if (weight === 0) continue;
        const p = ((top + y) * image.width + left + x) * 3;
        const s = (y * width + x) * 3;
        for (let c = 0; c < 3; c++)
          out[p + c] = Math.round(out[p + c]! + weight * (sharpened[s + c]! - out[p + c]!));
      }
    }
  }
  return { data: out, width: image.width, height: image.height };
}
