import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake, type FalFake, REFUSED_WORD } from '../../fakes/fal.fake.js';
import { grantWelcomeCredits } from '../../modules/credits/credits.usecases.js';
import { modelsRepository } from '../../modules/models/models.repository.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { astronautPhotos, createTrainedModel, passLiveCheck, uploadModelPhotos } from '../../test/models.js';
import { runModelTraining } from '../../modules/models/model-training-run.usecases.js';
import { createSwitchableModerator } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { loadTestFaces } from '@mirra/imaging/testing';
import { unzipStored } from '../zip.js';
import { PROVIDER_VIDEO_CHECKED_FRAMES } from '../provider-video.js';
import { FAL_WEBHOOK_PATH } from './fal-webhook.routes.js';
import { and, eq } from 'drizzle-orm';
import { creditEntries, notifications } from '../../shared/db/schema.js';

/**
 * fal for the modes beyond text to image and editing, against the fake fal: LoRA training of a
 * digital model, face photos with that LoRA, face swap, and Kling video (from a photo and from a
 * description), each through the whole generation into Mirra's storage.
 */
let fal: FalFake;
let t: TestApp;
const moderator = createSwitchableModerator();
let owner: { id: number; headers: Record<string, string> };
let modelUuid: string;

beforeAll(async () => {
  fal = await startFalFake({ queueSteps: 1, progressSteps: 1 });
  t = await createTestApp({
    env: {
      ENGINE_FACE_SWAP: 'fal,local',
      ENGINE_VIDEO: 'fal,local',
      ENGINE_TRAINING: 'fal,local',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      FAL_JWKS_URL: fal.jwksUrl,
      FAL_USER_ID: fal.userId,
      FREE_DAILY_PHOTOS: '1000',
      PRICE_MODEL_TRAINING: '20',
      PRICE_FACE_SWAP: '2',
      PRICE_VIDEO_PER_SECOND: '1',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
    },
    overrides: { imageModerator: moderator },
  });
  owner = await signedInUser();
  modelUuid = await createTrainedModel(t, owner.headers);
}, 240_000);
afterAll(async () => {
  await t?.close();
  await fal?.close();
});

async function signedInUser() {
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 100);
  const { access } = await login(t, user.email!, user.password);
  return { id: user.id, headers: bearer(access) };
}

async function createAndRun(headers: Record<string, string>, body: object) {
  const created = await t.app.inject({ method: 'POST', url: '/api/generations/', headers, payload: body });
  expect(created.statusCode, created.body).toBe(201);
  await t.runJobs();
  const uuid = created.json().uuid as string;
  const shown = await t.app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers });
  const row = (await t.deps.db.query.generations.findFirst({ where: (g, { eq }) => eq(g.uuid, uuid) }))!;
  return {
    shown: shown.json(),
    row,
    job: row.providerJobId ? fal.jobs.get(row.providerJobId.split(' ')[0]!) : null,
  };
}

