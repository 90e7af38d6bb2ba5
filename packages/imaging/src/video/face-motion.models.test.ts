import { describe, expect, it } from 'vitest';
import {
  blinkStarts,
  buildFaceRig,
  FACE_BLINK_FIRST_S,
  FACE_MOTION_LIMITS,
  facePoseAt,
  renderFaceMotion,
  type FacePose,
  type FaceShape,
} from './face-motion.models.js';

// A drawn face on a textured background, canvas 400×400 shown in a 200×200 frame (the camera's
// supersample of 2): skin ellipse, two eyes (white with a dark iris) and a mouth.
const CANVAS = { width: 400, height: 400 };
const FRAME = { width: 200, height: 200 };
const WINDOW = { left: 0, top: 0, width: 400, height: 400 };

const EYES = [
  { cx: 160, cy: 180 },
  { cx: 240, cy: 180 },
];
const EYE_HALF_WIDTH = 22;
const EYE_HALF_HEIGHT = 9;

const face: FaceShape = {
  oval: Array.from({ length: 36 }, (_, index) => {
    const angle = (index / 36) * 2 * Math.PI;
    return [200 + 90 * Math.sin(angle), 200 - 115 * Math.cos(angle)] as const;
  }),
  noseTip: [200, 215],
  eyes: [
    {
      outer: [EYES[0]!.cx - EYE_HALF_WIDTH, EYES[0]!.cy],
      inner: [EYES[0]!.cx + EYE_HALF_WIDTH, EYES[0]!.cy],
      upper: [EYES[0]!.cx, EYES[0]!.cy - EYE_HALF_HEIGHT],
      lower: [EYES[0]!.cx, EYES[0]!.cy + EYE_HALF_HEIGHT],
    },
    {
      outer: [EYES[1]!.cx + EYE_HALF_WIDTH, EYES[1]!.cy],
      inner: [EYES[1]!.cx - EYE_HALF_WIDTH, EYES[1]!.cy],
      upper: [EYES[1]!.cx, EYES[1]!.cy - EYE_HALF_HEIGHT],
      lower: [EYES[1]!.cx, EYES[1]!.cy + EYE_HALF_HEIGHT],
    },
  ],
  mouthCorners: [
    [170, 260],
    [230, 260],
  ],
};

function drawnFace(): Uint8Array {
  const data = new Uint8Array(CANVAS.width * CANVAS.height * 3);
  for (let y = 0; y < CANVAS.height; y++) {
    for (let x = 0; x < CANVAS.width; x++) {
      const i = (y * CANVAS.width + x) * 3;
      // Background: stripes and checks, so any displacement shows.
      let rgb = [90 + 60 * Math.sin(x / 7), 120 + 50 * Math.cos(y / 5), 150];
      if (((x - 200) / 90) ** 2 + ((y - 200) / 115) ** 2 < 1) {
        // Skin with freckle-like texture.
        rgb = [205 + 20 * Math.sin(x / 3 + y / 4), 160 + 15 * Math.cos(x / 5), 130];
      }
      for (const eye of EYES) {
        // Lids are arcs meeting at the corners, as a real eye's are.
        const u = (x - eye.cx) / EYE_HALF_WIDTH;
        const inEye = Math.abs(u) < 1 && Math.abs(y - eye.cy) < EYE_HALF_HEIGHT * (1 - u * u);
        if (inEye) rgb = Math.hypot(x - eye.cx, y - eye.cy) < 6 ? [40, 30, 25] : [245, 245, 240];
      }
      if (Math.abs(y - 260) < 3 && Math.abs(x - 200) < 30) rgb = [150, 60, 60];
      data[i] = rgb[0]!;
      data[i + 1] = rgb[1]!;
      data[i + 2] = rgb[2]!;
    }
  }
  return data;
}

const rest: FacePose = { yaw: 0, pitch: 0, roll: 0, smile: 0, blink: 0 };

function render(pose: FacePose): Uint8Array {
  const canvas = { data: drawnFace(), ...CANVAS };
  // The camera's frame: a 2× box downscale of the canvas.
  const frame = new Uint8Array(FRAME.width * FRAME.height * 3);
  for (let y = 0; y < FRAME.height; y++) {
    for (let x = 0; x < FRAME.width; x++) {
      for (let c = 0; c < 3; c++) {
        const at = (dx: number, dy: number) =>
          canvas.data[((2 * y + dy) * CANVAS.width + 2 * x + dx) * 3 + c]!;
        frame[(y * FRAME.width + x) * 3 + c] = Math.round((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1)) / 4);
      }
    }
  }
  const rig = buildFaceRig(face, CANVAS);
  renderFaceMotion({ canvas, frame, frameSize: FRAME, window: WINDOW, rig, pose });
  return frame;
}

/** Mean absolute difference of two frames over the frame pixels [x0,x1)×[y0,y1). */
function difference(a: Uint8Array, b: Uint8Array, box: { x0: number; y0: number; x1: number; y1: number }) {
  let sum = 0;
  let count = 0;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      for (let c = 0; c < 3; c++)
        sum += Math.abs(a[(y * FRAME.width + x) * 3 + c]! - b[(y * FRAME.width + x) * 3 + c]!);
      count += 3;
    }
  }
  return sum / count;
}

