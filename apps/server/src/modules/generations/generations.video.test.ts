import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditEntries } from '../../shared/db/schema.js';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { loadTestFaces, type TestFaces } from '@mirra/imaging/testing';
import { createSwitchableModerator } from '../../test/posts-factories.js';
import { VIDEO_MODERATION_FRAMES } from '../posts/posts.usecases.js';
import { createEngineRegistry, createLocalEngine } from '../../engines/index.js';
import { bundledFfmpegPath, createFaceAnalyzer, FACE_OVAL } from '@mirra/imaging';

const run = promisify(execFile);

// Video on the default local engine: a real MP4 from a real portrait, checked with ffmpeg itself.
const moderator = createSwitchableModerator();
let t: TestApp;
let faces: TestFaces;
let workDir: string;
beforeAll(async () => {
  faces = await loadTestFaces();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-video-test-'));
  t = await createTestApp({
    env: { FREE_DAILY_PHOTOS: '1000', PRICE_VIDEO_PER_SECOND: '2', GENERATION_MAX_ATTEMPTS: '1' },
    // Counts what the classifier is shown (publishing a video shows it frames).
    overrides: { imageModerator: moderator },
  });
});
afterAll(async () => {
  await t.close();
  await rm(workDir, { recursive: true, force: true });
});

async function signedInUser(app = t) {
  const user = await createActiveUser(app);
  await grantWelcomeCredits(app.deps.db, user.id, 40);
  const { access } = await login(app, user.email!, user.password);
  return { user, headers: bearer(access) };
}

async function createAndRun(app: TestApp, headers: Record<string, string>, body: object) {
  const created = await app.app.inject({ method: 'POST', url: '/api/generations/', headers, payload: body });
  expect(created.statusCode, created.body).toBe(201);
  await app.runJobs();
  const done = await app.app.inject({
    method: 'GET',
    url: `/api/generations/${created.json().uuid}/`,
    headers,
  });
  return done.json();
}

async function balance(app: TestApp, headers: Record<string, string>): Promise<number> {
  const credits = await app.app.inject({ method: 'GET', url: '/api/credits/', headers });
  return credits.json().balance;
}

async function refunds(app: TestApp, userId: number): Promise<number> {
  const rows = await app.deps.db
    .select()
    .from(creditEntries)
    .where(and(eq(creditEntries.userId, userId), eq(creditEntries.kind, 'generation_refund')));
  return rows.length;
}

/** What `ffmpeg -i` says of a file: its duration and the video stream's codec, size and frame rate. */
async function probe(file: string) {
  const output = await run(bundledFfmpegPath(), ['-hide_banner', '-i', file]).catch(
    (error: { stderr: string }) => error,
  );
  const text = output.stderr;
  const duration = /Duration: (\d+):(\d+):([\d.]+)/.exec(text);
  const video = /Stream #.*Video: (\w+).*?, (\w+)\(?.*?, (\d+)x(\d+).*?, ([\d.]+) fps/.exec(text);
  expect(duration, text).not.toBeNull();
  expect(video, text).not.toBeNull();
  return {
    seconds: Number(duration![1]) * 3600 + Number(duration![2]) * 60 + Number(duration![3]),
    codec: video![1],
    pixelFormat: video![2],
    width: Number(video![3]),
    height: Number(video![4]),
    fps: Number(video![5]),
  };
}

/** One decoded frame at `seconds`, as raw greyscale pixels. */
async function frameAt(file: string, seconds: number): Promise<Buffer> {
  const png = path.join(workDir, `frame-${path.basename(file)}-${seconds}.png`);
  await run(bundledFfmpegPath(), [
    '-y',
    '-v',
    'error',
    '-ss',
    String(seconds),
    '-i',
    file,
    '-frames:v',
    '1',
    png,
  ]);
  return sharp(await readFile(png))
    .greyscale()
    .raw()
    .toBuffer();
}

/** Mean absolute difference of two greyscale frames, over the pixels `where` picks (all by default). */
function meanDifference(a: Buffer, b: Buffer, where?: (index: number) => boolean): number {
  let sum = 0;
  let count = 0;
  for (let index = 0; index < a.length; index++) {
    if (where && !where(index)) continue;
    sum += Math.abs(a[index]! - b[index]!);
    count++;
  }
  return sum / Math.max(1, count);
}

type FrameBox = { x: number; y: number; width: number; height: number };

