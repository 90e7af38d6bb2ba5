import type { CanvasPoint } from './face-motion.models.js';

/**
 * The talking mouth: how open and what shape the mouth is in each frame (from the speech's
 * loudness and eSpeak's phonemes), and the warp that draws it over the face.
 */

/** The mouth in one frame: open 0–1 (1: the widest a speaking mouth opens), round and wide 0–1. */
export interface MouthPose {
  open: number;
  round: number;
  wide: number;
}

/** What each phoneme does to the mouth: lips together, rounded, spread, or open as the voice is loud. */
export type Viseme = 'closed' | 'round' | 'wide' | 'open';

/**
 * eSpeak's ASCII phoneme names (`-x`) as mouth shapes, in order. Stress marks, syllable and
 * language switches are dropped; lips meet for p, b, m; o, u, w and their kin round them; i, e,
 * j spread them; every other sound opens the mouth as far as the voice is loud.
 */
export function visemesOf(phonemes: string): Viseme[] {
  const visemes: Viseme[] = [];
  // Language switches such as "(en)" name no sound.
  const letters = phonemes.replace(/\([a-z-]+\)/g, ' ').replace(/[';,%=_:#!|\-\d]/g, '');
  for (const letter of letters) {
    if (/\s/.test(letter)) continue;
    if ('pbm'.includes(letter)) visemes.push('closed');
    else if ('ouwUOyY0Q'.includes(letter)) visemes.push('round');
    else if ('ieIEj'.includes(letter)) visemes.push('wide');
    else if ('aA&@V3'.includes(letter)) visemes.push('open');
  }
  return visemes;
}

/** Loudness per frame: the RMS of each frame's share of the samples. */
export function loudnessPerFrame(samples: Float32Array, sampleRate: number, fps: number, frames: number) {
  const loudness = new Float32Array(frames);
  const perFrame = sampleRate / fps;
  for (let frame = 0; frame < frames; frame++) {
    const start = Math.floor(frame * perFrame);
    const end = Math.min(samples.length, Math.floor((frame + 1) * perFrame));
    let sum = 0;
    for (let index = start; index < end; index++) sum += samples[index]! ** 2;
    loudness[frame] = end > start ? Math.sqrt(sum / (end - start)) : 0;
  }
  return loudness;
}

/** Below this share of the loudest frame a frame is a pause: the mouth rests. */
const VOICED_SHARE = 0.12;

/**
 * The mouth of every frame. The loudness opens the mouth (relative to the speech's loudest frames,
 * so a quiet recording talks as much as a loud one); the phonemes are laid over the voiced frames
 * in order, each an equal share of them (eSpeak says them at an even pace), and shape it: closed
 * for the lips' sounds, rounded or spread for the vowels that are. The result is eased so the
 * mouth moves as muscles do, faster opening than closing.
 */
export function planMouth(loudness: Float32Array, visemes: readonly Viseme[]): MouthPose[] {
  const sorted = [...loudness].sort((a, b) => a - b);
  // The 95th percentile, so one click does not make every other frame look quiet.
  const loud = Math.max(1e-4, sorted[Math.floor(sorted.length * 0.95)] ?? 0);
  const voiced: number[] = [];
  loudness.forEach((value, frame) => {
    if (value > VOICED_SHARE * loud) voiced.push(frame);
  });
  const shapeOf = new Map<number, Viseme>();
  if (visemes.length > 0) {
    voiced.forEach((frame, index) => {
      shapeOf.set(
        frame,
        visemes[Math.min(visemes.length - 1, Math.floor((index * visemes.length) / voiced.length))]!,
      );
    });
  }
  const poses: MouthPose[] = [];
  let previous: MouthPose = { open: 0, round: 0, wide: 0 };
  for (let frame = 0; frame < loudness.length; frame++) {
    const level = Math.min(1, loudness[frame]! / loud);
    const voicedFrame = loudness[frame]! > VOICED_SHARE * loud;
    const shape = shapeOf.get(frame) ?? 'open';
    let open = voicedFrame ? Math.pow(level, 0.7) : 0;
    if (shape === 'closed') open *= 0.1;
    else if (shape === 'round') open *= 0.75;
    else if (shape === 'wide') open *= 0.6;
    const target: MouthPose = {
      open,
      round: voicedFrame && shape === 'round' ? 1 : 0,
      wide: voicedFrame && shape === 'wide' ? 1 : 0,
    };
    const ease = (from: number, to: number) => from + (to - from) * (to > from ? 0.7 : 0.5);
    previous = {
      open: ease(previous.open, target.open),
      round: ease(previous.round, target.round),
      wide: ease(previous.wide, target.wide),
    };
    poses.push(previous);
  }
  return poses;
}

/** The mouth from the face mesh, in frame pixels. */
export interface MouthShape {
  /** The person's right corner (on the image's left) first. */
  corners: readonly [CanvasPoint, CanvasPoint];
  /** Where the lips meet in the middle (between the mesh's inner lip points). */
  centre: CanvasPoint;
  chin: CanvasPoint;
}

/** How far the jaw drops at `open` 1, as a share of the mouth's width. */
export const MOUTH_OPEN_MAX = 0.3;

/**
 * Draws the mouth of `pose` into `frame` (RGB, changed in place) from `source` (the same frame
 * before, same size). In the mouth's own axes (along the lips, down towards the chin): between
 * the lips' line and the lower lip's new place the mouth shows its inside (upper teeth, then
 * shadow), and everything from the lower lip to below the chin is pushed down and squeezed
 * after it, so the lower lip and chin drop as a jaw does; rounding draws the corners in,
 * spreading pulls them out. Nothing outside the lower face changes.
 */
export function renderMouth(input: {
  source: Uint8Array;
  frame: Uint8Array;
  width: number;
  height: number;
  mouth: MouthShape;
  pose: MouthPose;
}): void {
  const { source, frame, width, height, mouth, pose } = input;
  const [right, left] = mouth.corners;
  const origin: CanvasPoint = [(right[0] + left[0]) / 2, (right[1] + left[1]) / 2];
  const mouthWidth = Math.hypot(left[0] - right[0], left[1] - right[1]);
  if (mouthWidth < 4) return;
  const along: CanvasPoint = [(left[0] - right[0]) / mouthWidth, (left[1] - right[1]) / mouthWidth];
  let down: CanvasPoint = [-along[1], along[0]];
  const project = (p: CanvasPoint, axis: CanvasPoint) =>
    (p[0] - origin[0]) * axis[0] + (p[1] - origin[1]) * axis[1];
  if (project(mouth.chin, down) < 0) down = [-down[0], -down[1]];
  const halfWidth = mouthWidth / 2;
  const lipDip = project(mouth.centre, down);
  const chinDepth = Math.max(mouthWidth * 0.5, project(mouth.chin, down) - lipDip);
  // Below this depth (past the chin) nothing moves.
  const reach = chinDepth * 1.35;
  const drop = pose.open * MOUTH_OPEN_MAX * mouthWidth;
  const roundScale = 1 + 0.3 * pose.round - 0.1 * pose.wide;
  if (drop < 0.3 && Math.abs(roundScale - 1) < 0.01) return;
  const jawHalf = halfWidth * 1.7;
  const box = boundingBox(
    [-jawHalf, jawHalf].flatMap((u) =>
      [-0.5 * mouthWidth, lipDip + reach].map((v): CanvasPoint => [
        origin[0] + u * along[0] + v * down[0],
        origin[1] + u * along[1] + v * down[1],
      ]),
    ),
    width,
    height,
  );
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const px = x + 0.5 - origin[0];
      const py = y + 0.5 - origin[1];
      const u = px * along[0] + py * along[1];
      const v = px * down[0] + py * down[1];
      if (Math.abs(u) >= jawHalf) continue;
      // The lips' line bows down to the middle of the mouth.
      const line = lipDip * Math.max(0, 1 - (u / halfWidth) ** 2);
      const w = v - line;
      if (w < -0.5 * mouthWidth || w > reach) continue;
      // Rounding and spreading act on the lips, fading above and below them.
      const lips = Math.exp(-((w / (0.35 * mouthWidth)) ** 2));
      const uSource = u * (1 + (roundScale - 1) * lips * Math.max(0, 1 - (u / jawHalf) ** 2));
      // The jaw drops by `fall` (fading out sideways past the corners); the lips part by `gap`
      // (widest in the middle, closed at the corners, never more than the fall). Above the lips
      // the face stretches down by what the fall leaves over; below, lip to chin is squeezed.
      const lateral = Math.max(0, 1 - (uSource / halfWidth) ** 2);
      const fall = drop * Math.max(0, 1 - (u / jawHalf) ** 2);
      const gap = Math.min(fall, drop * lateral ** 0.9);
      const upper = 0.5 * mouthWidth;
      let wSource = w;
      let inside = 0;
      if (w < fall - gap) {
        wSource = -upper + ((w + upper) * upper) / (upper + fall - gap);
      } else if (w < fall) {
        const into = w - (fall - gap);
        inside = Math.min(0.92, (gap - into) / 2.5, into / 2.5 + 0.2);
        wSource = 0;
      } else {
        wSource = ((w - fall) * reach) / Math.max(1, reach - fall);
      }
      const open = gap;
      const sx = origin[0] + uSource * along[0] + (wSource + line) * down[0];
      const sy = origin[1] + uSource * along[1] + (wSource + line) * down[1];
      const o = (y * width + x) * 3;
      sampleInto(source, width, height, sx, sy, frame, o);
      if (inside > 0) {
        // Upper teeth in the top third of the gap once it is open enough, then the dark inside.
        const depth = open > 0 ? (w - (fall - gap)) / open : 1;
        const teeth = open > 0.1 * mouthWidth && depth < 0.22 && lateral > 0.45;
        const colour = teeth ? [196, 184, 172] : [104 - 50 * depth, 42 - 20 * depth, 44 - 20 * depth];
        for (let c = 0; c < 3; c++)
          frame[o + c] = Math.round(frame[o + c]! + (colour[c]! - frame[o + c]!) * inside);
      }
    }
  }
}

