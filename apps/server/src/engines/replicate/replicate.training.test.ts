import { GenerationStatus } from '@mirra/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPLICATE_FAKE_TRAINER,
  REPLICATE_FAKE_TRAINER_VERSION,
  startReplicateFake,
  type ReplicateFake,
  type ReplicateSignedWebhook,
} from '../../fakes/replicate.fake.js';
import { grantWelcomeCredits } from '../../modules/credits/credits.usecases.js';
import { runGeneration } from '../../modules/generations/generation-run.usecases.js';
import { findUsableModel, loadModelPhoto } from '../../modules/models/index.js';
import { runModelTraining } from '../../modules/models/model-training-run.usecases.js';
import { creditEntries, models, notifications } from '../../shared/db/schema.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { loadTestFaces } from '@mirra/imaging/testing';
import { astronautPhotos, createTrainedModel, passLiveCheck, uploadModelPhotos } from '../../test/models.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { unzipStored } from '../zip.js';
import { REPLICATE_WEBHOOK_PATH } from './replicate-webhook.routes.js';

/**
 * Digital models trained at Replicate (trainings API, FLUX LoRA trainer) against the fake
 * Replicate API: the destination model made, the aligned crops sent as a ZIP in Replicate's file
 * store, the training finished by polling or by its signed webhook (once, whichever comes first),
 * an honest failure refunded once, and face photos made with the trained version.
 */
let replicate: ReplicateFake;
let t: TestApp;
const OWNER = 'mirra-test';

beforeAll(async () => {
  replicate = await startReplicateFake({ processingSteps: 1 });
  t = await createTestApp({
    env: {
      MODERATION_IMAGES: 'false',
      ENGINE_TRAINING: 'replicate,local',
      ENGINE_FACE_SWAP: 'replicate,local',
      REPLICATE_API_TOKEN: replicate.token,
      REPLICATE_BASE_URL: replicate.url,
      REPLICATE_WEBHOOK_SECRET: replicate.secret,
      REPLICATE_TRAINING_OWNER: OWNER,
      FREE_DAILY_PHOTOS: '1000',
      PRICE_MODEL_TRAINING: '20',
      PRICE_FACE_SWAP: '2',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
    },
  });
}, 240_000);
afterAll(async () => {
  await t?.close();
  await replicate?.close();
});

const deliver = (webhook: ReplicateSignedWebhook, body = webhook.body) =>
  t.app.inject({ method: 'POST', url: REPLICATE_WEBHOOK_PATH, headers: webhook.headers, payload: body });

async function signedInUser() {
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 100);
  const { access } = await login(t, user.email!, user.password);
  return { id: user.id, headers: bearer(access) };
}

const modelRow = (uuid: string) =>
  t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.uuid, uuid) });

const trainingEntries = async (userId: number) =>
  (await t.deps.db.select().from(creditEntries).where(eq(creditEntries.userId, userId))).filter((entry) =>
    entry.kind.startsWith('model_training'),
  );

const readyNotifications = (userId: number) =>
  t.deps.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'model_ready')));