/** Whether greyscale pixel `index` of a frame `width` wide lies in the box. */
function insideBox(box: FrameBox, index: number, width: number): boolean {
  const x = index % width;
  const y = Math.floor(index / width);
  return x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height;
}

function grown(box: FrameBox, factor: number): FrameBox {
  const width = box.width * factor;
  const height = box.height * factor;
  return { x: box.x - (width - box.width) / 2, y: box.y - (height - box.height) / 2, width, height };
}

/** The face the analyser finds in the frame at `seconds` (frame pixels). */
async function faceBoxIn(file: string, seconds: number): Promise<FrameBox> {
  const png = path.join(workDir, `face-${seconds}.png`);
  await run(bundledFfmpegPath(), [
    '-y',
    '-v',
    'error',
    '-ss',
    String(seconds),
    '-i',
    file,
    '-frames:v',
    '1',
    png,
  ]);
  const analysis = await createFaceAnalyzer().analyze(await readFile(png));
  const face = analysis.faces[0];
  expect(face).toBeDefined();
  const scale = analysis.image.originalWidth / analysis.image.width;
  // The face outline of the mesh (the detector's box is padded well beyond the face).
  const outline = FACE_OVAL.map((index) => face!.mesh[index]!);
  const xs = outline.map((point) => point[0] * scale);
  const ys = outline.map((point) => point[1] * scale);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** How many frames the MP4's video stream holds, as ffmpeg counts them by reading it through. */
async function countFrames(file: string): Promise<number> {
  const { stderr } = await run(bundledFfmpegPath(), [
    '-hide_banner',
    '-i',
    file,
    '-map',
    '0:v:0',
    '-c',
    'copy',
    '-f',
    'null',
    '-',
  ]);
  const frames = [...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1);
  expect(frames, stderr).toBeDefined();
  return Number(frames![1]);
}

async function download(url: string, headers: Record<string, string> = {}) {
  return t.fetchMedia(url, headers);
}

describe('animating a photo on the local engine', () => {
  it(
    'turns a portrait into an H.264 MP4 that moves, with a WebP poster, charged per second',
    { timeout: 180_000 },
    async () => {
      const { user, headers } = await signedInUser();
      const upload = await createUploadFor(t, user.id, faces.graceHopper);
      const price = await t.app.inject({
        method: 'GET',
        url: '/api/generations/price/?mode=video&duration=3',
        headers,
      });
      expect(price.json().cost).toBe(6);

      const done = await createAndRun(t, headers, {
        mode: 'video',
        images: [upload.uuid],
        duration: 3,
        aspect: '9:16',
      });
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      expect(done).toMatchObject({ cost: 6, duration: 3, aspect: '9:16', progress: 100 });
      expect(await balance(t, headers)).toBe(34);
      expect(done.result).toMatchObject({
        content_type: 'video/mp4',
        width: 720,
        height: 1280,
        engine: 'local',
      });
      expect(done.result.download_url).toMatch(/\.mp4/);
      const codes = done.result.notes.map((note: { code: string }) => note.code);
      expect(codes).toEqual(['video.camera_move', 'video.face_centred', 'video.face_motion']);
      expect(done.result.notes[0].text).toMatch(/not a generative video model/);

      const response = await download(done.result.url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('video/mp4');
      const file = path.join(workDir, 'portrait.mp4');
      await writeFile(file, response.rawPayload);
      const info = await probe(file);
      expect(info).toMatchObject({ codec: 'h264', pixelFormat: 'yuv420p', width: 720, height: 1280 });
      expect(info.fps).toBeGreaterThanOrEqual(24);
      expect(info.fps).toBeLessThanOrEqual(30);
      expect(Math.abs(info.seconds - 3) / 3).toBeLessThan(0.05);
      expect(await countFrames(file)).toBe(72);
      // The camera moves: the first and last frames differ clearly.
      const first = await frameAt(file, 0);
      const last = await frameAt(file, 2.9);
      expect(meanDifference(first, last)).toBeGreaterThan(5);
      // The face moves by itself: over the first 0.3 s the eased camera has barely started (a pixel
      // or two at the edges) while the head is already turning, so the face changes much more than
      // the rest of the frame.
      const box = await faceBoxIn(file, 0);
      const calm = first;
      const during = await frameAt(file, 0.3);
      const around = grown(box, 1.8);
      const inside = meanDifference(calm, during, (index) => insideBox(box, index, 720));
      const outside = meanDifference(calm, during, (index) => !insideBox(around, index, 720));
      expect(inside).toBeGreaterThan(2 * outside);
      expect(inside).toBeGreaterThan(4);
      // Seeking works: a Range request gets part of the file.
      const part = await download(done.result.url, { range: 'bytes=0-99' });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.length).toBe(100);

      const poster = await sharp((await download(done.result.variants[0].url)).rawPayload).metadata();
      expect(poster.format).toBe('webp');

      // The grid's preview: a small looping animated WebP of the start, whose frames move.
      expect(done.result.preview).toMatchObject({ width: 180, height: 320 });
      const preview = await download(done.result.preview.url);
      expect(preview.headers['content-type']).toBe('image/webp');
      expect(preview.rawPayload.length).toBeLessThan(200_000);
      const animation = await sharp(preview.rawPayload, { animated: true }).metadata();
      expect(animation).toMatchObject({ format: 'webp', width: 180, pageHeight: 320, loop: 0 });
      expect(animation.pages).toBe(15);
      const page = (index: number) => sharp(preview.rawPayload, { page: index }).greyscale().raw().toBuffer();
      expect(meanDifference(await page(0), await page(14))).toBeGreaterThan(3);

      // Published: the classifier sees frames spread over the video, and the post is a video.
      const before = moderator.calls;
      const published = await t.app.inject({
        method: 'POST',
        url: '/api/posts/',
        headers,
        payload: { generation_uuid: done.uuid },
      });
      expect(published.statusCode, published.body).toBe(201);
      expect(moderator.calls - before).toBe(VIDEO_MODERATION_FRAMES);
      expect(published.json().image).toMatchObject({ content_type: 'video/mp4', width: 720, height: 1280 });
      expect(published.json().recipe).toMatchObject({ mode: 'video', duration: 3 });
    },
  );

  it(
    'a photo without a face gets the move towards the upper third, said in the notes',
    { timeout: 180_000 },
    async () => {
      const { user, headers } = await signedInUser();
      const upload = await createUploadFor(t, user.id, faces.coffee);
      const done = await createAndRun(t, headers, {
        mode: 'video',
        images: [upload.uuid],
        duration: 3,
        aspect: '16:9',
      });
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      expect(done.result).toMatchObject({ width: 1280, height: 720 });
      expect(done.result.notes.map((note: { code: string }) => note.code)).toContain('video.no_face');
      // A flagged frame keeps it from being published.
      moderator.flagged = true;
      try {
        const refused = await t.app.inject({
          method: 'POST',
          url: '/api/posts/',
          headers,
          payload: { generation_uuid: done.uuid },
        });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().code).toBe('posts.result_moderated');
      } finally {
        moderator.flagged = false;
      }
    },
  );

  it(
    'a person whose face cannot be found gets the parallax move, said in the notes',
    { timeout: 180_000 },
    async () => {
      const { user, headers } = await signedInUser();
      // The astronaut with her face hidden behind a patch: a person, but no face to find.
      const hidden = await sharp(faces.astronaut)
        .composite([
          {
            input: { create: { width: 110, height: 140, channels: 3, background: '#8a7060' } },
            left: 190,
            top: 40,
          },
        ])
        .png()
        .toBuffer();
      const upload = await createUploadFor(t, user.id, hidden);
      const done = await createAndRun(t, headers, {
        mode: 'video',
        images: [upload.uuid],
        duration: 3,
        aspect: '9:16',
      });
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      const codes = done.result.notes.map((note: { code: string }) => note.code);
      expect(codes).toEqual(['video.camera_move', 'video.parallax']);
      const file = path.join(workDir, 'parallax.mp4');
      await writeFile(file, (await download(done.result.url)).rawPayload);
      const info = await probe(file);
      expect(info).toMatchObject({ codec: 'h264', width: 720, height: 1280 });
      expect(await countFrames(file)).toBe(72);
      expect(meanDifference(await frameAt(file, 0), await frameAt(file, 2.9))).toBeGreaterThan(5);
    },
  );

  it(
    "a description without a photo becomes an animated scene, labelled as the local engine's",
    { timeout: 180_000 },
    async () => {
      const { headers } = await signedInUser();
      const done = await createAndRun(t, headers, {
        mode: 'video',
        prompt: 'sunset over the sea with clouds',
        duration: 3,
        aspect: '16:9',
        // A fixed seed: how far the clouds and waves move in a second depends on it.
        seed: 7,
      });
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      expect(done).toMatchObject({ cost: 6, duration: 3, progress: 100 });
      expect(done.result).toMatchObject({
        content_type: 'video/mp4',
        width: 1280,
        height: 720,
        engine: 'local',
      });
      const codes = done.result.notes.map((note: { code: string }) => note.code);
      expect(codes.slice(0, 3)).toEqual(['video.scene_animated', 'scene.procedural', 'scene.keywords']);
      expect(codes).toEqual(
        expect.arrayContaining(['video.scene_clouds', 'video.scene_water', 'video.scene_light']),
      );
      expect(done.result.notes[0].text).toMatch(/not a generative video model/);
      const file = path.join(workDir, 'scene.mp4');
      await writeFile(file, (await download(done.result.url)).rawPayload);
      const info = await probe(file);
      expect(info).toMatchObject({ codec: 'h264', pixelFormat: 'yuv420p', width: 1280, height: 720 });
      expect(Math.abs(info.seconds - 3) / 3).toBeLessThan(0.05);
      expect(await countFrames(file)).toBe(72);
      // It moves: clouds, light and water change between two frames a second apart.
      const a = await frameAt(file, 1);
      const b = await frameAt(file, 2);
      expect(meanDifference(a, b)).toBeGreaterThan(1);
      const poster = await sharp((await download(done.result.variants[0].url)).rawPayload).metadata();
      expect(poster.format).toBe('webp');
    },
  );

  it('with neither a photo nor a description it is refused before anything is charged', async () => {
    const { headers } = await signedInUser();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers,
      payload: { mode: 'video', duration: 3 },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().code).toBe('generations.image_required');
    expect(created.json().images).toBeDefined();
    expect(await balance(t, headers)).toBe(40);
  });

  it('refuses durations that are not offered', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id, faces.graceHopper);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers,
      payload: { mode: 'video', images: [upload.uuid], duration: 4 },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().duration).toBeDefined();
  });

  it('a photo too small to fill 720p ends as ERROR with the reason, refunded once', async () => {
    const { user, headers } = await signedInUser();
    const tiny = await sharp({ create: { width: 200, height: 150, channels: 3, background: '#8a6' } })
      .jpeg()
      .toBuffer();
    const upload = await createUploadFor(t, user.id, tiny);
    const done = await createAndRun(t, headers, { mode: 'video', images: [upload.uuid], duration: 5 });
    expect(done).toMatchObject({
      status: GenerationStatus.ERROR,
      refunded: true,
      error_code: 'generations.bad_input',
      error_reason: 'photo_too_small',
    });
    expect(await balance(t, headers)).toBe(40);
    expect(await refunds(t, user.id)).toBe(1);
  });
});