function sampleInto(
  data: Uint8Array,
  width: number,
  height: number,
  sx: number,
  sy: number,
  out: Uint8Array,
  o: number,
): void {
  const px = Math.min(width - 1, Math.max(0, sx - 0.5));
  const py = Math.min(height - 1, Math.max(0, sy - 0.5));
  const x0 = Math.floor(px);
  const y0 = Math.floor(py);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const tx = px - x0;
  const ty = py - y0;
  for (let c = 0; c < 3; c++) {
    const a = data[(y0 * width + x0) * 3 + c]!;
    const b = data[(y0 * width + x1) * 3 + c]!;
    const d = data[(y1 * width + x0) * 3 + c]!;
    const e = data[(y1 * width + x1) * 3 + c]!;
    const top = a + (b - a) * tx;
    const bottom = d + (e - d) * tx;
    out[o + c] = Math.round(top + (bottom - top) * ty);
  }
}

function boundingBox(points: CanvasPoint[], width: number, height: number) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return {
    x0: Math.max(0, Math.floor(Math.min(...xs)) - 1),
    y0: Math.max(0, Math.floor(Math.min(...ys)) - 1),
    x1: Math.min(width, Math.ceil(Math.max(...xs)) + 1),
    y1: Math.min(height, Math.ceil(Math.max(...ys)) + 1),
  };
}
