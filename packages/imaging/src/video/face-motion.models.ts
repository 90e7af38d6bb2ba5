import type { Rect, Size } from './video.models.js';

/** A point in the canvas's pixels (the photo resampled for the camera move). */
export type CanvasPoint = readonly [x: number, y: number];

/** One eye from the face mesh: its corners and the middle of each lid. */
export interface EyeShape {
  outer: CanvasPoint;
  inner: CanvasPoint;
  upper: CanvasPoint;
  lower: CanvasPoint;
}

/** What the face motion needs of a face, in canvas pixels (see faceShapeFromMesh). */
export interface FaceShape {
  /** The face outline (the mesh's silhouette), forehead to chin and round. */
  oval: readonly CanvasPoint[];
  noseTip: CanvasPoint;
  /** The person's right eye (on the image's left) first. */
  eyes: readonly [EyeShape, EyeShape];
  /** The person's right corner (on the image's left) first. */
  mouthCorners: readonly [CanvasPoint, CanvasPoint];
}

/**
 * How the face is posed in one frame. Angles in radians (yaw: turn, positive to the image's right;
 * pitch: nod, positive chin down; roll: tilt, positive clockwise); smile and blink 0–1.
 */
export interface FacePose {
  yaw: number;
  pitch: number;
  roll: number;
  smile: number;
  blink: number;
}

/** The gentlest motion that still reads as alive: about 5° of turn, 2° of tilt, 1° of nod. */
export const FACE_MOTION_LIMITS = { yaw: 0.09, roll: 0.035, pitch: 0.02 } as const;
/** The first blink comes this far in, then one every FACE_BLINK_EVERY_S (people blink every 2–4 s). */
export const FACE_BLINK_FIRST_S = 0.9;
export const FACE_BLINK_EVERY_S = 2.8;
/** A blink: the lid closes in 90 ms, stays 50 ms, opens in 140 ms. */
const BLINK_CLOSE_S = 0.09;
const BLINK_HOLD_S = 0.05;
const BLINK_OPEN_S = 0.14;
export const FACE_BLINK_SECONDS = BLINK_CLOSE_S + BLINK_HOLD_S + BLINK_OPEN_S;
/** Faces narrower than this many output pixels get the camera move only: eyes of a few pixels cannot blink. */
export const FACE_MOTION_MIN_WIDTH = 90;

/** When each blink starts, in seconds; every blink ends inside the clip. */
export function blinkStarts(durationSeconds: number): number[] {
  const starts: number[] = [];
  for (let at = FACE_BLINK_FIRST_S; at + FACE_BLINK_SECONDS <= durationSeconds; at += FACE_BLINK_EVERY_S) {
    starts.push(at);
  }
  return starts;
}

/**
 * The pose at `seconds` of a clip of `durationSeconds`: the head turns one way and back to the
 * other (one swing per ~5 s, so a clip ends where it began and loops without a jump), tilting
 * with the turn and dipping the chin a little; a smile grows over the first half, holds and
 * relaxes at the end; blinks at blinkStarts. The first frame is the photo as it is.
 */
export function facePoseAt(seconds: number, durationSeconds: number): FacePose {
  const swings = Math.max(1, Math.round(durationSeconds / 5));
  const phase = (2 * Math.PI * swings * seconds) / durationSeconds;
  const u = seconds / durationSeconds;
  const smile = smoothstep(0.2, 0.45, u) * (1 - smoothstep(0.82, 1, u));
  let blink = 0;
  for (const start of blinkStarts(durationSeconds)) {
    const at = seconds - start;
    if (at < 0 || at > FACE_BLINK_SECONDS) continue;
    if (at < BLINK_CLOSE_S) blink = smoothstep(0, BLINK_CLOSE_S, at);
    else if (at < BLINK_CLOSE_S + BLINK_HOLD_S) blink = 1;
    else blink = 1 - smoothstep(BLINK_CLOSE_S + BLINK_HOLD_S, FACE_BLINK_SECONDS, at);
  }
  return {
    yaw: FACE_MOTION_LIMITS.yaw * Math.sin(phase),
    roll: FACE_MOTION_LIMITS.roll * Math.sin(phase),
    pitch: FACE_MOTION_LIMITS.pitch * ((1 - Math.cos(phase)) / 2),
    smile,
    blink,
  };
}

interface EyeFrame {
  origin: CanvasPoint;
  /** Unit vectors: along the corners, and across them towards the lower lid. */
  along: CanvasPoint;
  across: CanvasPoint;
  halfWidth: number;
  /** The lids' middles across the eye (upper negative, lower positive). */
  upper: number;
  lower: number;
  /** Bounding box (canvas pixels) of what a blink changes. */
  box: { x0: number; y0: number; x1: number; y1: number };
}

