import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The encoder is missing or cannot run: a broken install, not a bad request. */
export class FfmpegMissingError extends Error {
  override name = 'FfmpegMissingError';
}

/** ffmpeg ran and failed (or was stopped): its exit and the end of what it wrote to stderr. */
export class FfmpegFailedError extends Error {
  override name = 'FfmpegFailedError';
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/**
 * The static ffmpeg that @ffmpeg-installer/ffmpeg ships for this platform (linux-x64 carries
 * libx264). Throws FfmpegMissingError, saying what to install, when the platform package is absent.
 */
export function bundledFfmpegPath(): string {
  try {
    const require = createRequire(import.meta.url);
    const installer = require('@ffmpeg-installer/ffmpeg') as { path: string };
    return installer.path;
  } catch (error) {
    throw new FfmpegMissingError(
      `No ffmpeg for ${process.platform}-${process.arch}: install @ffmpeg-installer/ffmpeg with its ` +
        `platform package (${String((error as Error)?.message ?? error)})`,
    );
  }
}

/** Checks that `path` is an executable file before anything is encoded; FfmpegMissingError if not. */
export function assertExecutable(path: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new FfmpegMissingError(`ffmpeg is missing or not executable at ${path}`);
  }
}

/**
 * The frame number of each progress block ffmpeg writes with `-progress` (key=value lines, a
 * block ending with `progress=continue` or `progress=end`). Fed chunks as they arrive, which may
 * split lines anywhere; returns the frames of the blocks completed by this chunk.
 */
export function createProgressParser(): (chunk: string) => number[] {
  let pending = '';
  let frame: number | null = null;
  return (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    const frames: number[] = [];
    for (const raw of lines) {
      const line = raw.trim();
      const separator = line.indexOf('=');
      if (separator < 0) continue;
      const key = line.slice(0, separator);
      const value = line.slice(separator + 1);
      if (key === 'frame' && /^\d+$/.test(value)) frame = Number(value);
      if (key === 'progress' && frame !== null) frames.push(frame);
    }
    return frames;
  };
}

export interface FfmpegRun {
  path: string;
  args: string[];
  /** Written to ffmpeg's stdin in order, with backpressure; stdin closes after the last. */
  input?: AsyncIterable<Buffer>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Each frame number ffmpeg reports having encoded (`-progress pipe:1` in args). */
  onFrame?: (frame: number) => void;
}

/** Kept of stderr for the error: the last part, where ffmpeg says what went wrong. */
const STDERR_KEEP = 4000;

/**
 * Runs ffmpeg with an argument array (never through a shell), stops it at the time limit or when
 * the signal aborts, and rejects with FfmpegFailedError (exit code, stderr tail) unless it exits 0.
 */
export async function runFfmpeg(run: FfmpegRun): Promise<{ stderr: string }> {
  assertExecutable(run.path);
  if (run.signal?.aborted) throw new FfmpegFailedError('ffmpeg was not started: stopped', null, '', false);
  const child = spawn(run.path, run.args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false });
  let stderr = '';
  let timedOut = false;
  const parse = createProgressParser();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    for (const frame of parse(chunk)) run.onFrame?.(frame);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEEP);
  });
  const kill = () => child.kill('SIGKILL');
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, run.timeoutMs);
  run.signal?.addEventListener('abort', kill, { once: true });

  const exit = new AbortController();
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) => {
      exit.abort();
      reject(error);
    });
    child.once('close', (code) => {
      exit.abort();
      resolve(code);
    });
  });
  // A write to a process that has died fails with EPIPE; the exit code tells the real story.
  child.stdin.on('error', () => {});
  // The frames' producer failing (or throwing on cancellation) stops ffmpeg and is what is thrown.
  const inputFailure = feed(child.stdin, run.input, exit.signal).then(
    () => null,
    (error: unknown) => {
      if (!(error instanceof InputClosedError)) kill();
      return error instanceof InputClosedError ? null : { error };
    },
  );
  try {
    const [code, failure] = await Promise.all([exited, inputFailure]);
    if (failure) throw failure.error;
    if (code !== 0) {
      const why = timedOut ? 'timed out' : run.signal?.aborted ? 'was stopped' : `exited with ${code}`;
      throw new FfmpegFailedError(`ffmpeg ${why}: ${lastLine(stderr)}`, code, stderr, timedOut);
    }
    return { stderr };
  } catch (error) {
    if (!(error instanceof Error) || error.message.startsWith('spawn')) {
      throw new FfmpegFailedError(
        `ffmpeg could not run: ${String((error as Error)?.message ?? error)}`,
        null,
        stderr,
        false,
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', kill);
  }
}

/** Writes the chunks with backpressure; stops (InputClosedError) as soon as ffmpeg has exited. */
async function feed(
  stdin: NodeJS.WritableStream,
  input: AsyncIterable<Buffer> | undefined,
  exited: AbortSignal,
) {
  try {
    if (!input) return;
    for await (const chunk of input) {
      if (exited.aborted) throw new InputClosedError('ffmpeg exited before its input ended');
      if (stdin.write(chunk)) continue;
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          stdin.off('drain', done);
          exited.removeEventListener('abort', closed);
          resolve();
        };
        const closed = () => {
          stdin.off('drain', done);
          reject(new InputClosedError('ffmpeg exited before its input ended'));
        };
        stdin.once('drain', done);
        exited.addEventListener('abort', closed, { once: true });
      });
    }
  } finally {
    stdin.end();
  }
}