describe('a digital model trained at fal', () => {
  it('sends the aligned crops as a ZIP in fal storage that expires, and keeps the LoRA beside the local profile', async () => {
    const model = await modelsRepository.findOwnedWithProfile(t.deps.db, owner.id, modelUuid);
    expect(model!.profile).not.toBeNull();
    expect(model!.engine).toBe('fal');
    expect(model!.trainingProvider).toBe('fal');
    const job = fal.jobs.get(model!.trainingJobId!.split(' ')[0]!)!;
    expect(job.model).toBe('fal-ai/flux-lora-fast-training');
    expect(job.input.trigger_word).toMatch(/^mirra[0-9a-f]{8}$/);
    const zip = await (await fetch(String(job.input.images_data_url))).arrayBuffer();
    const photos = unzipStored(Buffer.from(zip));
    expect(photos).toHaveLength(15);
    expect(photos[0]!.data.subarray(1, 4).toString()).toBe('PNG');
    expect(fal.storageLifecycles.at(-1)).toContain('expiration_duration_seconds');
    const loras = model!.providerLoras as { fal: { url: string; triggerWord: string } };
    expect(loras.fal.url).toBe(
      (job.output as { diffusers_lora_file: { url: string } }).diffusers_lora_file.url,
    );
    expect(loras.fal.triggerWord).toBe(job.input.trigger_word);
    // The training's cost is recorded for the operator's margin (the default price table: $2).
    expect((loras.fal as { costUsd?: number }).costUsd).toBe(2);
  });

  it(
    'is resumed by its stored id when the worker stopped after the submit, never submitted twice',
    { timeout: 120_000 },
    async () => {
      const user = await signedInUser();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/models/',
        headers: user.headers,
        payload: { name: 'Resumed', category: 'male' },
      });
      const uuid = created.json().uuid as string;
      const photos = (await astronautPhotos()).map((data) => ({ data }));
      expect((await uploadModelPhotos(t, user.headers, uuid, photos)).statusCode).toBe(201);
      await passLiveCheck(t, uuid);
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/models/${uuid}/train/`, headers: user.headers }))
          .statusCode,
      ).toBe(202);
      const row = (await t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.uuid, uuid) }))!;
      const before = fal.submissions;

      fal.failNextStatuses({ status: 503 });
      await expect(
        runModelTraining(t.deps, row.id, row.trainingAttempt, { attempt: 1, maxAttempts: 3 }),
      ).rejects.toThrow();
      const stopped = (await t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.id, row.id) }))!;
      expect(stopped.status).toBe(GenerationStatus.IN_QUEUE);
      expect(stopped.trainingJobId).toMatch(/ fal-ai\/flux-lora-fast-training$/);
      expect(fal.submissions).toBe(before + 1);

      await runModelTraining(t.deps, row.id, row.trainingAttempt, { attempt: 2, maxAttempts: 3 });
      const finished = (await t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.id, row.id) }))!;
      expect(finished.status).toBe(GenerationStatus.COMPLETED);
      expect(finished.trainingJobId).toBe(stopped.trainingJobId);
      expect(fal.submissions).toBe(before + 1);
      expect((finished.providerLoras as { fal?: unknown }).fal).toBeDefined();
    },
  );
});

describe('fal’s webhook for a training', () => {
  /** A model whose job submitted the training to fal and then died (a 503 on the status read). */
  async function submittedThenStopped(name: string) {
    const user = await signedInUser();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/models/',
      headers: user.headers,
      payload: { name, category: 'male' },
    });
    const uuid = created.json().uuid as string;
    const photos = (await astronautPhotos()).map((data) => ({ data }));
    expect((await uploadModelPhotos(t, user.headers, uuid, photos)).statusCode).toBe(201);
    await passLiveCheck(t, uuid);
    const train = await t.app.inject({
      method: 'POST',
      url: `/api/models/${uuid}/train/`,
      headers: user.headers,
    });
    expect(train.statusCode).toBe(202);
    const row = (await t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.uuid, uuid) }))!;
    fal.failNextStatuses({ status: 503 });
    await expect(
      runModelTraining(t.deps, row.id, row.trainingAttempt, { attempt: 1, maxAttempts: 3 }),
    ).rejects.toThrow();
    const stopped = (await t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.id, row.id) }))!;
    expect(stopped.status).toBe(GenerationStatus.IN_QUEUE);
    return { user, stopped, requestId: stopped.trainingJobId!.split(' ')[0]! };
  }
  const deliver = (webhook: { headers: Record<string, string>; body: string }) =>
    t.app.inject({ method: 'POST', url: FAL_WEBHOOK_PATH, headers: webhook.headers, payload: webhook.body });
  const countOf = async (userId: number) => ({
    ready: (
      await t.deps.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'model_ready')))
    ).length,
    credits: (await t.deps.db.select().from(creditEntries).where(eq(creditEntries.userId, userId)))
      .filter((entry) => entry.kind.startsWith('model_training'))
      .map((entry) => entry.kind),
  });

  it(
    'completes the model with fal’s LoRA once; a duplicate delivery and the worker’s retry change nothing',
    { timeout: 120_000 },
    async () => {
      const { user, stopped, requestId } = await submittedThenStopped('Webhook');
      const submissions = fal.submissions;
      const webhook = await fal.finish(requestId);
      const first = await deliver(webhook);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().detail).toBe('finished');
      const done = (await t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.id, stopped.id) }))!;
      expect(done.status).toBe(GenerationStatus.COMPLETED);
      expect(done.engine).toBe('fal');
      const job = fal.jobs.get(requestId)!;
      expect(done.providerLoras!.fal).toEqual({
        url: (job.output as { diffusers_lora_file: { url: string } }).diffusers_lora_file.url,
        triggerWord: job.input.trigger_word,
        costUsd: 2,
      });
      expect((await deliver(webhook)).json().detail).toBe('already finished');
      await runModelTraining(t.deps, stopped.id, stopped.trainingAttempt, { attempt: 2, maxAttempts: 3 });
      expect(fal.submissions).toBe(submissions);
      expect(await countOf(user.id)).toEqual({ ready: 1, credits: ['model_training_charge'] });
    },
  );

  it('racing the worker’s retry, the model is completed once', { timeout: 120_000 }, async () => {
    const { user, stopped, requestId } = await submittedThenStopped('Race');
    const webhook = await fal.finish(requestId);
    const [, delivered] = await Promise.all([
      runModelTraining(t.deps, stopped.id, stopped.trainingAttempt, { attempt: 2, maxAttempts: 3 }),
      deliver(webhook),
    ]);
    expect(delivered.statusCode, delivered.body).toBe(200);
    const done = (await t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.id, stopped.id) }))!;
    expect(done.status).toBe(GenerationStatus.COMPLETED);
    expect(await countOf(user.id)).toEqual({ ready: 1, credits: ['model_training_charge'] });
  });
});

describe('face photos and face swap at fal', () => {
  it('a face photo from a description is FLUX LoRA with the model’s LoRA and trigger word', async () => {
    const model = await modelsRepository.findOwnedWithProfile(t.deps.db, owner.id, modelUuid);
    const lora = (model!.providerLoras as { fal: { url: string; triggerWord: string } }).fal;
    const { shown, job } = await createAndRun(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      prompt: 'on a mountain top at sunrise',
    });
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(shown.result.engine).toBe('fal');
    expect(job!.model).toBe('fal-ai/flux-lora');
    expect(job!.input).toMatchObject({
      prompt: `${lora.triggerWord} on a mountain top at sunrise`,
      loras: [{ path: lora.url, scale: 1 }],
    });
  });

  it('face swap sends the target and the model’s best photo inline, never as links', async () => {
    const faces = await loadTestFaces();
    const target = await createUploadFor(t, owner.id, faces.graceHopper);
    const { shown, job, row } = await createAndRun(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      images: [target.uuid],
    });
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(job!.model).toBe('fal-ai/face-swap');
    expect(String(job!.input.base_image_url)).toMatch(/^data:image\/\w+;base64,/);
    expect(String(job!.input.swap_image_url)).toMatch(/^data:image\/\w+;base64,/);
    expect(row.providerCostUsd).toBeCloseTo(0.05, 6);
  });

  it(
    'a model fal never trained (fal was down for its training) makes its face photos locally',
    { timeout: 120_000 },
    async () => {
      const user = await signedInUser();
      fal.failNextSubmits({ status: 503 });
      const localOnly = await createTrainedModel(t, user.headers, 'Local only');
      const model = await modelsRepository.findOwnedWithProfile(t.deps.db, user.id, localOnly);
      expect(model!.providerLoras).toBeNull();
      expect(model!.engine).toBe('local');
      const { shown } = await createAndRun(user.headers, {
        mode: 'face_swap',
        model_uuid: localOnly,
        prompt: 'in a park',
      });
      expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
      expect(shown.result.engine).toBe('local');
    },
  );
});

describe('video with Kling at fal', () => {
  it('animates a photo: an MP4 in Mirra’s storage with a poster, its frames checked, priced per second', async () => {
    const faces = await loadTestFaces();
    const photo = await createUploadFor(t, owner.id, faces.astronaut);
    const checksBefore = moderator.calls;
    const { shown, job, row } = await createAndRun(owner.headers, {
      mode: 'video',
      images: [photo.uuid],
      prompt: '',
      duration: 5,
    });
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(shown.result.engine).toBe('fal');
    expect(shown.result.content_type).toBe('video/mp4');
    expect(shown.result.variants.length).toBeGreaterThan(0);
    expect(job!.model).toBe('fal-ai/kling-video/v2.1/standard/image-to-video');
    expect(job!.input.duration).toBe('5');
    expect(moderator.calls - checksBefore).toBe(1 + PROVIDER_VIDEO_CHECKED_FRAMES);
    expect(row.providerCostUsd).toBeCloseTo(0.28, 4);
    const mp4 = await t.fetchMedia(shown.result.url);
    expect(mp4.statusCode).toBe(200);
    expect(mp4.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
  });

  it('makes a video from a description alone (text to video) in the asked frame shape', async () => {
    const { shown, job } = await createAndRun(owner.headers, {
      mode: 'video',
      prompt: 'waves rolling onto a beach',
      duration: 5,
      aspect: '9:16',
    });
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(job!.model).toBe('fal-ai/kling-video/v2.1/standard/text-to-video');
    expect(job!.input).toMatchObject({ aspect_ratio: '9:16', prompt: 'waves rolling onto a beach' });
  });

  it('a frame the result check refuses ends the video as moderated and refunded', async () => {
    const faces = await loadTestFaces();
    const photo = await createUploadFor(t, owner.id, faces.astronaut);
    moderator.flagged = true;
    try {
      const { row } = await createAndRun(owner.headers, { mode: 'video', images: [photo.uuid], duration: 5 });
      expect(row).toMatchObject({ errorCode: 'generations.result_moderated', refunded: true });
    } finally {
      moderator.flagged = false;
    }
  });

  it('Kling’s content checker refusing the prompt ends it as moderated', async () => {
    const { row } = await createAndRun(owner.headers, {
      mode: 'video',
      prompt: `a ${REFUSED_WORD} clip`,
      duration: 5,
    });
    expect(row).toMatchObject({ errorCode: 'generations.result_moderated', refunded: true });
  });
});