/**
 * The face's motion fields, worked out once per video on a grid over the head (every
 * FACE_RIG_STEP canvas pixels): how far each point moves per radian of turn, nod and tilt and
 * per unit of smile, and how much of the frame is taken from the warp (1 on the head, fading to
 * 0 around it so the warp meets the untouched frame without a seam).
 */
export interface FaceRig {
  region: { x: number; y: number; width: number; height: number };
  step: number;
  columns: number;
  rows: number;
  mask: Float32Array;
  yawX: Float32Array;
  pitchY: Float32Array;
  rollX: Float32Array;
  rollY: Float32Array;
  smileX: Float32Array;
  smileY: Float32Array;
  eyes: EyeFrame[];
  /** The face outline's box, canvas pixels (what tests compare motion inside and outside of). */
  faceBox: { x: number; y: number; width: number; height: number };
}

export const FACE_RIG_STEP = 2;

/**
 * Builds the motion fields for one face. The head is modelled as an ellipsoid over the face
 * outline (raised to take in the hair) with the nose standing out of it: turning and nodding
 * move each point by its depth (the nose most, the outline not at all, so the head turns inside
 * its own silhouette), tilting rotates the head about the neck, and the smile pulls the mouth
 * corners out and up with the cheeks lifting after them.
 */
export function buildFaceRig(face: FaceShape, canvas: Size, step = FACE_RIG_STEP): FaceRig {
  const xs = face.oval.map((p) => p[0]);
  const ys = face.oval.map((p) => p[1]);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const halfWidth = (maxX - minX) / 2;
  const halfHeight = (maxY - minY) / 2;
  const centreX = (minX + maxX) / 2;
  const centreY = (minY + maxY) / 2 - 0.12 * halfHeight;
  const axisX = 1.15 * halfWidth;
  const axisY = 1.22 * halfHeight;
  const depth = 0.9 * halfWidth;
  const noseDepth = 0.3 * halfWidth;
  const noseSigma2 = (0.2 * halfWidth) ** 2;
  const pivotX = centreX;
  const pivotY = maxY + 0.5 * halfHeight;
  // Beyond MASK_OUTER (in ellipse radii) nothing moves; the tilt fades out from 1 to there.
  const MASK_INNER = 1.2;
  const MASK_OUTER = 1.45;

  const [right, left] = face.mouthCorners;
  const mouthCentre: CanvasPoint = [(right[0] + left[0]) / 2, (right[1] + left[1]) / 2];
  const mouthWidth = Math.hypot(left[0] - right[0], left[1] - right[1]);
  const eyesMid: CanvasPoint = [
    (face.eyes[0].outer[0] + face.eyes[1].outer[0]) / 2,
    (face.eyes[0].outer[1] + face.eyes[1].outer[1]) / 2,
  ];
  const up = unit([eyesMid[0] - mouthCentre[0], eyesMid[1] - mouthCentre[1]]);
  // Each corner moves out and up; a broader, weaker lift follows on the cheek above it.
  const bumps = face.mouthCorners.flatMap((corner, side) => {
    const out = unit([corner[0] - mouthCentre[0], corner[1] - mouthCentre[1]]);
    const eye = face.eyes[side]!.outer;
    const cheek: CanvasPoint = [
      corner[0] + 0.45 * (eye[0] - corner[0]),
      corner[1] + 0.45 * (eye[1] - corner[1]),
    ];
    return [
      {
        at: corner,
        dx: 0.07 * mouthWidth * out[0] + 0.06 * mouthWidth * up[0],
        dy: 0.07 * mouthWidth * out[1] + 0.06 * mouthWidth * up[1],
        sigma2: (0.28 * mouthWidth) ** 2,
      },
      {
        at: cheek,
        dx: 0.035 * mouthWidth * up[0],
        dy: 0.035 * mouthWidth * up[1],
        sigma2: (0.4 * mouthWidth) ** 2,
      },
    ];
  });

  const x0 = Math.max(0, Math.floor(centreX - MASK_OUTER * axisX));
  const y0 = Math.max(0, Math.floor(centreY - MASK_OUTER * axisY));
  const x1 = Math.min(canvas.width, Math.ceil(centreX + MASK_OUTER * axisX));
  const y1 = Math.min(canvas.height, Math.ceil(centreY + MASK_OUTER * axisY));
  const region = { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
  const columns = Math.ceil(region.width / step);
  const rows = Math.ceil(region.height / step);
  const size = columns * rows;
  const rig: FaceRig = {
    region,
    step,
    columns,
    rows,
    mask: new Float32Array(size),
    yawX: new Float32Array(size),
    pitchY: new Float32Array(size),
    rollX: new Float32Array(size),
    rollY: new Float32Array(size),
    smileX: new Float32Array(size),
    smileY: new Float32Array(size),
    eyes: face.eyes.map(eyeFrame).filter((eye): eye is EyeFrame => eye !== null),
    faceBox: { x: minX, y: minY, width: maxX - minX, height: maxY - minY },
  };
  for (let row = 0; row < rows; row++) {
    const y = region.y + (row + 0.5) * step;
    for (let column = 0; column < columns; column++) {
      const x = region.x + (column + 0.5) * step;
      const index = row * columns + column;
      const r = Math.hypot((x - centreX) / axisX, (y - centreY) / axisY);
      if (r >= MASK_OUTER) continue;
      rig.mask[index] = 1 - smoothstep(MASK_INNER, MASK_OUTER, r);
      // Depth: the ellipsoid's (1 − r²) profile, zero on the head's outline, plus the nose.
      const noseDistance2 = (x - face.noseTip[0]) ** 2 + (y - face.noseTip[1]) ** 2;
      const z =
        r < 1
          ? depth * (1 - r * r) + noseDepth * Math.exp(-noseDistance2 / (2 * noseSigma2)) * (1 - r * r)
          : 0;
      rig.yawX[index] = z;
      rig.pitchY[index] = z;
      const tilt = 1 - smoothstep(1, MASK_OUTER, r);
      rig.rollX[index] = -(y - pivotY) * tilt;
      rig.rollY[index] = (x - pivotX) * tilt;
      let sx = 0;
      let sy = 0;
      for (const bump of bumps) {
        const d2 = (x - bump.at[0]) ** 2 + (y - bump.at[1]) ** 2;
        if (d2 > 9 * bump.sigma2) continue;
        const weight = Math.exp(-d2 / (2 * bump.sigma2));
        sx += bump.dx * weight;
        sy += bump.dy * weight;
      }
      rig.smileX[index] = sx;
      rig.smileY[index] = sy;
    }
  }
  return rig;
}

function eyeFrame(eye: EyeShape): EyeFrame | null {
  const origin: CanvasPoint = [(eye.outer[0] + eye.inner[0]) / 2, (eye.outer[1] + eye.inner[1]) / 2];
  const along = unit([eye.inner[0] - eye.outer[0], eye.inner[1] - eye.outer[1]]);
  let across: CanvasPoint = [-along[1], along[0]];
  const project = (p: CanvasPoint, axis: CanvasPoint) =>
    (p[0] - origin[0]) * axis[0] + (p[1] - origin[1]) * axis[1];
  if (project(eye.lower, across) < project(eye.upper, across)) across = [-across[0], -across[1]];
  const halfWidth = Math.hypot(eye.inner[0] - eye.outer[0], eye.inner[1] - eye.outer[1]) / 2;
  const upper = project(eye.upper, across);
  const lower = project(eye.lower, across);
  // An eye already closed (or a mesh that lost it) has nothing to blink.
  if (lower - upper < 1 || halfWidth < 2) return null;
  const reach = Math.max(halfWidth, lower, -upper + 0.8 * (lower - upper)) + 2;
  return {
    origin,
    along,
    across,
    halfWidth,
    upper,
    lower,
    box: { x0: origin[0] - reach, y0: origin[1] - reach, x1: origin[0] + reach, y1: origin[1] + reach },
  };
}

/**
 * Where a point of the closing eye's image comes from (written to `out`), and how much the lid
 * shades it (1 = not at all). The upper lid slides down over the eye: the skin between the crease
 * and the lash line stretches to reach the new lid edge, the visible eye squeezes into what is
 * left above the lower lid, and the lid darkens a little towards its edge as a closed lid does.
 * The lids' curves meet at the corners, so the corners stay put.
 */
export function blinkSource(eye: EyeFrame, closure: number, x: number, y: number, out: Float64Array): number {
  out[0] = x;
  out[1] = y;
  const dx = x - eye.origin[0];
  const dy = y - eye.origin[1];
  const u = dx * eye.along[0] + dy * eye.along[1];
  if (Math.abs(u) >= eye.halfWidth) return 1;
  const v = dx * eye.across[0] + dy * eye.across[1];
  const k = 1 - (u / eye.halfWidth) ** 2;
  const lidUpper = eye.upper * k;
  const lidLower = eye.lower * k;
  const opening = eye.lower - eye.upper;
  const top = lidUpper - 0.8 * opening;
  if (v <= top || v >= lidLower) return 1;
  const lidNow = lidUpper + closure * 0.97 * (lidLower - lidUpper);
  let source: number;
  let shade = 1;
  if (v <= lidNow) {
    const t = (v - top) / Math.max(1e-6, lidNow - top);
    source = top + t * (lidUpper - top);
    shade = 1 - 0.16 * closure * t * t;
  } else {
    source = lidUpper + ((v - lidNow) * (lidLower - lidUpper)) / Math.max(1e-6, lidLower - lidNow);
  }
  const shift = source - v;
  out[0] = x + shift * eye.across[0];
  out[1] = y + shift * eye.across[1];
  return shade;
}

/**
 * Draws the posed face into one frame of the camera move: every frame pixel over the head is
 * taken again from the canvas at the place the pose moves it from (turn, nod, tilt and smile from
 * the rig's fields, then the blink), bilinearly, and blended over the camera's own pixel by the
 * rig's mask. `frame` is the camera's RGB frame of `window` of the canvas; it is changed in place.
 */
export function renderFaceMotion(input: {
  canvas: { data: Uint8Array; width: number; height: number };
  frame: Uint8Array;
  frameSize: Size;
  window: Rect;
  rig: FaceRig;
  pose: FacePose;
}): void {
  const { canvas, frame, frameSize, window, rig, pose } = input;
  const scaleX = window.width / frameSize.width;
  const scaleY = window.height / frameSize.height;
  const { region, step, columns, rows } = rig;
  const fx0 = Math.max(0, Math.floor((region.x - window.left) / scaleX));
  const fx1 = Math.min(frameSize.width, Math.ceil((region.x + region.width - window.left) / scaleX));
  const fy0 = Math.max(0, Math.floor((region.y - window.top) / scaleY));
  const fy1 = Math.min(frameSize.height, Math.ceil((region.y + region.height - window.top) / scaleY));
  const blinking = pose.blink > 0.001 ? rig.eyes : [];
  const moved = new Float64Array(2);
  const data = canvas.data;
  const width = canvas.width;
  const height = canvas.height;
  for (let fy = fy0; fy < fy1; fy++) {
    const y = window.top + (fy + 0.5) * scaleY;
    const row = Math.floor((y - region.y) / step);
    if (row < 0 || row >= rows) continue;
    for (let fx = fx0; fx < fx1; fx++) {
      const x = window.left + (fx + 0.5) * scaleX;
      const column = Math.floor((x - region.x) / step);
      if (column < 0 || column >= columns) continue;
      const cell = row * columns + column;
      const mask = rig.mask[cell]!;
      if (mask <= 0) continue;
      let sx = x - pose.yaw * rig.yawX[cell]! - pose.roll * rig.rollX[cell]! - pose.smile * rig.smileX[cell]!;
      let sy =
        y - pose.pitch * rig.pitchY[cell]! - pose.roll * rig.rollY[cell]! - pose.smile * rig.smileY[cell]!;
      let shade = 1;
      for (const eye of blinking) {
        if (sx < eye.box.x0 || sx > eye.box.x1 || sy < eye.box.y0 || sy > eye.box.y1) continue;
        shade *= blinkSource(eye, pose.blink, sx, sy, moved);
        sx = moved[0]!;
        sy = moved[1]!;
      }
      // Bilinear sample; pixel centres sit at half-integers, edges clamp.
      const px = Math.min(width - 1, Math.max(0, sx - 0.5));
      const py = Math.min(height - 1, Math.max(0, sy - 0.5));
      const x0 = Math.floor(px);
      const y0 = Math.floor(py);
      const x1 = Math.min(width - 1, x0 + 1);
      const y1 = Math.min(height - 1, y0 + 1);
      const tx = px - x0;
      const ty = py - y0;
      const i00 = (y0 * width + x0) * 3;
      const i10 = (y0 * width + x1) * 3;
      const i01 = (y1 * width + x0) * 3;
      const i11 = (y1 * width + x1) * 3;
      const o = (fy * frameSize.width + fx) * 3;
      for (let c = 0; c < 3; c++) {
        const top = data[i00 + c]! + (data[i10 + c]! - data[i00 + c]!) * tx;
        const bottom = data[i01 + c]! + (data[i11 + c]! - data[i01 + c]!) * tx;
        const warped = (top + (bottom - top) * ty) * shade;
        frame[o + c] = Math.round(frame[o + c]! + (warped - frame[o + c]!) * mask);
      }
    }
  }
}

function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}

function unit(v: CanvasPoint): CanvasPoint {
  const length = Math.hypot(v[0], v[1]) || 1;
  return [v[0] / length, v[1] / length];
}
