import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { bundledFfmpegPath, runFfmpeg, sampleVideoFrames } from '@mirra/imaging';
import { EngineError, type EngineNote, type EngineOutput } from './engine.types.js';

/** Frames of a provider's video the result check looks at (besides the poster). */
export const PROVIDER_VIDEO_CHECKED_FRAMES = 4;
const FFMPEG_TIMEOUT_MS = 60_000;

/** What ffmpeg says of an input: `Duration: 00:00:05.04` and the video stream's `1280x720`. */
export function parseFfmpegProbe(stderr: string): { seconds: number; width: number; height: number } | null {
  const duration = /Duration:\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const size = /Stream #\S+.*Video:.*?\b(\d{2,5})x(\d{2,5})\b/.exec(stderr);
  if (!duration || !size) return null;
  const seconds = Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]);
  return { seconds, width: Number(size[1]), height: Number(size[2]) };
}

/**
 * A provider's MP4 made into a result the way the local video mode's is: its size and length read
 * by ffmpeg, a WebP poster of its first frame (lists, the player), and frames spread over the clip
 * for the result check (a refused frame anywhere refuses the video). Not an MP4 ffmpeg can read →
 * the provider failed.
 */
export async function providerVideoOutput(
  mp4: Buffer,
  notes: EngineNote[],
  provider: { model: string; costUsd: number | null },
  ffmpegPath: string = bundledFfmpegPath(),
): Promise<EngineOutput> {
  const workDir = await mkdtemp(join(tmpdir(), 'mirra-provider-video-'));
  try {
    const source = join(workDir, 'video.mp4');
    const posterPath = join(workDir, 'poster.png');
    await writeFile(source, mp4);
    let stderr: string;
    try {
      ({ stderr } = await runFfmpeg({
        path: ffmpegPath,
        args: ['-hide_banner', '-y', '-i', source, '-frames:v', '1', posterPath],
        timeoutMs: FFMPEG_TIMEOUT_MS,
      }));
    } catch (error) {
      throw new EngineError(
        'engine.failed',
        `The provider's video could not be read: ${String(error)}`,
        true,
      );
    }
    const probe = parseFfmpegProbe(stderr);
    if (!probe) throw new EngineError('engine.failed', 'The provider returned no readable video.', true);
    const poster = await sharp(await readFile(posterPath))
      .webp({ quality: 85 })
      .toBuffer();
    const frames = await sampleVideoFrames({
      path: ffmpegPath,
      mp4,
      seconds: probe.seconds,
      count: PROVIDER_VIDEO_CHECKED_FRAMES,
      timeoutMs: FFMPEG_TIMEOUT_MS,
    });
    return {
      data: mp4,
      contentType: 'video/mp4',
      width: probe.width,
      height: probe.height,
      poster,
      durationSeconds: Math.round(probe.seconds * 100) / 100,
      checkedFrames: frames,
      notes,
      provider,
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
