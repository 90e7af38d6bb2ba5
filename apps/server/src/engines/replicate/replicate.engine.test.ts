import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPLICATE_REFUSED_WORD,
  startReplicateFake,
  type ReplicateFake,
  type ReplicateSignedWebhook,
} from '../../fakes/replicate.fake.js';
import { runGeneration } from '../../modules/generations/generations.jobs.js';
import { createUploadFor } from '../../test/factories.js';
import { generationTestHelpers } from '../../test/generations.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { REPLICATE_WEBHOOK_PATH } from './replicate-webhook.routes.js';

/**
 * The Replicate engine against the fake Replicate API, through the whole generation: created once,
 * polled (or finished by the signed webhook), the result stored in Mirra's storage.
 */
let replicate: ReplicateFake;
let t: TestApp;
beforeAll(async () => {
  replicate = await startReplicateFake({ processingSteps: 1 });
  t = await createTestApp({
    env: {
      // What is checked here is the adapter; the bundled image classifier (tested on its own)
      // now and then refuses one of the fake's random drawings, which would fail a step at random.
      MODERATION_IMAGES: 'false',
      ENGINE_SIMPLE: 'replicate,local',
      ENGINE_EDITING: 'replicate',
      ENGINE_VIDEO: 'replicate',
      REPLICATE_API_TOKEN: replicate.token,
      REPLICATE_BASE_URL: replicate.url,
      PRICE_SIMPLE: '2',
      PRICE_EDITING: '3',
      PRICE_VIDEO_PER_SECOND: '1',
      FREE_DAILY_PHOTOS: '1000',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await replicate?.close();
});

const { signedInUser, create, rowOf, shown, entriesOf, runJobsUntilEnded } = generationTestHelpers(() => t);
const deliver = (webhook: ReplicateSignedWebhook, body = webhook.body) =>
  t.app.inject({ method: 'POST', url: REPLICATE_WEBHOOK_PATH, headers: webhook.headers, payload: body });

describe('the Replicate engine, polled by the worker', () => {
  it('makes a picture with FLUX schnell: created once with the webhook, stored, labelled, priced', async () => {
    const { user, headers } = await signedInUser();
    const before = replicate.creates;
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a red fox in the snow', seed: 5 });
    await t.runJobs();
    const done = await shown(uuid, headers);
    expect(done.status).toBe(GenerationStatus.COMPLETED);
    expect(done.result.engine).toBe('replicate');
    expect(done.result.notes).toContainEqual({
      code: 'provider.made_by',
      params: { engine: 'replicate', model: 'black-forest-labs/flux-schnell' },
      text: 'Made by replicate with black-forest-labs/flux-schnell.',
    });
    const row = await rowOf(uuid);
    const prediction = replicate.predictions.get(row.providerJobId!)!;
    expect(prediction.input).toMatchObject({ prompt: 'a red fox in the snow', seed: 5 });
    expect(prediction.webhook).toBe(`http://mirra.test${REPLICATE_WEBHOOK_PATH}`);
    expect(row.providerCostUsd).toBeCloseTo(0.003, 6);
    expect(replicate.creates).toBe(before + 1);
    expect(await entriesOf(user.id)).toEqual([-2]);
  });

  it('edits with Kontext: the photo goes to Replicate’s file store, not as a link to Mirra', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const { uuid } = await create(headers, {
      mode: 'editing',
      prompt: 'make the sky pink',
      images: [upload.uuid],
    });
    await t.runJobs();
    expect((await shown(uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
    const prediction = replicate.predictions.get((await rowOf(uuid)).providerJobId!)!;
    expect(prediction.model).toBe('black-forest-labs/flux-kontext-pro');
    expect(String(prediction.input.input_image)).toMatch(new RegExp(`^${replicate.url}/files/`));
  });

  it('animates a photo with Kling: an MP4 with its poster', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const { uuid } = await create(headers, { mode: 'video', images: [upload.uuid], duration: 5 });
    await t.runJobs();
    const done = await shown(uuid, headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.content_type).toBe('video/mp4');
    expect(done.result.variants.length).toBeGreaterThan(0);
    const row = await rowOf(uuid);
    expect(replicate.predictions.get(row.providerJobId!)!.input).toMatchObject({
      duration: 5,
    });
    // The default price table prices Kling at Replicate per second of video ($0.05).
    expect(row.providerCostUsd).toBeCloseTo(0.05 * 5, 2);
  });
});

describe('outages and refusals', () => {
  it('a 5xx, a dropped connection or a 429 still there after its Retry-After moves on to local; one 429 is waited out', async () => {
    const { user, headers } = await signedInUser();
    replicate.failNextCreates({ status: 503 });
    const down = await create(headers, { mode: 'simple', prompt: 'a lighthouse' });
    await runJobsUntilEnded(down.uuid);
    const fellBack = await shown(down.uuid, headers);
    expect(fellBack.result.engine).toBe('local');
    expect(fellBack.result.notes).toContainEqual(
      expect.objectContaining({
        code: 'provider.fallback',
        params: { engine: 'local', unavailable: 'replicate' },
      }),
    );

    replicate.failNextCreates({ status: 'disconnect' });
    const dropped = await create(headers, { mode: 'simple', prompt: 'a boat' });
    await runJobsUntilEnded(dropped.uuid);
    expect((await shown(dropped.uuid, headers)).result.engine).toBe('local');

    replicate.failNextCreates({ status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 });
    const limited = await create(headers, { mode: 'simple', prompt: 'a boat' });
    await runJobsUntilEnded(limited.uuid);
    expect((await shown(limited.uuid, headers)).result.engine).toBe('local');

    replicate.failNextCreates({ status: 429, retryAfter: 1 });
    const waited = await create(headers, { mode: 'simple', prompt: 'a boat' });
    await runJobsUntilEnded(waited.uuid);
    expect((await shown(waited.uuid, headers)).result.engine).toBe('replicate');
    expect(await entriesOf(user.id)).toEqual([-2, -2, -2, -2]);
  });

  it('a prediction the model’s safety checker failed ends as moderated, refunded once, no other engine asked', async () => {
    const { user, headers } = await signedInUser();
    const before = replicate.creates;
    const { uuid } = await create(headers, { mode: 'simple', prompt: `a ${REPLICATE_REFUSED_WORD} scene` });
    await t.runJobs();
    expect(await rowOf(uuid)).toMatchObject({
      status: GenerationStatus.ERROR,
      engine: 'replicate',
      errorCode: 'generations.result_moderated',
      errorDetail: 'Moderation failed, credits refunded',
    });
    expect(replicate.creates).toBe(before + 1);
    expect(await entriesOf(user.id)).toEqual([-2, 2]);
  });

  it('a prediction whose output is gone before it is fetched ends failed, refunded once, no other engine asked', async () => {
    const { user, headers } = await signedInUser();
    const before = replicate.creates;
    replicate.expireNextOutput();
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a quiet harbour', seed: 3 });
    await runJobsUntilEnded(uuid);
    const row = await rowOf(uuid);
    expect(row).toMatchObject({ status: GenerationStatus.ERROR, engine: 'replicate', refunded: true });
    expect(replicate.predictions.get(row.providerJobId!)!.status).toBe('succeeded');
    expect(replicate.creates).toBe(before + 1);
    // Another run of the job changes nothing: the refund is not paid twice.
    await runGeneration(t.deps, row.id, { attempt: 1, maxAttempts: 3 });
    expect(await entriesOf(user.id)).toEqual([-2, 2]);
  });

  it('a worker stopped after the create resumes the prediction by its stored id', async () => {
    const { user, headers } = await signedInUser();
    const before = replicate.creates;
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a quiet harbour' });
    replicate.failNextReads({ status: 502 });
    await expect(
      runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 }),
    ).rejects.toThrow();
    const stopped = await rowOf(uuid);
    expect([stopped.status, stopped.provider]).toEqual([GenerationStatus.IN_QUEUE, 'replicate']);
    await runGeneration(t.deps, stopped.id, { attempt: 2, maxAttempts: 3 });
    expect((await rowOf(uuid)).status).toBe(GenerationStatus.COMPLETED);
    expect((await rowOf(uuid)).providerJobId).toBe(stopped.providerJobId);
    expect(replicate.creates).toBe(before + 1);
    expect(await entriesOf(user.id)).toEqual([-2]);
  });
});

describe('Replicate’s webhook', () => {
  async function acceptedThenStopped() {
    const { user, headers } = await signedInUser();
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a tram in the rain' });
    replicate.failNextReads({ status: 502 });
    await expect(
      runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 }),
    ).rejects.toThrow();
    return { user, headers, uuid, id: (await rowOf(uuid)).providerJobId! };
  }

  it('finishes the generation with the secret read from Replicate’s API; a duplicate changes nothing', async () => {
    const { user, headers, uuid, id } = await acceptedThenStopped();
    const webhook = await replicate.finish(id);
    expect((await deliver(webhook)).statusCode).toBe(200);
    const done = await shown(uuid, headers);
    expect(done.status).toBe(GenerationStatus.COMPLETED);
    expect(((await rowOf(uuid)).result as { original: { key: string } }).original.key).toContain('/webhook/');
    expect((await deliver(webhook)).statusCode).toBe(200);
    await runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 2, maxAttempts: 3 });
    expect(await entriesOf(user.id)).toEqual([-2]);
  });

  it('refuses forged and replayed deliveries: another secret, a tampered body, a timestamp past five minutes', async () => {
    const { uuid, id } = await acceptedThenStopped();
    const webhook = await replicate.finish(id);
    const otherSecret = replicate.signWebhook(webhook.body, {
      secret: `whsec_${Buffer.from('x'.repeat(24)).toString('base64')}`,
    });
    expect((await deliver(otherSecret)).statusCode).toBe(403);
    expect((await deliver(webhook, webhook.body.replace('succeeded', 'failed'))).statusCode).toBe(403);
    const replayed = replicate.signWebhook(webhook.body, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const refused = await deliver(replayed);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'engines.webhook_forbidden']);
    expect((await rowOf(uuid)).status).toBe(GenerationStatus.IN_QUEUE);
  });

  it('a failed prediction’s delivery ends it as moderated, refunded once however often it comes', async () => {
    const { user, uuid, id } = await acceptedThenStopped();
    const body = JSON.stringify({ id, status: 'failed', error: 'NSFW content detected.', output: null });
    const webhook = replicate.signWebhook(body);
    expect((await deliver(webhook)).statusCode).toBe(200);
    expect((await deliver(webhook)).statusCode).toBe(200);
    expect((await rowOf(uuid)).errorCode).toBe('generations.result_moderated');
    expect(await entriesOf(user.id)).toEqual([-2, 2]);
  });

  it('answers 404 for a prediction it has not recorded, so Replicate tries again', async () => {
    const body = JSON.stringify({ id: 'unknownprediction', status: 'succeeded', output: [] });
    const response = await deliver(replicate.signWebhook(body));
    expect([response.statusCode, response.json().code]).toEqual([404, 'engines.webhook_unknown_request']);
  });
});
