import type { TCameraMove, TVideoAspect } from '@mirra/contracts';
import {
  coverRect,
  easeInOut,
  frameCount,
  VIDEO_FPS,
  VIDEO_SUPERSAMPLE,
  videoFrameSize,
  type FocusPoint,
  type MotionPlan,
  type ParallaxPlan,
  type Rect,
  type Size,
  clamp,
  wholePixels,
} from './video.models.js';

/*
 * The named camera moves (CAMERA_MOVES) as paths of a virtual camera over a still: for each frame,
 * how far it is zoomed in and where the middle of its view is. A path is sampled into crop windows
 * of the supersampled canvas (a photo) or of the frame itself (a drawn scene), so every move is a
 * real change of view over the picture, eased at both ends except the handheld sway, which is a
 * smooth noise that never stops.
 */

/** A camera's view at one moment: zoom ≥ 1 (1 shows the whole still) and the view's centre (0–1). */
export interface CameraView {
  zoom: number;
  x: number;
  y: number;
}

/** How far the zooms go: a push-in ends on 1/1.3 of the width, a dolly closer still. */
export const CAMERA_ZOOM = 1.3;
export const DOLLY_ZOOM = 1.45;
/** The zoom a sideways or upward move holds, leaving that much picture to travel across. */
export const TRAVEL_ZOOM = 1.25;
/** The handheld sway: held a little in, its drift as a share of the view. */
export const HANDHELD_ZOOM = 1.1;
export const HANDHELD_SWAY = 0.018;

/** The view of `move` at `t` (0–1 of the clip, `seconds` in), aimed at `focus` where it closes in. */
export function cameraViewAt(move: TCameraMove, t: number, seconds: number, focus: FocusPoint): CameraView {
  const e = easeInOut(t);
  // Half the room a view of this zoom has to travel in each direction.
  const room = (zoom: number) => (1 - 1 / zoom) / 2;
  const towards = (zoom: number, amount: number) => ({
    x: lerp(0.5, clampCentre(focus.x, zoom), amount),
    y: lerp(0.5, clampCentre(focus.y, zoom), amount),
  });
  switch (move) {
    case 'zoom_in': {
      const zoom = lerp(1, CAMERA_ZOOM, e);
      return { zoom, ...towards(zoom, e) };
    }
    case 'zoom_out': {
      const zoom = lerp(CAMERA_ZOOM, 1, e);
      return { zoom, ...towards(zoom, 1 - e) };
    }
    case 'dolly_in': {
      // A dolly accelerates into the subject rather than easing out early: the push keeps building.
      const push = t * t * (3 - 2 * t) * 0.5 + t * t * 0.5;
      const zoom = lerp(1, DOLLY_ZOOM, push);
      return { zoom, ...towards(zoom, push) };
    }
    case 'pan_left':
    case 'pan_right': {
      // The view travels from one side to the other, so the picture slides the opposite way.
      const side = move === 'pan_left' ? -1 : 1;
      return { zoom: TRAVEL_ZOOM, x: 0.5 + side * room(TRAVEL_ZOOM) * (2 * e - 1), y: 0.5 };
    }
    case 'crane_up': {
      // Rising: the view climbs from the bottom of the picture to its top, easing back a little.
      const zoom = lerp(TRAVEL_ZOOM, TRAVEL_ZOOM - 0.05, e);
      return { zoom, x: 0.5, y: 0.5 - room(zoom) * (2 * e - 1) };
    }
    case 'orbit': {
      // Round the subject: sideways across it on an arc, nearest (most zoomed) halfway.
      const zoom = TRAVEL_ZOOM + 0.06 * Math.sin(Math.PI * e);
      return {
        zoom,
        x: 0.5 + room(zoom) * (2 * e - 1) * 0.9,
        y: 0.5 - room(zoom) * 0.35 * Math.sin(Math.PI * e),
      };
    }
    case 'parallax': {
      // The sideways drift of a parallax move without layers: a slow truck across the picture.
      const zoom = lerp(1.15, 1.22, e);
      return { zoom, x: 0.5 + room(zoom) * (2 * e - 1) * 0.7, y: 0.5 };
    }
    case 'handheld': {
      // Smooth noise: sines of unrelated slow periods, so the sway never repeats within a clip.
      const sway = (a: number, b: number, c: number) =>
        (Math.sin(seconds * a + 0.7) +
          0.6 * Math.sin(seconds * b + 2.1) +
          0.3 * Math.sin(seconds * c + 4.4)) /
        1.9;
      const span = Math.min(HANDHELD_SWAY, room(HANDHELD_ZOOM));
      return {
        zoom: HANDHELD_ZOOM + 0.012 * sway(0.9, 1.7, 2.9),
        x: 0.5 + span * sway(1.3, 2.3, 3.7),
        y: 0.5 + span * 0.8 * sway(1.1, 1.9, 3.1),
      };
    }
  }
}

