import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceAnalyzer } from '../faces/face-analyzer.js';
import { loadTestFaces } from '../testing/test-faces.js';
import { bundledFfmpegPath, runFfmpeg } from './ffmpeg.js';
import { talkingPhoto } from './talking-photo.pipeline.js';

const analyzer = createFaceAnalyzer();
const ffmpegPath = bundledFfmpegPath();
let workDir: string;
let portrait: Buffer;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-talking-test-'));
  portrait = (await loadTestFaces()).graceHopper;
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const encode = {
  ffmpegPath,
  description: 'test',
  timeoutMs: 60_000,
  signal: new AbortController().signal,
  onProgress: () => {},
  check: () => {},
};

async function ffmpeg(args: string[]): Promise<string> {
  const { stderr } = await runFfmpeg({
    path: ffmpegPath,
    args: ['-hide_banner', ...args],
    timeoutMs: 30_000,
  });
  return stderr;
}

/** The streams and length ffmpeg reads in the file (its banner of the input). */
async function probe(file: string): Promise<string> {
  return ffmpeg(['-i', file, '-f', 'null', '-t', '0', '-']).catch(
    (error: { stderr?: string }) => error.stderr ?? '',
  );
}

async function audioSamples(file: string): Promise<Float32Array> {
  const out = path.join(workDir, `${path.basename(file)}.f32`);
  await ffmpeg([
    '-loglevel',
    'error',
    '-y',
    '-i',
    file,
    '-vn',
    '-ac',
    '1',
    '-ar',
    '24000',
    '-f',
    'f32le',
    out,
  ]);
  const bytes = await readFile(out);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** The mean grey level of `box` in every frame of the video. */
async function brightnessPerFrame(
  file: string,
  box: { x: number; y: number; width: number; height: number },
): Promise<number[]> {
  const out = path.join(workDir, `${path.basename(file)}.grey`);
  await ffmpeg([
    '-loglevel',
    'error',
    '-y',
    '-i',
    file,
    '-vf',
    `crop=${box.width}:${box.height}:${box.x}:${box.y}`,
    '-pix_fmt',
    'gray',
    '-f',
    'rawvideo',
    out,
  ]);
  const bytes = await readFile(out);
  const size = box.width * box.height;
  return Array.from({ length: bytes.length / size }, (_, frame) => {
    let sum = 0;
    for (let index = frame * size; index < (frame + 1) * size; index++) sum += bytes[index]!;
    return sum / size;
  });
}

function correlation(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  const meanA = a.slice(0, n).reduce((s, v) => s + v, 0) / n;
  const meanB = b.slice(0, n).reduce((s, v) => s + v, 0) / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - meanA) * (b[i]! - meanB);
    aa += (a[i]! - meanA) ** 2;
    bb += (b[i]! - meanB) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

async function frameAt(file: string, index: number): Promise<{ data: Buffer; width: number }> {
  const out = path.join(workDir, `${path.basename(file)}-${index}.png`);
  await ffmpeg([
    '-loglevel',
    'error',
    '-y',
    '-i',
    file,
    '-vf',
    `select=eq(n\\,${index})`,
    '-frames:v',
    '1',
    out,
  ]);
  const { data, info } = await sharp(out).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width };
}

describe('talking photo (local engine)', () => {
  it.each([
    ['ru', 'Привет, мама! Как дела?'],
    ['en', 'Hello mum! How are you?'],
  ] as const)(
    'says a %s text: an MP4 with AAC voice as long as asked, not silent, the mouth opening with the loudness',
    async (language, text) => {
      const seconds = 3;
      const made = await talkingPhoto({
        photo: portrait,
        aspect: '1:1',
        seconds,
        faceAnalyzer: analyzer,
        text,
        language,
        ...encode,
      });
      const file = path.join(workDir, `talk-${language}.mp4`);
      await writeFile(file, made.mp4);

      const streams = await probe(file);
      expect(streams).toMatch(/Video: h264/);
      expect(streams).toMatch(/Audio: aac/);
      const duration = /Duration: (\d+):(\d+):([\d.]+)/.exec(streams)!;
      expect(Number(duration[3])).toBeCloseTo(seconds, 0);

      const samples = await audioSamples(file);
      expect(samples.length / 24000).toBeCloseTo(seconds, 0);
      const rms = Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / samples.length);
      expect(rms).toBeGreaterThan(0.02);

      // The loudest frame of the voice and a frame of the silence before it.
      const perFrame = 24000 / 24;
      const loudness = Array.from({ length: seconds * 24 }, (_, frame) => {
        let sum = 0;
        for (let index = frame * perFrame; index < (frame + 1) * perFrame; index++)
          sum += (samples[index] ?? 0) ** 2;
        return Math.sqrt(sum / perFrame);
      });
      expect(loudness[1]).toBeLessThan(0.01);

      // Where the mouth is, from the face analysed in a frame before the voice starts.
      const silent = await frameAt(file, 1);
      const silentPng = await sharp(silent.data, { raw: { width: 720, height: 720, channels: 3 } })
        .png()
        .toBuffer();
      const analysis = await analyzer.analyze(silentPng);
      const scale = 720 / analysis.image.width;
      const { mouthRight, mouthLeft } = analysis.faces[0]!.landmarks;
      const width = (mouthLeft[0] - mouthRight[0]) * scale;
      const centre = [
        ((mouthLeft[0] + mouthRight[0]) / 2) * scale,
        ((mouthLeft[1] + mouthRight[1]) / 2) * scale,
      ];
      // The middle of the lips: dark when the mouth is open, lips and skin when it is shut.
      const even = (value: number) => 2 * Math.round(value / 2);
      const box = {
        x: even(centre[0]! - 0.25 * width),
        y: even(centre[1]! - 0.05 * width),
        width: even(0.5 * width),
        height: even(0.25 * width),
      };
      const brightness = await brightnessPerFrame(file, box);
      expect(brightness.length).toBe(loudness.length);
      const order = loudness.map((value, frame) => ({ value, frame })).sort((a, b) => a.value - b.value);
      const mean = (frames: { frame: number }[]) =>
        frames.reduce((sum, { frame }) => sum + brightness[frame]!, 0) / frames.length;
      const quietest = mean(order.slice(0, order.length / 4));
      const loudest = mean(order.slice((order.length * 3) / 4));
      // Open on the loud frames, shut on the silent ones.
      expect(quietest - loudest).toBeGreaterThan(12);
      expect(correlation(loudness, brightness)).toBeLessThan(-0.4);
    },
    60_000,
  );
});
