import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { TCameraMove, TVideoAspect } from '@mirra/contracts';
import { FACE_OVAL, type AnalysedFace, type FaceAnalyzer } from '../faces/index.js';
import { MAX_INPUT_PIXELS } from '../raster/raster.js';
import { isLayeredMove, planCameraMove, planLayeredMove } from './camera-moves.models.js';
import { runFfmpeg } from './ffmpeg.js';
import {
  buildFaceRig,
  FACE_MOTION_MIN_WIDTH,
  facePoseAt,
  renderFaceMotion,
  type CanvasPoint,
  type FaceRig,
  type FaceShape,
} from './face-motion.models.js';
import {
  composeLayers,
  fillBehindSubject,
  isParallaxSubject,
  solidMatte,
  subjectStats,
  type SubjectStats,
} from './parallax.models.js';
import type { PersonMask, PersonSegmenter } from './person-segmentation.js';
import {
  canvasSourceRect,
  faceFocus,
  h264EncodeArgs,
  planMotion,
  planParallax,
  VIDEO_MIN_SOURCE_SIDE,
  type MotionPlan,
  type Rect,
  type Size,
} from './video.models.js';

/** How the photo was brought to life. */
export type PhotoMotion = 'face' | 'parallax' | 'camera';

export interface AnimatedPhoto {
  mp4: Buffer;
  /** The first frame as WebP, for lists and as the player's poster. */
  poster: Buffer;
  plan: MotionPlan;
  /**
   * face: the face turns, tilts, blinks and smiles under the camera move; parallax: the subject
   * (cut out by person segmentation) moves against its background; camera: the move alone.
   */
  motion: PhotoMotion;
  /** The named camera move made, when one was asked for. */
  camera: TCameraMove | null;
}

export class PhotoTooSmallError extends Error {
  override name = 'PhotoTooSmallError';
}

/** What every encode needs besides its frames. */
export interface EncodeOptions {
  ffmpegPath: string;
  /** Written into the MP4's metadata. */
  description: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Called with the fraction of frames encoded (0–1), per progress report of ffmpeg. */
  onProgress: (fraction: number) => void;
  /** Checks for cancellation between frames; throws to stop. */
  check: () => void;
}

/**
 * Animates a photo. With a face large enough to move, the camera move (planMotion) closes in on it
 * while the face itself turns, tilts, blinks and smiles (face-motion.models); without one, when
 * person segmentation finds a subject, a parallax move lifts it off its background
 * (planParallax, parallax.models); otherwise the camera move alone, towards a point a third from
 * the top. The photo is cut to the frame's shape, resampled once to twice the frame size, and
 * each frame is rendered from that canvas and piped to ffmpeg as raw RGB.
 */