/** The view as a window of a `size` picture (fractional pixels), kept inside it. */
export function viewWindow(view: CameraView, size: Size): Rect {
  const width = size.width / view.zoom;
  const height = size.height / view.zoom;
  return {
    left: clamp(view.x * size.width - width / 2, 0, size.width - width),
    top: clamp(view.y * size.height - height / 2, 0, size.height - height),
    width,
    height,
  };
}

/**
 * A named move over a photo: the frame-shaped crop of the photo (around the focus) resampled to
 * the supersampled canvas, and the window of that canvas each frame shows.
 */
export function planCameraMove(input: {
  move: TCameraMove;
  photo: Size;
  aspect: TVideoAspect | null | undefined;
  durationSeconds: number | null | undefined;
  /** The face or subject to close in on, as fractions of the photo. */
  focus?: FocusPoint | null;
  fps?: number;
}): MotionPlan {
  const fps = input.fps ?? VIDEO_FPS;
  const frame = videoFrameSize(input.aspect);
  const focus = input.focus ?? { x: 0.5, y: 1 / 3 };
  const canvas = { width: frame.width * VIDEO_SUPERSAMPLE, height: frame.height * VIDEO_SUPERSAMPLE };
  const crop = coverRect(input.photo, frame, focus);
  const onCanvas = {
    x: clamp((focus.x * input.photo.width - crop.left) / crop.width, 0, 1),
    y: clamp((focus.y * input.photo.height - crop.top) / crop.height, 0, 1),
  };
  const count = frameCount(input.durationSeconds, fps);
  const windows: Rect[] = [];
  for (let index = 0; index < count; index++) {
    const t = count === 1 ? 0 : index / (count - 1);
    windows.push(wholePixels(viewWindow(cameraViewAt(input.move, t, index / fps, onCanvas), canvas), canvas));
  }
  return { frame, fps, canvas, windows, focus, faceCentred: Boolean(input.focus) };
}

/** The moves that lift the person off the background when person segmentation finds one. */
export const LAYERED_MOVES = ['parallax', 'orbit', 'dolly_in'] as const satisfies readonly TCameraMove[];
export type TLayeredMove = (typeof LAYERED_MOVES)[number];
export function isLayeredMove(move: TCameraMove | null | undefined): move is TLayeredMove {
  return (LAYERED_MOVES as readonly string[]).includes(move ?? '');
}

/**
 * A move in two layers, the subject (near) in front of its background (far): an orbit carries
 * them in opposite directions round the subject, a dolly magnifies the subject faster than what
 * is behind it (the background seems to stay while the person comes closer). Both layers start as
 * the same view, so the first frame is the photo.
 */
