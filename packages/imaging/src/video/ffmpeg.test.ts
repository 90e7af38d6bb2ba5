import { describe, expect, it } from 'vitest';
import {
  animatedWebpArgs,
  assertExecutable,
  bundledFfmpegPath,
  createProgressParser,
  FfmpegFailedError,
  FfmpegMissingError,
  PREVIEW_FPS,
  PREVIEW_SECONDS,
  PREVIEW_WIDTH,
  runFfmpeg,
} from './ffmpeg.js';

describe('ffmpeg progress', () => {
  it('reports the frame of each completed block, however the output is split', () => {
    const parse = createProgressParser();
    const output =
      'frame=12\nfps=0.0\nout_time=00:00:00.5\nprogress=continue\nframe=48\nfps=30\nprogress=continue\nframe=72\nprogress=end\n';
    const frames: number[] = [];
    for (let index = 0; index < output.length; index += 7)
      frames.push(...parse(output.slice(index, index + 7)));
    expect(frames).toEqual([12, 48, 72]);
  });
});

describe('running ffmpeg', () => {
  it('finds the bundled binary', () => {
    expect(() => assertExecutable(bundledFfmpegPath())).not.toThrow();
  });

  it('says clearly that the binary is missing before starting anything', async () => {
    const run = runFfmpeg({ path: '/nonexistent/ffmpeg', args: ['-version'], timeoutMs: 5000 });
    await expect(run).rejects.toBeInstanceOf(FfmpegMissingError);
    await expect(run).rejects.toThrow(/missing or not executable/);
  });

  it('rejects with its exit code and stderr when it fails', async () => {
    const error = await runFfmpeg({
      path: bundledFfmpegPath(),
      args: ['-hide_banner', '-i', '/nonexistent/input.png', '-f', 'null', '-'],
      timeoutMs: 20_000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FfmpegFailedError);
    expect((error as FfmpegFailedError).exitCode).not.toBe(0);
    expect((error as FfmpegFailedError).stderr).toMatch(/nonexistent/);
  });

  it('is stopped at its time limit', async () => {
    // Reads stdin that never ends: only the time limit stops it.
    async function* forever(): AsyncGenerator<Buffer> {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        yield Buffer.alloc(16 * 16 * 3);
      }
    }
    const error = await runFfmpeg({
      path: bundledFfmpegPath(),
      args: ['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', '16x16', '-i', 'pipe:0', '-f', 'null', '-'],
      input: forever(),
      timeoutMs: 1000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FfmpegFailedError);
    expect((error as FfmpegFailedError).timedOut).toBe(true);
  });

  it('reports encoded frames as it goes', async () => {
    async function* frames(): AsyncGenerator<Buffer> {
      for (let index = 0; index < 30; index++) yield Buffer.alloc(16 * 16 * 3, index * 8);
    }
    const seen: number[] = [];
    await runFfmpeg({
      path: bundledFfmpegPath(),
      args: [
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        '16x16',
        '-i',
        'pipe:0',
        '-progress',
        'pipe:1',
        '-f',
        'null',
        '-',
      ],
      input: frames(),
      timeoutMs: 20_000,
      onFrame: (frame) => seen.push(frame),
    });
    expect(seen.at(-1)).toBe(30);
  });
});

describe('the grid preview of a video', () => {
  it('is the first seconds, few frames a second, small, looping, as animated WebP', () => {
    const args = animatedWebpArgs({ source: '/tmp/in.mp4', output: '/tmp/out.webp' });
    expect(args.slice(args.indexOf('-t'), args.indexOf('-t') + 2)).toEqual(['-t', String(PREVIEW_SECONDS)]);
    expect(args[args.indexOf('-vf') + 1]).toBe(`fps=${PREVIEW_FPS},scale=${PREVIEW_WIDTH}:-2:flags=lanczos`);
    expect(args[args.indexOf('-c:v') + 1]).toBe('libwebp_anim');
    expect(args[args.indexOf('-loop') + 1]).toBe('0');
    expect(args.at(-1)).toBe('/tmp/out.webp');
    expect(args).not.toContain('-f');
  });
});
