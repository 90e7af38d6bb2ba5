import sharp from 'sharp';
import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const noteTexts = (notes: Array<{ text: string }>) => notes.map((note) => note.text);

// The default configuration, as `npm start` runs it: every image mode on the offline local engine,
// results checked by the bundled NSFW classifier.
let t: TestApp;
beforeAll(async () => {
  // Prices pinned so the 20 credits each person gets cover every mode.
  t = await createTestApp({
    env: {
      FREE_DAILY_PHOTOS: '1000',
      PRICE_SIMPLE: '1',
      PRICE_EDITING: '1',
      PRICE_STYLING: '1',
      PRICE_FACE_SWAP: '2',
      PRICE_VIDEO_PER_SECOND: '2',
    },
  });
});
afterAll(() => t.close());

async function signedInUser() {
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 20);
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

async function download(url: string): Promise<Buffer> {
  const response = await t.fetchMedia(url);
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

describe('generations on the default local engine', () => {
  it('turns a prompt into a labelled picture with WebP variants', { timeout: 60_000 }, async () => {
    const { headers } = await signedInUser();
    const done = await createAndRun(headers, {
      mode: 'simple',
      prompt: 'a red lighthouse by the sea',
      seed: 7,
    });
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.engine).toBe('local');
    expect(done.result.variants.length).toBeGreaterThan(0);
    const original = await sharp(await download(done.result.download_url)).metadata();
    expect([original.width, original.height]).toEqual([done.result.width, done.result.height]);
    const variant = await sharp(await download(done.result.variants[0].url)).metadata();
    expect(variant.format).toBe('webp');
  });

  it('edits and styles an uploaded photo, saying what it did', { timeout: 60_000 }, async () => {
    const { user, headers } = await signedInUser();
    const photo = await sharp({
      create: { width: 480, height: 320, channels: 3, background: { r: 90, g: 140, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const upload = await createUploadFor(t, user.id, photo);

    const edited = await createAndRun(headers, {
      mode: 'editing',
      prompt: 'rotate 90 degrees and make it black and white',
      images: [upload.uuid],
    });
    expect(edited.status, edited.error_detail).toBe(GenerationStatus.COMPLETED);
    expect([edited.result.width, edited.result.height]).toEqual([320, 480]);
    expect(noteTexts(edited.result.notes).join(' ')).toMatch(/rotat/i);

    const styled = await createAndRun(headers, { mode: 'styling', style: 'pencil', images: [upload.uuid] });
    expect(styled.status, styled.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(noteTexts(styled.result.notes).join(' ')).toMatch(/pencil/i);
  });

  it('an instruction the engine cannot understand ends as ERROR with the reason, refunded', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const done = await createAndRun(headers, {
      mode: 'editing',
      prompt: 'qwzx blorp',
      images: [upload.uuid],
    });
    expect(done).toMatchObject({
      status: GenerationStatus.ERROR,
      refunded: true,
      error_code: 'generations.bad_input',
      // The app words it in the user's language; the detail is the engine's English account.
      error_reason: 'edit_not_understood',
    });
    expect(done.error_detail).toMatch(/didn't understand/);
    const credits = await t.app.inject({ method: 'GET', url: '/api/credits/', headers });
    expect(credits.json().balance).toBe(20);
  });
});
