import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { GenerationStatus } from '@mirra/contracts';
import { bundledFfmpegPath } from '@mirra/imaging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const run = promisify(execFile);

// Named camera moves through the API on the default local engine: stored with the generation,
// made as asked, and refused when unknown.
let t: TestApp;
let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-camera-test-'));
  t = await createTestApp({ env: { FREE_DAILY_PHOTOS: '1000', GENERATION_MAX_ATTEMPTS: '1' } });
});
afterAll(async () => {
  await t.close();
  await rm(workDir, { recursive: true, force: true });
});

async function signedIn() {
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 100);
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: bearer(access) };
}

async function createAndRun(headers: Record<string, string>, body: object) {
  const created = await t.app.inject({ method: 'POST', url: '/api/generations/', headers, payload: body });
  expect(created.statusCode, created.body).toBe(201);
  await t.runJobs();
  const done = await t.app.inject({
    method: 'GET',
    url: `/api/generations/${created.json().uuid}/`,
    headers,
  });
  return done.json();
}

/** The video's frame at `seconds` as 64×64 grey levels (ffmpeg decodes, sharp shrinks). */
async function greyFrameAt(url: string, name: string, seconds: number): Promise<Buffer> {
  const file = path.join(workDir, `${name}.mp4`);
  await writeFile(file, (await t.fetchMedia(url, {})).rawPayload);
  const png = path.join(workDir, `${name}-${seconds}.png`);
  await run(bundledFfmpegPath(), [
    '-loglevel',
    'error',
    '-y',
    '-ss',
    String(seconds),
    '-i',
    file,
    '-frames:v',
    '1',
    png,
  ]);
  return sharp(png).resize(64, 64, { fit: 'fill' }).greyscale().raw().toBuffer();
}

function meanAbsDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** How far (in 64ths of the frame) the picture slid sideways from a to b, by the best match. */
function sideways(a: Buffer, b: Buffer): number {
  let best = { dx: 0, error: Infinity };
  for (let dx = -16; dx <= 16; dx++) {
    let error = 0;
    let used = 0;
    for (let y = 4; y < 60; y++) {
      for (let x = 20; x < 44; x++) {
        error += Math.abs(b[y * 64 + x]! - a[y * 64 + x - dx]!);
        used++;
      }
    }
    if (error / used < best.error) best = { dx, error: error / used };
  }
  return best.dx;
}

/** A square photo with detail everywhere, so a sideways move shows. */
async function stripes(): Promise<Buffer> {
  const side = 400;
  const data = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const v = 128 + 90 * Math.sin(x / 9) * Math.cos(y / 23) + 30 * Math.sin((x + y) / 31);
      data.fill(Math.round(v), (y * side + x) * 3, (y * side + x) * 3 + 3);
    }
  }
  return sharp(data, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

describe('camera moves of a video', () => {
  it('an unknown move is refused before anything is charged', async () => {
    const { headers } = await signedIn();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers,
      payload: { mode: 'video', prompt: 'a forest', duration: 3, settings: { camera: 'barrel_roll' } },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'common.validation',
      settings: ['Choose a camera move.'],
    });
    const credits = await t.app.inject({ method: 'GET', url: '/api/credits/', headers });
    expect(credits.json().balance).toBe(100);
  });

  it(
    'a photo panned right slides left in its frames; the move is kept with the generation',
    { timeout: 120_000 },
    async () => {
      const { user, headers } = await signedIn();
      const upload = await createUploadFor(t, user.id, await stripes());
      const done = await createAndRun(headers, {
        mode: 'video',
        images: [upload.uuid],
        duration: 3,
        aspect: '1:1',
        settings: { camera: 'pan_right' },
      });
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      expect(done.settings).toEqual({ camera: 'pan_right' });
      expect(done.result.notes).toContainEqual(
        expect.objectContaining({ code: 'video.camera_preset', params: { camera: 'pan_right' } }),
      );
      const first = await greyFrameAt(done.result.url, 'pan', 0);
      const last = await greyFrameAt(done.result.url, 'pan', 2.9);
      expect(sideways(first, last)).toBeLessThanOrEqual(-3);
    },
  );

  it(
    '"waves rolling onto a beach at sunset" moves visibly: frames 1.6 s apart differ by grey levels',
    { timeout: 120_000 },
    async () => {
      const { headers } = await signedIn();
      const done = await createAndRun(headers, {
        mode: 'video',
        prompt: 'waves rolling onto a beach at sunset',
        duration: 3,
        aspect: '1:1',
        seed: 7,
      });
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      const a = await greyFrameAt(done.result.url, 'waves', 0.6);
      const b = await greyFrameAt(done.result.url, 'waves', 2.2);
      // Mean absolute difference at 64×64, without any camera move: the waves themselves roll.
      expect(meanAbsDifference(a, b)).toBeGreaterThan(2);
    },
  );
});
