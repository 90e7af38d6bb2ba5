import { VIDEO_ASPECT_DEFAULT, VIDEO_DURATION_DEFAULT, type TVideoAspect } from '@mirra/contracts';

/** Frames per second of the local engine's videos. */
export const VIDEO_FPS = 24;
/** The long side of a video (720p: 1280×720, 720×1280, or 720×720 for a square). */
export const VIDEO_LONG_SIDE = 1280;
export const VIDEO_SHORT_SIDE = 720;
/** A photo smaller than this on its short side would only be a blur when filled to 720p. */
export const VIDEO_MIN_SOURCE_SIDE = 256;
/** How far the camera pushes in over the clip: the last frame shows 1/1.18 of the first's width. */
export const VIDEO_ZOOM_END = 1.18;
/**
 * The crop window is cut from the photo resampled to this many times the output size, so its
 * whole-pixel steps are half an output pixel: the move glides instead of stepping.
 */
export const VIDEO_SUPERSAMPLE = 2;

export interface Size {
  width: number;
  height: number;
}

/** A rectangle of whole pixels. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A point as fractions of the photo's width and height (0–1). */
export interface FocusPoint {
  x: number;
  y: number;
}

/** The video's frame size for an aspect: even on both sides (H.264 with yuv420p needs it). */
export function videoFrameSize(aspect: TVideoAspect | null | undefined): Size {
  switch (aspect ?? VIDEO_ASPECT_DEFAULT) {
    case '16:9':
      return { width: VIDEO_LONG_SIDE, height: VIDEO_SHORT_SIDE };
    case '1:1':
      return { width: VIDEO_SHORT_SIDE, height: VIDEO_SHORT_SIDE };
    case '9:16':
      return { width: VIDEO_SHORT_SIDE, height: VIDEO_LONG_SIDE };
  }
}

export function frameCount(durationSeconds: number | null | undefined, fps = VIDEO_FPS): number {
  return Math.round((durationSeconds ?? VIDEO_DURATION_DEFAULT) * fps);
}

/** Slow in, slow out (cosine): no jolt when the clip starts or loops. */
export function easeInOut(t: number): number {
  const clamped = Math.min(1, Math.max(0, t));
  return (1 - Math.cos(Math.PI * clamped)) / 2;
}

/** The largest rectangle of the frame's shape inside the photo, centred on the focus where it fits. */
export function coverRect(photo: Size, frame: Size, focus: FocusPoint): Rect {
  const scale = Math.min(photo.width / frame.width, photo.height / frame.height);
  const width = frame.width * scale;
  const height = frame.height * scale;
  return {
    left: clamp(focus.x * photo.width - width / 2, 0, photo.width - width),
    top: clamp(focus.y * photo.height - height / 2, 0, photo.height - height),
    width,
    height,
  };
}

export interface MotionPlan {
  frame: Size;
  fps: number;
  /** What the photo is resampled to before cropping (VIDEO_SUPERSAMPLE × the frame, filled). */
  canvas: Size;
  /** The window of the canvas each frame shows, in order. */
  windows: Rect[];
  /** Where the camera ends up: the face when one was found, else a third from the top. */
  focus: FocusPoint;
  faceCentred: boolean;
}

/**
 * A Ken Burns move: the camera starts on the whole frame-shaped crop of the photo (centred on the
 * focus as far as the photo allows) and pushes in to VIDEO_ZOOM_END, drifting towards the focus
 * (the face: its eyes end up a little above the centre), eased at both ends. Without a face it
 * pushes in towards a point a third from the top, where subjects usually are.
 */
