import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { TVideoAspect } from '@mirra/contracts';
import type { FaceAnalyzer } from '../faces/index.js';
import { MAX_INPUT_PIXELS } from '../raster/raster.js';
import { runFfmpeg } from './ffmpeg.js';
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
  const face = input.faceAnalyzer ? await findFace(input.faceAnalyzer, upright.data, photo) : null;
  input.check();
  const plan = planMotion({
    photo,
    aspect: input.aspect,
    durationSeconds: input.durationSeconds,
    face,
  });
  const source = canvasSourceRect(photo, plan);
  const canvas = await sharp(upright.data)
    .extract(source)
    .resize(plan.canvas.width, plan.canvas.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: plan.canvas.width, height: plan.canvas.height, channels: 3 as const } };
  const renderFrame = (index: number) =>
    sharp(canvas.data, raw)
      .extract(plan.windows[index]!)
      .resize(plan.frame.width, plan.frame.height, { fit: 'fill', kernel: 'cubic' })
      .raw()
      .toBuffer();

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
    return { mp4: await readFile(output), poster, plan };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The largest face's centre as fractions of the photo; none when no face is found. */
async function findFace(
  analyzer: FaceAnalyzer,
  photo: Buffer,
  size: { width: number; height: number },
): Promise<{ x: number; y: number } | null> {
  const analysis = await analyzer.analyze(photo);
  const [largest] = analysis.faces;
  if (!largest) return null;
  // Boxes are in the analysed image's pixels (the photo scaled down to ANALYSIS_MAX_SIDE).
  const scale = size.width / analysis.image.width;
  return faceFocus(
    {
      x: largest.box.x * scale,
      y: largest.box.y * scale,
      width: largest.box.width * scale,
      height: largest.box.height * scale,
    },
    size,
  );
}
