import { GenerationStatus, type TAdminDashboard } from '@mirra/contracts';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestFaces } from '@mirra/imaging/testing';
import { startFalFake, type FalFake } from '../../fakes/fal.fake.js';
import { grantStaffRole } from '../../modules/admin/index.js';
import { getCreditStanding, grantWelcomeCredits } from '../../modules/credits/credits.usecases.js';
import { finishGeneration } from '../../modules/generations/generation-finish.usecases.js';
import { runGeneration } from '../../modules/generations/generation-run.usecases.js';
import { findUsableModel, loadModelPhoto } from '../../modules/models/index.js';
import { creditEntries, generations } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { astronautPhotos, passLiveCheck, uploadModelPhotos } from '../../test/models.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Instant likeness, then trained likeness, at fal against its fake: a face photo of a model still
 * in training is made by Kontext from the model's best reference photo (a URL in fal's storage),
 * the same request after training by FLUX LoRA; every face result's likeness to the model's photos
 * is kept, and one that does not look like the person is made once more with a new seed, then
 * refunded once. The console's dashboard counts those refunds per engine.
 */
let fal: FalFake;
let t: TestApp;
let owner: { id: number; headers: Record<string, string> };
let modelUuid: string;

beforeAll(async () => {
  // Each job completes on its first status read: no poll waits between them.
  fal = await startFalFake({ queueSteps: 0, progressSteps: 0 });
  t = await createTestApp({
    env: {
      ENGINE_FACE_SWAP: 'fal,local',
      ENGINE_TRAINING: 'fal,local',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      FAL_JWKS_URL: fal.jwksUrl,
      FAL_USER_ID: fal.userId,
      FREE_DAILY_PHOTOS: '1000',
      PRICE_FACE_SWAP: '2',
      PRICE_MODEL_TRAINING: '20',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
      // Six photos are enough to show the rule (and fal's trainer takes four or more).
      MODEL_MIN_PHOTOS: '6',
      // What is judged here is likeness; the bundled classifier is tested on its own.
      MODERATION_IMAGES: 'false',
    },
  });
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 100);
  const { access } = await login(t, user.email!, user.password);
  owner = { id: user.id, headers: bearer(access) };
  // A model whose photos are checked and whose training is paid and queued, not yet run.
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/models/',
    headers: owner.headers,
    payload: { name: 'Me', category: 'female' },
  });
  modelUuid = created.json().uuid as string;
  const photos = (await astronautPhotos()).slice(0, 6).map((data) => ({ data }));
  expect((await uploadModelPhotos(t, owner.headers, modelUuid, photos)).statusCode).toBe(201);
  await passLiveCheck(t, modelUuid);
  const train = await t.app.inject({
    method: 'POST',
    url: `/api/models/${modelUuid}/train/`,
    headers: owner.headers,
  });
  expect(train.statusCode, train.body).toBe(202);
}, 240_000);
afterAll(async () => {
  await t?.close();
  await fal?.close();
});

const rowOf = async (uuid: string) =>
  (await t.deps.db.query.generations.findFirst({ where: (g, { eq }) => eq(g.uuid, uuid) }))!;

async function facePhoto(prompt: string): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/generations/',
    headers: owner.headers,
    payload: { mode: 'face_swap', model_uuid: modelUuid, prompt },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().uuid as string;
}

const falJobsOf = (row: { providerJobId: string | null }) =>
  row.providerJobId ? fal.jobs.get(row.providerJobId.split(' ')[0]!) : undefined;

describe('a face photo of a model still in training', () => {
  it('is made at once by Kontext with the model’s best reference photo as a URL in fal’s storage', async () => {
    const uuid = await facePhoto('on a mountain top at sunrise');
    // Only the generation's own job: the queued training must not finish the model first.
    await runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 });
    const row = await rowOf(uuid);
    expect(row.status, row.errorDetail ?? '').toBe(GenerationStatus.COMPLETED);
    expect(row.engine).toBe('fal');
    const job = falJobsOf(row)!;
    expect(job.model).toBe('fal-ai/flux-pro/kontext');
    expect(job.input.prompt).toContain('on a mountain top at sunrise');
    expect(job.input.loras).toBeUndefined();
    const usable = (await findUsableModel(t.deps, owner.id, modelUuid))!;
    expect(usable.trained).toBe(false);
    const best = usable.profile.bestByPose.front[0]!;
    const sent = fal.storedFile(String(job.input.image_url));
    expect(sent).toEqual(await loadModelPhoto(t.deps, usable.model.id, best));
    expect(fal.storageLifecycles.at(-1)).toContain('expiration_duration_seconds');
    expect(row.likeness).toBeGreaterThanOrEqual(t.deps.config.likenessThreshold);
  });

  it('is made by the local engine from the photos when fal is down', async () => {
    fal.failNextSubmits({ status: 503 });
    const uuid = await facePhoto('in a park');
    await runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 });
    const row = await rowOf(uuid);
    expect(row.status, row.errorDetail ?? '').toBe(GenerationStatus.COMPLETED);
    expect(row.engine).toBe('local');
    expect(row.likeness).toBeGreaterThanOrEqual(t.deps.config.likenessThreshold);
  });
});