export async function animatePhoto(
  input: {
    photo: Buffer;
    aspect: TVideoAspect | null | undefined;
    durationSeconds: number | null | undefined;
    faceAnalyzer: FaceAnalyzer | null;
    personSegmenter?: PersonSegmenter | null;
    /** A named camera move; without one, the move above that suits the photo. */
    camera?: TCameraMove | null;
  } & EncodeOptions,
): Promise<AnimatedPhoto> {
  const upright = await sharp(input.photo, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const photo = { width: upright.info.width, height: upright.info.height };
  if (Math.min(photo.width, photo.height) < VIDEO_MIN_SOURCE_SIDE) {
    throw new PhotoTooSmallError(
      `The photo is ${photo.width}×${photo.height}; animating needs at least ${VIDEO_MIN_SOURCE_SIDE} px on its short side.`,
    );
  }
  const rawPhoto = { raw: { width: photo.width, height: photo.height, channels: 3 as const } };
  const found = input.faceAnalyzer
    ? await findFace(
        input.faceAnalyzer,
        await sharp(upright.data, rawPhoto).png({ compressionLevel: 1 }).toBuffer(),
        photo,
      )
    : null;
  input.check();
  const common = { photo, aspect: input.aspect, durationSeconds: input.durationSeconds };
  const camera = input.camera ?? null;
  const cameraPlan = camera
    ? planCameraMove({ ...common, move: camera, focus: found?.focus ?? null })
    : planMotion({ ...common, face: found?.focus ?? null });
  const cameraSource = canvasSourceRect(photo, cameraPlan);
  const rig = found ? faceRigOnCanvas(found.face, found.scale, cameraSource, cameraPlan) : null;

  let subject: SubjectStats | null = null;
  let mask: PersonMask | null = null;
  // A parallax, orbit or dolly asked for lifts the person off the background even with a face;
  // without a move asked for, parallax is for a photo whose face is too small to move.
  if ((camera ? isLayeredMove(camera) : !rig) && input.personSegmenter) {
    mask = await input.personSegmenter.segment({ data: upright.data, ...photo });
    const stats = subjectStats(mask);
    if (isParallaxSubject(stats)) subject = stats;
    input.check();
  }

  if (subject && mask) {
    const plan =
      camera === 'orbit' || camera === 'dolly_in'
        ? planLayeredMove({ ...common, move: camera, subject: subject.centre })
        : planParallax({ ...common, subject: subject.centre });
    const source = canvasSourceRect(photo, plan);
    const canvas = await toCanvas(sharp(upright.data, rawPhoto), source, plan.canvas);
    // The mask, stretched back over the photo, cut and resampled exactly like the canvas.
    const matte = solidMatte(mask);
    const maskOverPhoto = await sharp(matte.data, {
      raw: { width: matte.width, height: matte.height, channels: 1 },
    })
      .resize(photo.width, photo.height, { fit: 'fill', kernel: 'cubic' })
      .extractChannel(0)
      .raw()
      .toBuffer();
    const alpha = await sharp(maskOverPhoto, { raw: { ...photo, channels: 1 } })
      .extract(source)
      .resize(plan.canvas.width, plan.canvas.height, { fit: 'fill', kernel: 'cubic' })
      .extractChannel(0)
      .raw()
      .toBuffer();
    const background = fillBehindSubject(canvas, alpha, plan.canvas.width, plan.canvas.height);
    const foreground = await sharp(canvas, { raw: { ...plan.canvas, channels: 3 } })
      .joinChannel(alpha, { raw: { ...plan.canvas, channels: 1 } })
      .raw()
      .toBuffer();
    const backgroundImage = { raw: { ...plan.canvas, channels: 3 as const } };
    const foregroundImage = { raw: { ...plan.canvas, channels: 4 as const } };
    const size = { fit: 'fill' as const, kernel: 'cubic' as const };
    const renderFrame = async (index: number) => {
      const [back, front] = await Promise.all([
        sharp(background, backgroundImage)
          .extract(plan.backgroundWindows[index]!)
          .resize(plan.frame.width, plan.frame.height, size)
          .raw()
          .toBuffer(),
        sharp(foreground, foregroundImage)
          .extract(plan.windows[index]!)
          .resize(plan.frame.width, plan.frame.height, size)
          .raw()
          .toBuffer(),
      ]);
      composeLayers(back, front, plan.frame.width * plan.frame.height);
      return back;
    };
    const encoded = await encodeFrames({
      ...input,
      frame: plan.frame,
      fps: plan.fps,
      count: plan.windows.length,
      renderFrame,
    });
    return { ...encoded, plan, motion: 'parallax', camera };
  }

  const plan = cameraPlan;
  const canvas = await toCanvas(sharp(upright.data, rawPhoto), cameraSource, plan.canvas);
  const raw = { raw: { width: plan.canvas.width, height: plan.canvas.height, channels: 3 as const } };
  const seconds = plan.windows.length / plan.fps;
  const renderFrame = async (index: number) => {
    const window = plan.windows[index]!;
    const frame = await sharp(canvas, raw)
      .extract(window)
      .resize(plan.frame.width, plan.frame.height, { fit: 'fill', kernel: 'cubic' })
      .raw()
      .toBuffer();
    if (rig) {
      renderFaceMotion({
        canvas: { data: canvas, width: plan.canvas.width, height: plan.canvas.height },
        frame,
        frameSize: plan.frame,
        window,
        rig,
        pose: facePoseAt(index / plan.fps, seconds),
      });
    }
    return frame;
  };
  const encoded = await encodeFrames({
    ...input,
    frame: plan.frame,
    fps: plan.fps,
    count: plan.windows.length,
    renderFrame,
  });
  return { ...encoded, plan, motion: rig ? 'face' : 'camera', camera };
}

/** The frame-shaped part of the photo resampled to the canvas (the camera's supersampled view). */
async function toCanvas(photo: sharp.Sharp, source: Rect, canvas: Size): Promise<Buffer> {
  return photo
    .extract(source)
    .resize(canvas.width, canvas.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
}

/**
 * The first frame as a WebP poster, and every frame in order for the encoder: the next frame is
 * drawn while the last one is being encoded, and `check` stops between frames.
 */
export async function posterAndFrames(input: {
  frame: { width: number; height: number };
  count: number;
  renderFrame: (index: number) => Promise<Buffer>;
  check: () => void;
}): Promise<{ poster: Buffer; frames: () => AsyncGenerator<Buffer> }> {
  const { frame, count, renderFrame } = input;
  const first = await renderFrame(0);
  const poster = await sharp(first, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .webp({ quality: 82 })
    .toBuffer();
  async function* frames(): AsyncGenerator<Buffer> {
    yield first;
    let next = count > 1 ? renderFrame(1) : null;
    for (let index = 1; index < count; index++) {
      input.check();
      const current = await next!;
      next = index + 1 < count ? renderFrame(index + 1) : null;
      yield current;
    }
  }
  return { poster, frames };
}

/**
 * Renders `count` frames (one ahead while ffmpeg encodes the one before) and encodes them to an
 * H.264 MP4; the first frame is also kept as a WebP poster.
 */
export async function encodeFrames(
  input: {
    frame: Size;
    fps: number;
    count: number;
    /** RGB pixels of frame `index`, frame.width × frame.height. */
    renderFrame: (index: number) => Promise<Buffer>;
  } & EncodeOptions,
): Promise<{ mp4: Buffer; poster: Buffer }> {
  const { frame, count } = input;
  const { poster, frames } = await posterAndFrames(input);

  const workDir = await mkdtemp(path.join(tmpdir(), 'mirra-video-'));
  try {
    const output = path.join(workDir, 'video.mp4');
    await runFfmpeg({
      path: input.ffmpegPath,
      args: h264EncodeArgs({ frame, fps: input.fps, output, description: input.description }),
      input: frames(),
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      onFrame: (encoded) => input.onProgress(Math.min(1, encoded / count)),
    });
    return { mp4: await readFile(output), poster };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

interface FoundFace {
  face: AnalysedFace;
  /** Photo pixels per analysed-image pixel (the analyser works on a scaled-down copy). */
  scale: number;
  /** The face box's centre as fractions of the photo. */
  focus: { x: number; y: number };
}

/** The largest face, if any, with where it sits in the photo. */
async function findFace(
  analyzer: FaceAnalyzer,
  photo: Buffer,
  size: { width: number; height: number },
): Promise<FoundFace | null> {
  const analysis = await analyzer.analyze(photo);
  const [largest] = analysis.faces;
  if (!largest) return null;
  // Boxes are in the analysed image's pixels (the photo scaled down to ANALYSIS_MAX_SIDE).
  const scale = size.width / analysis.image.width;
  const focus = faceFocus(
    {
      x: largest.box.x * scale,
      y: largest.box.y * scale,
      width: largest.box.width * scale,
      height: largest.box.height * scale,
    },
    size,
  );
  return { face: largest, scale, focus };
}

/**
 * The face's motion rig on the canvas, from its mesh (analysed-image pixels → photo → the crop
 * the canvas was resampled from); none when the face would be too small in the video to move
 * convincingly, or the mesh lacks the points the motion needs.
 */
function faceRigOnCanvas(
  face: AnalysedFace,
  scale: number,
  source: { left: number; top: number; width: number; height: number },
  plan: MotionPlan,
): FaceRig | null {
  const toCanvasX = plan.canvas.width / source.width;
  const toCanvasY = plan.canvas.height / source.height;
  const at = (point: readonly number[] | undefined): CanvasPoint => [
    ((point?.[0] ?? 0) * scale - source.left) * toCanvasX,
    ((point?.[1] ?? 0) * scale - source.top) * toCanvasY,
  ];
  if (face.mesh.length < 468) return null;
  const { landmarks } = face;
  const shape: FaceShape = {
    oval: FACE_OVAL.map((index) => at(face.mesh[index])),
    noseTip: at(landmarks.noseTip),
    eyes: [
      {
        outer: at(landmarks.rightEyeOuter),
        inner: at(landmarks.rightEyeInner),
        upper: at(landmarks.rightEyeUpper),
        lower: at(landmarks.rightEyeLower),
      },
      {
        outer: at(landmarks.leftEyeOuter),
        inner: at(landmarks.leftEyeInner),
        upper: at(landmarks.leftEyeUpper),
        lower: at(landmarks.leftEyeLower),
      },
    ],
    mouthCorners: [at(landmarks.mouthRight), at(landmarks.mouthLeft)],
  };
  const xs = shape.oval.map((p) => p[0]);
  // The face's width in the first (widest) frame, in output pixels.
  const widthInFrame = ((Math.max(...xs) - Math.min(...xs)) * plan.frame.width) / plan.canvas.width;
  if (widthInFrame < FACE_MOTION_MIN_WIDTH) return null;
  return buildFaceRig(shape, plan.canvas);
}