/** A model with its photos, started training (charged, IN_QUEUE), its job not run yet. */
async function startedModel(user: { headers: Record<string, string> }, name: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/models/',
    headers: user.headers,
    payload: { name, category: 'female' },
  });
  const uuid = created.json().uuid as string;
  const photos = (await astronautPhotos()).map((data) => ({ data }));
  expect((await uploadModelPhotos(t, user.headers, uuid, photos)).statusCode).toBe(201);
  await passLiveCheck(t, uuid);
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/models/${uuid}/train/`,
    headers: user.headers,
  });
  expect(started.statusCode, started.body).toBe(202);
  return (await modelRow(uuid))!;
}

/** Runs the model's job until it has submitted the training, then "kills" it (a 503 on the first status read). */
async function submittedThenKilled(row: { id: number; trainingAttempt: number }) {
  replicate.failNextReads({ status: 503 });
  await expect(
    runModelTraining(t.deps, row.id, row.trainingAttempt, { attempt: 1, maxAttempts: 3 }),
  ).rejects.toThrow();
  const stopped = (await t.deps.db.query.models.findFirst({ where: (m, { eq }) => eq(m.id, row.id) }))!;
  expect(stopped.status).toBe(GenerationStatus.IN_QUEUE);
  expect(stopped.trainingProvider).toBe('replicate');
  return stopped;
}

describe('a digital model trained at Replicate', () => {
  let owner: { id: number; headers: Record<string, string> };
  let modelUuid: string;
  /** A model whose training was submitted and has not ended. */
  let inTraining: { user: { id: number; headers: Record<string, string> }; uuid: string } | undefined;

  beforeAll(async () => {
    owner = await signedInUser();
    modelUuid = await createTrainedModel(t, owner.headers);
  }, 180_000);

  it('makes its private destination model, sends the crops as a ZIP file, keeps the pushed version', async () => {
    const row = (await modelRow(modelUuid))!;
    expect(row.status).toBe(GenerationStatus.COMPLETED);
    expect(row.engine).toBe('replicate');
    expect(row.trainingProvider).toBe('replicate');
    const training = replicate.trainings.get(row.trainingJobId!)!;
    expect(training.model).toBe(REPLICATE_FAKE_TRAINER);
    expect(training.version).toBe(REPLICATE_FAKE_TRAINER_VERSION);
    expect(training.destination).toBe(`${OWNER}/mirra-${modelUuid}`);
    expect(replicate.models.get(training.destination)).toMatchObject({ visibility: 'private' });
    expect(training.webhook).toBe('http://mirra.test/api/engines/replicate/webhook/');
    expect(training.input.trigger_word).toMatch(/^mirra[0-9a-f]{8}$/);
    const zipUrl = String(training.input.input_images);
    expect(zipUrl.startsWith(`${replicate.url}/files/`)).toBe(true);
    // The photos are deleted from Replicate's file store once the training has ended.
    expect(replicate.deletedFiles).toContain(zipUrl.split('/').at(-1));
    expect((await fetch(zipUrl)).status).toBe(404);
    const loras = row.providerLoras as { replicate: { url: string; triggerWord: string } };
    expect(loras.replicate).toEqual({
      url: training.output!.version,
      triggerWord: training.input.trigger_word,
      costUsd: 2,
    });
    expect(loras.replicate.url).toMatch(new RegExp(`^${OWNER}/mirra-${modelUuid}:[0-9a-f]{64}$`));
    expect(await trainingEntries(owner.id)).toHaveLength(1);
    expect(await readyNotifications(owner.id)).toHaveLength(1);
  });

  it('sent the ZIP of the 15 aligned crops', async () => {
    const row = (await modelRow(modelUuid))!;
    const training = replicate.trainings.get(row.trainingJobId!)!;
    // The fake kept the face it learnt; the ZIP itself is gone, so check what the trainer read.
    expect(training.status).toBe('succeeded');
    const second = await signedInUser();
    const started = await startedModel(second, 'Zip');
    const stopped = await submittedThenKilled(started);
    const zip = await (
      await fetch(String(replicate.trainings.get(stopped.trainingJobId!)!.input.input_images))
    ).arrayBuffer();
    const photos = unzipStored(Buffer.from(zip));
    expect(photos).toHaveLength(15);
    expect(photos[0]!.data.subarray(1, 4).toString()).toBe('PNG');
    inTraining = { user: second, uuid: started.uuid };
  }, 120_000);

  it('while that model still trains, makes a face photo at once with Kontext from its best reference photo', async () => {
    const { user, uuid: model } = inTraining!;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: user.headers,
      payload: { mode: 'face_swap', model_uuid: model, prompt: 'in a library', aspect: '4:5' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const generation = async () =>
      (await t.deps.db.query.generations.findFirst({
        where: (g, { eq }) => eq(g.uuid, created.json().uuid as string),
      }))!;
    await runGeneration(t.deps, (await generation()).id, { attempt: 1, maxAttempts: 3 });
    const row = await generation();
    expect(row.status, row.errorDetail ?? '').toBe(GenerationStatus.COMPLETED);
    expect(row.engine).toBe('replicate');
    const prediction = replicate.predictions.get(row.providerJobId!)!;
    // An official model, called by name: no version, no LoRA.
    expect(prediction.model).toBe('black-forest-labs/flux-kontext-pro');
    expect(prediction.input.prompt).toContain('in a library');
    expect(prediction.input.aspect_ratio).toBe('4:5');
    const fileId = String(prediction.input.input_image).split('/').at(-1)!;
    const usable = (await findUsableModel(t.deps, user.id, model))!;
    expect(usable.trained).toBe(false);
    const best = usable.profile.bestByPose.front[0]!;
    expect(replicate.uploadedContent.get(fileId)!.data).toEqual(
      await loadModelPhoto(t.deps, usable.model.id, best),
    );
    // The reference photo leaves Replicate once the prediction has ended.
    expect(replicate.deletedFiles).toContain(fileId);
    expect(row.likeness).toBeGreaterThanOrEqual(t.deps.config.likenessThreshold);
  }, 120_000);

  it('makes a face photo from a description with the trained version and its trigger word', async () => {
    const row = (await modelRow(modelUuid))!;
    const lora = (row.providerLoras as { replicate: { url: string; triggerWord: string } }).replicate;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: owner.headers,
      payload: { mode: 'face_swap', model_uuid: modelUuid, prompt: 'on a mountain top at sunrise' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.runJobs();
    const uuid = created.json().uuid as string;
    const shown = (
      await t.app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers: owner.headers })
    ).json();
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(shown.result.engine).toBe('replicate');
    const generation = (await t.deps.db.query.generations.findFirst({
      where: (g, { eq }) => eq(g.uuid, uuid),
    }))!;
    const prediction = replicate.predictions.get(generation.providerJobId!)!;
    expect(prediction.version).toBe(lora.url.split(':')[1]);
    expect(prediction.model).toBe(`${OWNER}/mirra-${modelUuid}`);
    expect(prediction.input.prompt).toBe(`${lora.triggerWord} on a mountain top at sunrise`);
    // Priced as the FLUX LoRA model it runs as.
    expect(generation.providerCostUsd).toBeCloseTo(0.032, 6);
  });

  it('swaps the model’s face onto a photo with the face-swap model, priced by the default table', async () => {
    const faces = await loadTestFaces();
    const target = await createUploadFor(t, owner.id, faces.graceHopper);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: owner.headers,
      payload: { mode: 'face_swap', model_uuid: modelUuid, images: [target.uuid] },
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.runJobs();
    const uuid = created.json().uuid as string;
    const generation = (await t.deps.db.query.generations.findFirst({
      where: (g, { eq }) => eq(g.uuid, uuid),
    }))!;
    expect(generation.provider).toBe('replicate');
    expect(replicate.predictions.get(generation.providerJobId!)!.model).toBe('cdingram/face-swap');
    expect(generation.providerCostUsd).toBeCloseTo(0.003, 6);
  });

  it('a model trained at fal steps aside for the next engine, with a note', async () => {
    const user = await signedInUser();
    const other = await createTrainedModel(t, user.headers, 'Trained at fal');
    await t.deps.db
      .update(models)
      .set({
        providerLoras: {
          fal: { url: 'https://fal.media/files/lora.safetensors', triggerWord: 'mirraabcdef12' },
        },
      })
      .where(eq(models.uuid, other));
    const before = replicate.creates;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: user.headers,
      payload: { mode: 'face_swap', model_uuid: other, prompt: 'in a park' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.runJobs();
    const uuid = created.json().uuid as string;
    const shown = (
      await t.app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers: user.headers })
    ).json();
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(shown.result.engine).toBe('local');
    expect(shown.result.notes).toContainEqual(
      expect.objectContaining({
        code: 'provider.fallback',
        params: expect.objectContaining({ unavailable: 'replicate' }),
      }),
    );
    expect(replicate.creates).toBe(before);
  }, 180_000);
});

describe('Replicate training ending otherwise', () => {
  it(
    'a failed training ends the model honestly and refunds it exactly once',
    { timeout: 180_000 },
    async () => {
      const user = await signedInUser();
      const row = await startedModel(user, 'Fails');
      replicate.failNextTrainings({ status: 'failed', error: 'CUDA out of memory' });
      await t.runJobs();
      const ended = (await modelRow(row.uuid))!;
      expect(ended.status).toBe(GenerationStatus.ERROR);
      expect(ended.errorCode).toBe('models.training_failed');
      expect(ended.refunded).toBe(true);
      expect(ended.providerLoras).toBeNull();
      // The failed training's webhook arrives too: nothing more happens.
      const webhook = replicate.webhooks.findLast((one) => one.body.includes(ended.trainingJobId!))!;
      expect(JSON.parse(webhook.body).status).toBe('failed');
      const again = await deliver(webhook);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().detail).toBe('already finished');
      const entries = await trainingEntries(user.id);
      expect(entries.map((entry) => [entry.kind, entry.delta])).toEqual([
        ['model_training_charge', -20],
        ['model_training_refund', 20],
      ]);
      expect(await readyNotifications(user.id)).toHaveLength(0);
    },
  );

  it(
    'a training Replicate will not create has its uploaded ZIP of face photos deleted at once',
    { timeout: 180_000 },
    async () => {
      const user = await signedInUser();
      const row = await startedModel(user, 'Not created');
      const uploaded = replicate.uploadedFiles.length;
      const creates = replicate.trainingCreates;
      replicate.failNextCreates({ status: 503 });
      await t.runJobs();
      expect(replicate.trainingCreates).toBe(creates);
      const zips = replicate.uploadedFiles.slice(uploaded);
      expect(zips).toHaveLength(1);
      expect(replicate.deletedFiles).toContain(zips[0]);
      // The next trainer of the list (local) trained the model instead.
      expect((await modelRow(row.uuid))!.status).toBe(GenerationStatus.COMPLETED);
    },
  );

  it(
    'a canceled training finished by its webhook (worker dead) fails and refunds once',
    { timeout: 180_000 },
    async () => {
      const user = await signedInUser();
      const stopped = await submittedThenKilled(await startedModel(user, 'Canceled'));
      replicate.failNextTrainings({ status: 'canceled' });
      const webhook = await replicate.finishTraining(stopped.trainingJobId!);
      const first = await deliver(webhook);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().detail).toBe('finished');
      expect((await deliver(webhook)).json().detail).toBe('already finished');
      // The worker's retry finds the training ended and does nothing.
      await runModelTraining(t.deps, stopped.id, stopped.trainingAttempt, { attempt: 2, maxAttempts: 3 });
      const ended = (await modelRow(stopped.uuid))!;
      expect(ended.status).toBe(GenerationStatus.ERROR);
      expect(ended.errorCode).toBe('models.training_failed');
      const refunds = (await trainingEntries(user.id)).filter(
        (entry) => entry.kind === 'model_training_refund',
      );
      expect(refunds).toHaveLength(1);
    },
  );
});

describe('Replicate’s training webhook', () => {
  it(
    'completes a training whose worker died, once; the worker’s retry changes nothing',
    { timeout: 180_000 },
    async () => {
      const user = await signedInUser();
      const stopped = await submittedThenKilled(await startedModel(user, 'By webhook'));
      const creates = replicate.trainingCreates;
      const webhook = await replicate.finishTraining(stopped.trainingJobId!);
      const first = await deliver(webhook);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().detail).toBe('finished');
      const done = (await modelRow(stopped.uuid))!;
      expect(done.status).toBe(GenerationStatus.COMPLETED);
      expect(done.profile).not.toBeNull();
      expect(done.engine).toBe('replicate');
      expect(done.providerLoras!.replicate!.url).toBe(
        replicate.trainings.get(stopped.trainingJobId!)!.output!.version,
      );
      const photos = await t.deps.db.query.modelPhotos.findMany({
        where: (p, { eq }) => eq(p.modelId, done.id),
      });
      expect(photos.filter((photo) => photo.alignedKey !== null)).toHaveLength(15);
      expect((await deliver(webhook)).json().detail).toBe('already finished');
      await runModelTraining(t.deps, stopped.id, stopped.trainingAttempt, { attempt: 2, maxAttempts: 3 });
      expect(replicate.trainingCreates).toBe(creates);
      expect(await readyNotifications(user.id)).toHaveLength(1);
      expect((await trainingEntries(user.id)).map((entry) => entry.kind)).toEqual(['model_training_charge']);
    },
  );

  it('racing the worker’s poll, the model is completed once', { timeout: 180_000 }, async () => {
    const user = await signedInUser();
    const stopped = await submittedThenKilled(await startedModel(user, 'Race'));
    const webhook = await replicate.finishTraining(stopped.trainingJobId!);
    const [, delivered] = await Promise.all([
      runModelTraining(t.deps, stopped.id, stopped.trainingAttempt, { attempt: 2, maxAttempts: 3 }),
      deliver(webhook),
    ]);
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(['finished', 'already finished']).toContain(delivered.json().detail);
    expect((await modelRow(stopped.uuid))!.status).toBe(GenerationStatus.COMPLETED);
    expect(await readyNotifications(user.id)).toHaveLength(1);
    expect((await trainingEntries(user.id)).map((entry) => entry.kind)).toEqual(['model_training_charge']);
  });

  it(
    'refuses a forged or tampered delivery and leaves the training alone',
    { timeout: 180_000 },
    async () => {
      const user = await signedInUser();
      const stopped = await submittedThenKilled(await startedModel(user, 'Forged'));
      const webhook = await replicate.finishTraining(stopped.trainingJobId!);
      const forged = replicate.signWebhook(webhook.body, {
        secret: `whsec_${Buffer.from('not the secret').toString('base64')}`,
      });
      const refused = await deliver(forged);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'engines.webhook_forbidden' });
      const tampered = await deliver(webhook, webhook.body.replace('"succeeded"', '"failed"'));
      expect(tampered.statusCode).toBe(403);
      expect((await modelRow(stopped.uuid))!.status).toBe(GenerationStatus.IN_QUEUE);
      expect(await trainingEntries(user.id)).toHaveLength(1);
    },
  );
});