describe('once the model is trained', () => {
  it('the same request is made by FLUX LoRA with the model’s LoRA', { timeout: 60_000 }, async () => {
    await t.runJobs(); // the training
    const usable = (await findUsableModel(t.deps, owner.id, modelUuid))!;
    expect(usable.trained).toBe(true);
    const lora = (usable.model.providerLoras as { fal: { url: string; triggerWord: string } }).fal;
    const uuid = await facePhoto('on a mountain top at sunrise');
    await t.runJobs();
    const row = await rowOf(uuid);
    expect(row.status, row.errorDetail ?? '').toBe(GenerationStatus.COMPLETED);
    const job = falJobsOf(row)!;
    expect(job.model).toBe('fal-ai/flux-lora');
    expect(job.input.loras).toEqual([{ path: lora.url, scale: 1 }]);
    expect(row.likeness).toBeGreaterThanOrEqual(t.deps.config.likenessThreshold);
    expect(row.likenessRetries).toBe(0);
  });
});

describe('a face result that does not look like the person', () => {
  const refundsOf = async (uuid: string) =>
    t.deps.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.ref, uuid), eq(creditEntries.kind, 'generation_refund')));

  it('is made once more with a new seed, then failed and refunded once', async () => {
    const faces = await loadTestFaces();
    // Another person the first time, no face at all the second.
    fal.faceNextPictures(faces.graceHopper, null);
    const before = (await getCreditStanding(t.deps, owner.id)).balance;
    const submissions = fal.submissions;
    const uuid = await facePhoto('reading in a library');
    await t.runJobs();
    const row = await rowOf(uuid);
    expect(row.status).toBe(GenerationStatus.ERROR);
    expect(row.errorCode).toBe('generations.likeness_failed');
    expect(row.result).toBeNull();
    expect(row.likenessRetries).toBe(1);
    expect(row.likeness).toBeLessThan(t.deps.config.likenessThreshold);
    expect(fal.submissions - submissions).toBe(2);
    const seeds = [...fal.jobs.values()].slice(-2).map((job) => job.input.seed);
    expect(seeds[0]).not.toBe(seeds[1]);
    expect((await getCreditStanding(t.deps, owner.id)).balance).toBe(before);
    expect(await refundsOf(uuid)).toHaveLength(1);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/generations/${uuid}/`,
      headers: owner.headers,
    });
    expect(shown.json()).toMatchObject({
      status: GenerationStatus.ERROR,
      error_code: 'generations.likeness_failed',
    });
  });

  it('is shown when its retry looks like the person, charged once', async () => {
    const faces = await loadTestFaces();
    fal.faceNextPictures(faces.graceHopper);
    const before = (await getCreditStanding(t.deps, owner.id)).balance;
    const uuid = await facePhoto('walking on a beach');
    await t.runJobs();
    const row = await rowOf(uuid);
    expect(row.status, row.errorDetail ?? '').toBe(GenerationStatus.COMPLETED);
    expect(row.likenessRetries).toBe(1);
    expect(row.likeness).toBeGreaterThanOrEqual(t.deps.config.likenessThreshold);
    expect((await getCreditStanding(t.deps, owner.id)).balance).toBe(before - 2);
    expect(await refundsOf(uuid)).toHaveLength(0);
  });

  it('counts on the console’s dashboard as the share of face pictures refunded for likeness, per engine', async () => {
    const staff = await createActiveUser(t);
    await grantStaffRole(t.deps, staff.email!, 'admin');
    const { access } = await login(t, staff.email!, staff.password);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/dashboard/',
      headers: bearer(access),
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = (response.json() as TAdminDashboard).likeness_refunds;
    const finished = await t.deps.db.select().from(generations).where(eq(generations.userId, owner.id));
    const count = (engine: string, refunded: boolean) =>
      finished.filter(
        (row) =>
          row.engine === engine &&
          row.likeness !== null &&
          (!refunded || row.errorCode === 'generations.likeness_failed'),
      ).length;
    expect(rows).toContainEqual({
      engine: 'fal',
      checked: count('fal', false),
      refunded: 1,
      share: 1 / count('fal', false),
    });
    expect(rows).toContainEqual({ engine: 'local', checked: count('local', false), refunded: 0, share: 0 });
    expect(count('fal', true)).toBe(1);
    // Staff see the score of the refunded picture with the failure.
    const failed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/generations/failed/',
      headers: bearer(access),
    });
    const refunded = (
      failed.json() as { results: Array<{ error_code: string; likeness: number | null }> }
    ).results.find((row) => row.error_code === 'generations.likeness_failed');
    expect(refunded?.likeness).toBeLessThan(t.deps.config.likenessThreshold);
  });

  it('a late second finisher of the first picture leaves its running retry alone', async () => {
    const faces = await loadTestFaces();
    const stranger = await sharp(faces.graceHopper).metadata();
    const output = {
      data: faces.graceHopper,
      contentType: 'image/jpeg',
      width: stranger.width!,
      height: stranger.height!,
      notes: [],
    };
    const uuid = await facePhoto('at a window');
    const id = (await rowOf(uuid)).id;
    await t.deps.db
      .update(generations)
      .set({ status: GenerationStatus.IN_PROGRESS })
      .where(eq(generations.id, id));
    // What the worker and the webhook both read before either finished the first picture.
    const read = await rowOf(uuid);
    await finishGeneration(t.deps, read, output, 'webhook');
    const requeued = await rowOf(uuid);
    expect(requeued).toMatchObject({ status: GenerationStatus.IN_QUEUE, likenessRetries: 1 });
    // The retry starts; then the worker finishes the first picture from what it read.
    await t.deps.db
      .update(generations)
      .set({ status: GenerationStatus.IN_PROGRESS })
      .where(eq(generations.id, id));
    await finishGeneration(t.deps, read, output, 'worker');
    expect(await rowOf(uuid)).toMatchObject({
      status: GenerationStatus.IN_PROGRESS,
      likenessRetries: 1,
      seed: requeued.seed,
    });
    expect(await refundsOf(uuid)).toHaveLength(0);
  });
});