/** ffmpeg stopped reading (it failed or was killed): its exit code says why. */
class InputClosedError extends Error {}

function lastLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .filter((line) => line.trim())
      .at(-1) ?? 'no message'
  );
}

/**
 * `count` frames of an MP4, evenly spread over its `seconds` (each in the middle of its share of
 * the clip, so neither the first nor the last frame alone stands for the video), as PNGs: what
 * moderation looks at when a video is published.
 */
export async function sampleVideoFrames(input: {
  path: string;
  mp4: Buffer;
  seconds: number;
  count: number;
  timeoutMs: number;
}): Promise<Buffer[]> {
  const workDir = await mkdtemp(join(tmpdir(), 'mirra-frames-'));
  try {
    const source = join(workDir, 'video.mp4');
    await writeFile(source, input.mp4);
    const frames: Buffer[] = [];
    for (let index = 0; index < input.count; index++) {
      const at = ((index + 0.5) / input.count) * input.seconds;
      const output = join(workDir, `frame-${index}.png`);
      await runFfmpeg({
        path: input.path,
        args: [
          '-hide_banner',
          '-loglevel',
          'error',
          '-y',
          '-ss',
          at.toFixed(3),
          '-i',
          source,
          '-frames:v',
          '1',
          output,
        ],
        timeoutMs: input.timeoutMs,
      });
      frames.push(await readFile(output));
    }
    return frames;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** A grid preview's width (tiles are about a third of a phone's width) and its rate and length. */
export const PREVIEW_WIDTH = 180;
export const PREVIEW_FPS = 6;
export const PREVIEW_SECONDS = 2.5;

/**
 * The arguments that turn the start of an MP4 into a small looping animated WebP for grids:
 * PREVIEW_SECONDS at PREVIEW_FPS, PREVIEW_WIDTH wide, lossy (tiles are small and move).
 */
export function animatedWebpArgs(input: { source: string; output: string }): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-t',
    String(PREVIEW_SECONDS),
    '-i',
    input.source,
    '-an',
    '-vf',
    `fps=${PREVIEW_FPS},scale=${PREVIEW_WIDTH}:-2:flags=lanczos`,
    '-c:v',
    'libwebp_anim',
    '-quality',
    '40',
    '-compression_level',
    '4',
    '-loop',
    '0',
    input.output,
  ];
}

/** The animated WebP preview of an MP4 (see animatedWebpArgs). */
export async function animatedWebpPreview(input: {
  path: string;
  mp4: Buffer;
  timeoutMs: number;
}): Promise<Buffer> {
  const workDir = await mkdtemp(join(tmpdir(), 'mirra-preview-'));
  try {
    const source = join(workDir, 'video.mp4');
    const output = join(workDir, 'preview.webp');
    await writeFile(source, input.mp4);
    await runFfmpeg({
      path: input.path,
      args: animatedWebpArgs({ source, output }),
      timeoutMs: input.timeoutMs,
    });
    return await readFile(output);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
