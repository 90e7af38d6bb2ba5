import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledFfmpegPath } from './ffmpeg.js';
import type { PersonSegmenter } from './person-segmentation.js';
import { animatePhoto } from './video.pipeline.js';

const run = promisify(execFile);

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-parallax-test-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

// A 720×1280 photo: a grey wall with a black marker (background), and a white panel (the subject).
const WIDTH = 720;
const HEIGHT = 1280;
const SUBJECT = { left: 250, top: 500, width: 220, height: 500 };
const MARKER = { left: 90, top: 150, width: 80, height: 80 };

async function photo(): Promise<Buffer> {
  const box = (rect: typeof SUBJECT, colour: string) => ({
    input: { create: { width: rect.width, height: rect.height, channels: 3 as const, background: colour } },
    left: rect.left,
    top: rect.top,
  });
  return sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#8c8c8c' } })
    .composite([box(MARKER, '#000000'), box(SUBJECT, '#ffffff')])
    .png()
    .toBuffer();
}

/** Segments exactly the white panel, as the selfie model segments a person. */
const panelSegmenter: PersonSegmenter = {
  async segment() {
    const side = 256;
    const data = new Uint8Array(side * side);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const px = ((x + 0.5) / side) * WIDTH;
        const py = ((y + 0.5) / side) * HEIGHT;
        const inside =
          px >= SUBJECT.left &&
          px < SUBJECT.left + SUBJECT.width &&
          py >= SUBJECT.top &&
          py < SUBJECT.top + SUBJECT.height;
        data[y * side + x] = inside ? 255 : 0;
      }
    }
    return { data, width: side, height: side };
  },
};

/** The bounding box of the pixels `pick` chooses in a greyscale frame. */
function boxOf(frame: Buffer, width: number, pick: (value: number) => boolean) {
  let left = Infinity;
  let right = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  for (let index = 0; index < frame.length; index++) {
    if (!pick(frame[index]!)) continue;
    const x = index % width;
    const y = Math.floor(index / width);
    left = Math.min(left, x);
    right = Math.max(right, x + 1);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y + 1);
  }
  return { left, top, width: right - left, height: bottom - top };
}

async function greyFrame(file: string, seconds: number): Promise<Buffer> {
  const { stdout } = await run(
    bundledFfmpegPath(),
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      file,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

describe('the parallax move', () => {
  it(
    'moves and magnifies the segmented subject more than the background behind it',
    { timeout: 120_000 },
    async () => {
      const animated = await animatePhoto({
        photo: await photo(),
        aspect: '9:16',
        durationSeconds: 3,
        faceAnalyzer: null,
        personSegmenter: panelSegmenter,
        ffmpegPath: bundledFfmpegPath(),
        description: 'test',
        timeoutMs: 120_000,
        signal: new AbortController().signal,
        onProgress: () => {},
        check: () => {},
      });
      expect(animated.motion).toBe('parallax');
      const file = path.join(workDir, 'parallax.mp4');
      await writeFile(file, animated.mp4);
      const first = await greyFrame(file, 0);
      const last = await greyFrame(file, 2.95);
      const width = animated.plan.frame.width;
      const white = (value: number) => value > 235;
      const black = (value: number) => value < 25;
      const subjectBefore = boxOf(first, width, white);
      const subjectAfter = boxOf(last, width, white);
      const markerBefore = boxOf(first, width, black);
      const markerAfter = boxOf(last, width, black);
      const subjectGrowth = subjectAfter.width / subjectBefore.width;
      const markerGrowth = markerAfter.width / markerBefore.width;
      // Foreground zoom 1.2 against the background's 1.1 (from 1.05): ≈ +14 % against ≈ +5 %.
      expect(subjectGrowth).toBeGreaterThan(1.1);
      expect(markerGrowth).toBeLessThan(1.08);
      expect(subjectGrowth - markerGrowth).toBeGreaterThan(0.05);
      // Where the panel used to be, the wall shows again (filled from around it): the white pixels
      // are one solid panel, with no white ghost of it left behind on the background.
      const whitePixels = last.reduce((count, value) => count + (white(value) ? 1 : 0), 0);
      expect(whitePixels / (subjectAfter.width * subjectAfter.height)).toBeGreaterThan(0.93);
    },
  );

  it('without a subject it is the camera move', { timeout: 120_000 }, async () => {
    const animated = await animatePhoto({
      photo: await sharp({ create: { width: 720, height: 1280, channels: 3, background: '#6a8' } })
        .png()
        .toBuffer(),
      aspect: '9:16',
      durationSeconds: 3,
      faceAnalyzer: null,
      personSegmenter: {
        segment: async () => ({ data: new Uint8Array(256 * 256), width: 256, height: 256 }),
      },
      ffmpegPath: bundledFfmpegPath(),
      description: 'test',
      timeoutMs: 120_000,
      signal: new AbortController().signal,
      onProgress: () => {},
      check: () => {},
    });
    expect(animated.motion).toBe('camera');
  });
});