export function planLayeredMove(input: {
  move: 'orbit' | 'dolly_in';
  photo: Size;
  aspect: TVideoAspect | null | undefined;
  durationSeconds: number | null | undefined;
  subject: FocusPoint;
  fps?: number;
}): ParallaxPlan {
  const fps = input.fps ?? VIDEO_FPS;
  const frame = videoFrameSize(input.aspect);
  const canvas = { width: frame.width * VIDEO_SUPERSAMPLE, height: frame.height * VIDEO_SUPERSAMPLE };
  const crop = coverRect(input.photo, frame, input.subject);
  const subject = {
    x: clamp((input.subject.x * input.photo.width - crop.left) / crop.width, 0, 1),
    y: clamp((input.subject.y * input.photo.height - crop.top) / crop.height, 0, 1),
  };
  const count = frameCount(input.durationSeconds, fps);
  const windows: Rect[] = [];
  const backgroundWindows: Rect[] = [];
  for (let index = 0; index < count; index++) {
    const e = easeInOut(count === 1 ? 0 : index / (count - 1));
    let front: CameraView;
    let back: CameraView;
    if (input.move === 'orbit') {
      // The subject swings one way and the background the other: the camera circles the person.
      const zoom = 1.14;
      const swing = (1 - 1 / zoom) / 2;
      front = { zoom: zoom + 0.04 * Math.sin(Math.PI * e), x: 0.5 + swing * 0.8 * (1 - 2 * e), y: 0.5 };
      back = { zoom, x: 0.5 - swing * 0.9 * (1 - 2 * e), y: 0.5 };
    } else {
      front = {
        zoom: lerp(1.04, 1.38, e),
        x: lerp(0.5, subject.x, e * 0.5),
        y: lerp(0.5, subject.y, e * 0.5),
      };
      back = { zoom: lerp(1.04, 1.12, e), x: 0.5, y: 0.5 };
    }
    windows.push(wholePixels(viewWindow(front, canvas), canvas));
    backgroundWindows.push(wholePixels(viewWindow(back, canvas), canvas));
  }
  return { frame, fps, canvas, windows, backgroundWindows, focus: input.subject, faceCentred: false };
}

function clampCentre(value: number, zoom: number): number {
  const half = 1 / zoom / 2;
  return clamp(value, half, 1 - half);
}

function lerp(from: number, to: number, t: number): number {
  return from + (to - from) * t;
}

/**
 * A drawn scene filmed with a named move: each frame of the animation is drawn first, then the
 * camera's view of it is resampled (bilinearly, at fractional positions, so the slowest move
 * glides) back to the frame's size. The scene's own motion (water, clouds) carries on beneath.
 */
export function sceneWithCameraMove<
  T extends { width: number; height: number; frameAt(seconds: number, clip: number): Buffer },
>(animation: T, move: TCameraMove, focus: FocusPoint = { x: 0.5, y: 0.5 }): T {
  const { width, height } = animation;
  return {
    ...animation,
    frameAt(seconds: number, clip: number) {
      const still = animation.frameAt(seconds, clip);
      const t = clip > 0 ? Math.min(1, seconds / clip) : 0;
      return viewOf(
        still,
        { width, height },
        viewWindow(cameraViewAt(move, t, seconds, focus), { width, height }),
      );
    },
  };
}

/** The `window` of an RGB picture resampled bilinearly to the picture's own size. */
export function viewOf(rgb: Buffer, size: Size, window: Rect): Buffer {
  const { width, height } = size;
  const out = Buffer.alloc(width * height * 3);
  const stepX = window.width / width;
  const stepY = window.height / height;
  for (let y = 0; y < height; y++) {
    const sy = clamp(window.top + (y + 0.5) * stepY - 0.5, 0, height - 1);
    const y0 = Math.floor(sy);
    const y1 = Math.min(height - 1, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = clamp(window.left + (x + 0.5) * stepX - 0.5, 0, width - 1);
      const x0 = Math.floor(sx);
      const x1 = Math.min(width - 1, x0 + 1);
      const fx = sx - x0;
      const a = (y0 * width + x0) * 3;
      const b = (y0 * width + x1) * 3;
      const c = (y1 * width + x0) * 3;
      const d = (y1 * width + x1) * 3;
      const o = (y * width + x) * 3;
      for (let k = 0; k < 3; k++) {
        const top = rgb[a + k]! + (rgb[b + k]! - rgb[a + k]!) * fx;
        const bottom = rgb[c + k]! + (rgb[d + k]! - rgb[c + k]!) * fx;
        out[o + k] = Math.round(top + (bottom - top) * fy);
      }
    }
  }
  return out;
}
