import { CAMERA_MOVE_WORDS, GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake, type FalFake } from '../../fakes/fal.fake.js';
import { createUploadFor } from '../../test/factories.js';
import { generationTestHelpers } from '../../test/generations.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/*
 * A video's camera move as fal receives it, checked at the fake: Kling 1.0's text-to-video gets its
 * camera control (and the words), Kling 2.1, which has no camera parameter, the move said in the
 * prompt. (Replicate's Kling 2.1 likewise: replicate.engine.test.ts.)
 */
let fal: FalFake;
let t: TestApp;
beforeAll(async () => {
  fal = await startFalFake({ queueSteps: 1, progressSteps: 1 });
  // Kling 1.0 for a description (it has camera control), the default Kling 2.1 for a photo.
  t = await createTestApp({
    env: {
      MODERATION_IMAGES: 'false',
      FREE_DAILY_PHOTOS: '1000',
      PRICE_VIDEO_PER_SECOND: '1',
      GENERATION_MAX_ATTEMPTS: '1',
      ENGINE_VIDEO: 'fal',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      FAL_JWKS_URL: fal.jwksUrl,
      FAL_USER_ID: fal.userId,
      FAL_MODEL_TEXT_TO_VIDEO: 'fal-ai/kling-video/v1/standard/text-to-video',
    },
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fal?.close();
});

const helpers = generationTestHelpers(() => t);

async function made(body: Record<string, unknown>, withPhoto = false) {
  const { user, headers } = await helpers.signedInUser();
  const images = withPhoto ? [(await createUploadFor(t, user.id)).uuid] : [];
  const { uuid } = await helpers.create(headers, { mode: 'video', duration: 3, images, ...body });
  await t.runJobs();
  const done = await helpers.shown(uuid, headers);
  expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
  return (await helpers.rowOf(uuid)).providerJobId!;
}

const falJob = (job: string) => fal.jobs.get(job.split(' ')[0]!)!;

describe('a camera move at fal', () => {
  it('Kling 1.0 text-to-video receives the move as its camera control, and in words', async () => {
    const panned = falJob(
      await made({ prompt: 'a mountain lake', aspect: '16:9', settings: { camera: 'pan_left' } }),
    );
    expect(panned.model).toBe('fal-ai/kling-video/v1/standard/text-to-video');
    expect(panned.input.advanced_camera_control).toEqual({ movement_type: 'horizontal', movement_value: -5 });
    expect(panned.input.prompt).toBe(`a mountain lake. ${CAMERA_MOVE_WORDS.pan_left}`);
  });

  it('Kling 2.1 image-to-video, with no camera parameter, is told the move in its prompt', async () => {
    const animated = falJob(await made({ settings: { camera: 'orbit' } }, true));
    expect(animated.model).toBe('fal-ai/kling-video/v2.1/standard/image-to-video');
    expect(animated.input.advanced_camera_control).toBeUndefined();
    expect(animated.input.prompt).toMatch(/^Gentle natural motion/);
    expect(animated.input.prompt).toContain(CAMERA_MOVE_WORDS.orbit);
  });
});
