import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { TVideoAspect } from '@mirra/contracts';
import { FACE_OVAL, type AnalysedFace, type FaceAnalyzer } from '../../../../faces/index.js';
import { MAX_INPUT_PIXELS } from '../raster.js';
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
  canvasSourceRect,
  faceFocus,
  h264EncodeArgs,
  planMotion,
  VIDEO_MIN_SOURCE_SIDE,
  type MotionPlan,
} from './video.models.js';

export interface AnimatedPhoto {
  mp4: Buffer;
  /** The first frame as WebP, for lists and as the player's poster. */
  poster: Buffer;
  plan: MotionPlan;
  /** Whether the face itself moves (turn, tilt, blinks, smile) and not only the camera. */
  faceMotion: boolean;
}

export class PhotoTooSmallError extends Error {
  override name = 'PhotoTooSmallError';
}

/**
 * Animates a photo with a camera move (planMotion): the photo is cut to the frame's shape around
 * the largest face (or a point a third from the top), resampled once to twice the frame size, and
 * each frame is a window of it resized to the frame and piped to ffmpeg as raw RGB.
 */
export async function animatePhoto(input: {
  photo: Buffer;
  aspect: TVideoAspect | null | undefined;
  durationSeconds: number | null | undefined;
  faceAnalyzer: FaceAnalyzer | null;
  ffmpegPath: string;
  /** Written into the MP4's metadata. */
  description: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Called with the fraction of frames encoded (0–1), per progress report of ffmpeg. */
  onProgress: (fraction: number) => void;
  /** Checks for cancellation between frames; throws to stop. */
  check: () => void;
}): Promise<AnimatedPhoto> {
  const upright = await sharp(input.photo, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  const photo = { width: upright.info.width, height: upright.info.height };
  if (Math.min(photo.width, photo.height) < VIDEO_MIN_SOURCE_SIDE) {
    throw new PhotoTooSmallError(
      `The photo is ${photo.width}×${photo.height}; animating needs at least ${VIDEO_MIN_SOURCE_SIDE} px on its short side.`,
    );
  }
  const found = input.faceAnalyzer ? await findFace(input.faceAnalyzer, upright.data, photo) : null;
  input.check();
  const plan = planMotion({
    photo,
    aspect: input.aspect,
    durationSeconds: input.durationSeconds,
    face: found?.focus ?? null,
  });
  const source = canvasSourceRect(photo, plan);
  const canvas = await sharp(upright.data)
    .extract(source)
    .resize(plan.canvas.width, plan.canvas.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: plan.canvas.width, height: plan.canvas.height, channels: 3 as const } };
  const rig = found ? faceRigOnCanvas(found.face, found.scale, source, plan) : null;
  const seconds = plan.windows.length / plan.fps;
  const renderFrame = async (index: number) => {
    const window = plan.windows[index]!;
    const frame = await sharp(canvas.data, raw)
      .extract(window)
      .resize(plan.frame.width, plan.frame.height, { fit: 'fill', kernel: 'cubic' })
      .raw()
      .toBuffer();
    if (rig) {
      renderFaceMotion({
        canvas: { data: canvas.data, width: plan.canvas.width, height: plan.canvas.height },
        frame,
        frameSize: plan.frame,
        window,
        rig,
        pose: facePoseAt(index / plan.fps, seconds),
      });
    }
    return frame;
  };

  const first = await renderFrame(0);
  const poster = await sharp(first, {
    raw: { width: plan.frame.width, height: plan.frame.height, channels: 3 },
  })
    .webp({ quality: 82 })
    .toBuffer();

  async function* frames(): AsyncGenerator<Buffer> {
    yield first;
    // One frame rendered ahead while ffmpeg encodes the one before.
    let next = plan.windows.length > 1 ? renderFrame(1) : null;
    for (let index = 1; index < plan.windows.length; index++) {
      input.check();
      const current = await next!;
      next = index + 1 < plan.windows.length ? renderFrame(index + 1) : null;
      yield current;
    }
  }

  const workDir = await mkdtemp(path.join(tmpdir(), 'mirra-video-'));
  try {
    const output = path.join(workDir, 'video.mp4');
    await runFfmpeg({
      path: input.ffmpegPath,
      args: h264EncodeArgs({ frame: plan.frame, fps: plan.fps, output, description: input.description }),
      input: frames(),
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      onFrame: (frame) => input.onProgress(Math.min(1, frame / plan.windows.length)),
    });
    return { mp4: await readFile(output), poster, plan, faceMotion: rig !== null };
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