function luminance(frame: Uint8Array, box: { x0: number; y0: number; x1: number; y1: number }) {
  const values: number[] = [];
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const i = (y * FRAME.width + x) * 3;
      values.push(0.299 * frame[i]! + 0.587 * frame[i + 1]! + 0.114 * frame[i + 2]!);
    }
  }
  values.sort((p, q) => p - q);
  return {
    mean: values.reduce((s, v) => s + v, 0) / values.length,
    p95: values[Math.floor(values.length * 0.95)]!,
  };
}

// The face box in frame pixels (the canvas is shown at half size).
const FACE_BOX = { x0: 60, y0: 55, x1: 140, y1: 145 };
// Corners of the frame, well away from the head.
const FAR = { x0: 0, y0: 0, x1: 20, y1: 20 };
// Each eye's box in frame pixels.
const EYE_BOXES = EYES.map((eye) => ({
  x0: Math.round((eye.cx - EYE_HALF_WIDTH) / 2),
  x1: Math.round((eye.cx + EYE_HALF_WIDTH) / 2),
  y0: Math.round((eye.cy - EYE_HALF_HEIGHT) / 2),
  y1: Math.round((eye.cy + EYE_HALF_HEIGHT) / 2),
}));

describe('the face motion', () => {
  it('turns and tilts the face and leaves the background far from the head untouched', () => {
    const still = render(rest);
    const turned = render({ ...rest, yaw: FACE_MOTION_LIMITS.yaw, roll: FACE_MOTION_LIMITS.roll });
    const inside = difference(still, turned, FACE_BOX);
    expect(inside).toBeGreaterThan(4);
    expect(difference(still, turned, FAR)).toBe(0);
    // The turn moves the nose more than the face's outline: the face turns inside its silhouette.
    const nose = { x0: 92, y0: 100, x1: 108, y1: 116 };
    const outline = { x0: 56, y0: 95, x1: 62, y1: 105 };
    expect(difference(still, render({ ...rest, yaw: FACE_MOTION_LIMITS.yaw }), nose)).toBeGreaterThan(
      difference(still, render({ ...rest, yaw: FACE_MOTION_LIMITS.yaw }), outline),
    );
  });

  it('a blink covers the eyes with the lid: the eye boxes darken and their white goes', () => {
    const open = render(rest);
    const closed = render({ ...rest, blink: 1 });
    for (const box of EYE_BOXES) {
      const before = luminance(open, box);
      const after = luminance(closed, box);
      expect(after.mean).toBeLessThan(before.mean - 20);
      // The sclera (≈245) was the brightest part; the closed lid is skin (≈180 and shaded).
      expect(before.p95).toBeGreaterThan(235);
      expect(after.p95).toBeLessThan(215);
    }
    // Half closed is in between.
    const half = luminance(render({ ...rest, blink: 0.5 }), EYE_BOXES[0]!).mean;
    expect(half).toBeLessThan(luminance(open, EYE_BOXES[0]!).mean);
    expect(half).toBeGreaterThan(luminance(closed, EYE_BOXES[0]!).mean);
  });

  it('the smile moves the mouth corners and not the forehead', () => {
    const still = render(rest);
    const smiling = render({ ...rest, smile: 1 });
    const mouth = { x0: 80, y0: 124, x1: 120, y1: 136 };
    const forehead = { x0: 85, y0: 55, x1: 115, y1: 65 };
    expect(difference(still, smiling, mouth)).toBeGreaterThan(5);
    expect(difference(still, smiling, forehead)).toBeLessThan(0.5);
  });
});

describe('the pose over a clip', () => {
  it('starts as the photo is and comes back to it at the end, so the loop does not jump', () => {
    for (const duration of [3, 5, 10]) {
      const first = facePoseAt(0, duration);
      expect(first).toEqual({ yaw: 0, pitch: 0, roll: 0, smile: 0, blink: 0 });
      const last = facePoseAt(duration, duration);
      expect(Math.abs(last.yaw)).toBeLessThan(1e-9);
      expect(last.smile).toBe(0);
    }
  });

  it('turns by at most the limits and smiles in the middle', () => {
    const poses = Array.from({ length: 121 }, (_, index) => facePoseAt((index / 120) * 5, 5));
    expect(Math.max(...poses.map((pose) => Math.abs(pose.yaw)))).toBeCloseTo(FACE_MOTION_LIMITS.yaw, 3);
    expect(Math.max(...poses.map((pose) => Math.abs(pose.roll)))).toBeLessThanOrEqual(
      FACE_MOTION_LIMITS.roll,
    );
    expect(facePoseAt(3, 5).smile).toBe(1);
  });

  it('blinks every few seconds, each blink inside the clip and fully closed once', () => {
    expect(blinkStarts(3)).toEqual([FACE_BLINK_FIRST_S]);
    expect(blinkStarts(10)).toHaveLength(4);
    expect(facePoseAt(FACE_BLINK_FIRST_S + 0.11, 3).blink).toBe(1);
    expect(facePoseAt(FACE_BLINK_FIRST_S - 0.1, 3).blink).toBe(0);
    expect(facePoseAt(FACE_BLINK_FIRST_S + 0.5, 3).blink).toBe(0);
  });
});