export function planMotion(input: {
  photo: Size;
  aspect: TVideoAspect | null | undefined;
  durationSeconds: number | null | undefined;
  /** The largest face, as fractions of the photo (box centre), if any. */
  face?: FocusPoint | null;
  fps?: number;
}): MotionPlan {
  const fps = input.fps ?? VIDEO_FPS;
  const frame = videoFrameSize(input.aspect);
  const focus = input.face ?? { x: 0.5, y: 1 / 3 };
  // The photo filled into a canvas of the frame's shape times the supersample (cover: the photo is
  // cropped around the focus to the frame's shape first).
  const canvas = { width: frame.width * VIDEO_SUPERSAMPLE, height: frame.height * VIDEO_SUPERSAMPLE };
  const start: Rect = { left: 0, top: 0, width: canvas.width, height: canvas.height };
  const endWidth = canvas.width / VIDEO_ZOOM_END;
  const endHeight = canvas.height / VIDEO_ZOOM_END;
  // Where the focus sits on the canvas, from its place in the cropped part of the photo.
  const crop = coverRect(input.photo, frame, focus);
  const focusOnCanvas = {
    x: ((focus.x * input.photo.width - crop.left) / crop.width) * canvas.width,
    y: ((focus.y * input.photo.height - crop.top) / crop.height) * canvas.height,
  };
  const end: Rect = {
    left: clamp(focusOnCanvas.x - endWidth / 2, 0, canvas.width - endWidth),
    top: clamp(focusOnCanvas.y - endHeight * 0.45, 0, canvas.height - endHeight),
    width: endWidth,
    height: endHeight,
  };
  const count = frameCount(input.durationSeconds, fps);
  const windows: Rect[] = [];
  for (let index = 0; index < count; index++) {
    const t = easeInOut(count === 1 ? 0 : index / (count - 1));
    windows.push(wholePixels(lerpRect(start, end, t), canvas));
  }
  return { frame, fps, canvas, windows, focus, faceCentred: Boolean(input.face) };
}

/** The parallax move's zoom at the start (room to move sideways) and of each layer at the end. */
export const PARALLAX_ZOOM_START = 1.05;
export const PARALLAX_ZOOM_END_FOREGROUND = 1.2;
export const PARALLAX_ZOOM_END_BACKGROUND = 1.1;
/** How much of the foreground's travel the background makes: farther things move less. */
export const PARALLAX_BACKGROUND_SHARE = 0.35;
/** The sideways drift of the foreground over the clip, as a fraction of the canvas's width. */
export const PARALLAX_DRIFT = 0.04;

export interface ParallaxPlan extends MotionPlan {
  /** The window of the background layer for each frame (`windows` are the foreground's). */
  backgroundWindows: Rect[];
}

/**
 * A parallax move for a photo whose subject stands out from its background: both layers start as
 * the same slightly zoomed crop (the first frame is the photo), then the camera pushes in towards
 * the subject while drifting sideways; the subject (near) is magnified and carried further than
 * the background (far), which makes PARALLAX_BACKGROUND_SHARE of the foreground's travel and
 * zooms less, so the subject separates from what is behind it. Eased at both ends.
 */