describe('when the encoder breaks', () => {
  let stalling: string;
  beforeAll(async () => {
    // An "encoder" that never reads its frames and never ends: only its time limit stops it.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-stalling-ffmpeg-'));
    stalling = path.join(dir, 'ffmpeg');
    await writeFile(stalling, '#!/bin/sh\nexec sleep 60\n', { mode: 0o755 });
    return () => rm(dir, { recursive: true, force: true });
  });

  for (const [what, encoder] of [
    ['crashes', () => ({ ffmpegPath: '/bin/false' })],
    ['is missing', () => ({ ffmpegPath: '/nonexistent/ffmpeg' })],
    ['runs past its time limit', () => ({ ffmpegPath: stalling, encodeTimeoutMs: 1500 })],
  ] as const) {
    it(`ends as FAILED, refunded once, when it ${what}`, { timeout: 60_000 }, async () => {
      const broken = await createTestApp({
        env: { FREE_DAILY_PHOTOS: '1000', PRICE_VIDEO_PER_SECOND: '2', GENERATION_MAX_ATTEMPTS: '1' },
      });
      try {
        broken.deps.engines = createEngineRegistry(broken.deps.config, [
          createLocalEngine({ video: encoder() }),
        ]);
        const { user, headers } = await signedInUser(broken);
        const upload = await createUploadFor(broken, user.id, faces.coffee);
        const done = await createAndRun(broken, headers, {
          mode: 'video',
          images: [upload.uuid],
          duration: 3,
        });
        expect(done).toMatchObject({
          status: GenerationStatus.FAILED,
          refunded: true,
          error_code: 'generations.engine_failed',
          result: null,
        });
        expect(await balance(broken, headers)).toBe(40);
        // Running the jobs again changes nothing: the refund happened once.
        await broken.runJobs();
        expect(await refunds(broken, user.id)).toBe(1);
      } finally {
        await broken.close();
      }
    });
  }
});