export function planParallax(input: {
  photo: Size;
  aspect: TVideoAspect | null | undefined;
  durationSeconds: number | null | undefined;
  /** The subject's centre, as fractions of the photo. */
  subject: FocusPoint;
  fps?: number;
}): ParallaxPlan {
  const fps = input.fps ?? VIDEO_FPS;
  const frame = videoFrameSize(input.aspect);
  const canvas = { width: frame.width * VIDEO_SUPERSAMPLE, height: frame.height * VIDEO_SUPERSAMPLE };
  const crop = coverRect(input.photo, frame, input.subject);
  const subject = {
    x: ((input.subject.x * input.photo.width - crop.left) / crop.width) * canvas.width,
    y: ((input.subject.y * input.photo.height - crop.top) / crop.height) * canvas.height,
  };
  const windowAt = (zoom: number, centreX: number, centreY: number): Rect => {
    const width = canvas.width / zoom;
    const height = canvas.height / zoom;
    return {
      left: clamp(centreX - width / 2, 0, canvas.width - width),
      top: clamp(centreY - height / 2, 0, canvas.height - height),
      width,
      height,
    };
  };
  const start = windowAt(PARALLAX_ZOOM_START, canvas.width / 2, canvas.height / 2);
  // Sideways towards the side the subject is on (to the right when it is centred).
  const side = subject.x < canvas.width / 2 - 1 ? -1 : 1;
  const foregroundEnd = windowAt(
    PARALLAX_ZOOM_END_FOREGROUND,
    lerpNumber(canvas.width / 2, subject.x, 0.5) + side * PARALLAX_DRIFT * canvas.width,
    lerpNumber(canvas.height / 2, subject.y, 0.5),
  );
  const startCentre = { x: start.left + start.width / 2, y: start.top + start.height / 2 };
  const foregroundCentre = {
    x: foregroundEnd.left + foregroundEnd.width / 2,
    y: foregroundEnd.top + foregroundEnd.height / 2,
  };
  const backgroundEnd = windowAt(
    PARALLAX_ZOOM_END_BACKGROUND,
    lerpNumber(startCentre.x, foregroundCentre.x, PARALLAX_BACKGROUND_SHARE),
    lerpNumber(startCentre.y, foregroundCentre.y, PARALLAX_BACKGROUND_SHARE),
  );
  const count = frameCount(input.durationSeconds, fps);
  const windows: Rect[] = [];
  const backgroundWindows: Rect[] = [];
  for (let index = 0; index < count; index++) {
    const t = easeInOut(count === 1 ? 0 : index / (count - 1));
    windows.push(wholePixels(lerpRect(start, foregroundEnd, t), canvas));
    backgroundWindows.push(wholePixels(lerpRect(start, backgroundEnd, t), canvas));
  }
  return { frame, fps, canvas, windows, backgroundWindows, focus: input.subject, faceCentred: false };
}

function lerpNumber(from: number, to: number, t: number): number {
  return from + (to - from) * t;
}

/** The part of the photo that fills the canvas: the frame-shaped crop around the focus. */
export function canvasSourceRect(photo: Size, plan: Pick<MotionPlan, 'frame' | 'focus'>): Rect {
  return wholePixels(coverRect(photo, plan.frame, plan.focus), photo);
}

/** The centre of a face box, as fractions of the photo it was found in. */
export function faceFocus(box: { x: number; y: number; width: number; height: number }, photo: Size) {
  return {
    x: clamp((box.x + box.width / 2) / photo.width, 0, 1),
    y: clamp((box.y + box.height / 2) / photo.height, 0, 1),
  };
}

function lerpRect(a: Rect, b: Rect, t: number): Rect {
  const lerp = (from: number, to: number) => from + (to - from) * t;
  return {
    left: lerp(a.left, b.left),
    top: lerp(a.top, b.top),
    width: lerp(a.width, b.width),
    height: lerp(a.height, b.height),
  };
}

/** Rounded to whole pixels and kept inside `bounds`. */
export function wholePixels(rect: Rect, bounds: Size): Rect {
  const width = Math.max(1, Math.min(bounds.width, Math.round(rect.width)));
  const height = Math.max(1, Math.min(bounds.height, Math.round(rect.height)));
  return {
    left: clamp(Math.round(rect.left), 0, bounds.width - width),
    top: clamp(Math.round(rect.top), 0, bounds.height - height),
    width,
    height,
  };
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * The ffmpeg arguments that encode raw RGB frames from stdin into a web-playable MP4: H.264
 * (libx264, yuv420p so every browser and phone decodes it), the index at the front
 * (`+faststart`: playback starts before the whole file is loaded), progress as key=value lines
 * on stdout (`frame=N` after each encoded batch), no audio.
 */
export function h264EncodeArgs(input: {
  frame: Size;
  fps: number;
  output: string;
  /** Kept in the file's metadata (what made it), like the pictures' EXIF label. */
  description?: string;
}): string[] {
  const { frame, fps, output } = input;
  if (frame.width % 2 !== 0 || frame.height % 2 !== 0) {
    throw new Error(`H.264 with yuv420p needs even dimensions, not ${frame.width}×${frame.height}`);
  }
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-s',
    `${frame.width}x${frame.height}`,
    '-r',
    String(fps),
    '-i',
    'pipe:0',
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    ...(input.description ? ['-metadata', `comment=${input.description}`] : []),
    '-progress',
    'pipe:1',
    '-nostats',
    output,
  ];
}
