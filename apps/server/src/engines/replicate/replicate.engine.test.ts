import sharp from 'sharp';
import { CAMERA_MOVE_WORDS, GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  REPLICATE_REFUSED_WORD,
  startReplicateFake,
  type ReplicateFake,
  type ReplicateSignedWebhook,
} from '../../fakes/replicate.fake.js';
import { runGeneration } from '../../modules/generations/generation-run.usecases.js';
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
      ENGINE_STYLING: 'replicate,local',
      ENGINE_VIDEO: 'replicate,local',
      ENGINE_INPAINT: 'replicate',
      ENGINE_OUTPAINT: 'replicate',
      REPLICATE_API_TOKEN: replicate.token,
      REPLICATE_BASE_URL: replicate.url,
      PRICE_SIMPLE: '2',
      PRICE_EDITING: '3',
      PRICE_STYLING: '3',
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
/** The id of one of our files at Replicate, from its URL. */
const fileIdOf = (url: unknown) => String(url).split('/').at(-1)!;
const asksToDelete = (id: string) => replicate.deleteRequests.filter((one) => one === id).length;

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

  it('inpaints and extends with FLUX Fill: the photo and its mask uploaded, only the painted part (or the new canvas) changed', async () => {
    const { user, headers } = await signedInUser();
    const photo = await sharp({ create: { width: 180, height: 180, channels: 3, background: '#6688aa' } })
      .jpeg()
      .toBuffer();
    const upload = await createUploadFor(t, user.id, photo);
    // White over the right half: the part to change.
    const maskPng = await sharp({ create: { width: 180, height: 180, channels: 3, background: '#000' } })
      .composite([
        {
          input: await sharp({ create: { width: 90, height: 180, channels: 3, background: '#fff' } })
            .png()
            .toBuffer(),
          left: 90,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const mask = await createUploadFor(t, user.id, maskPng);
    const pixel = async (uuid: string, x: number, y: number) => {
      const row = await rowOf(uuid);
      const file = (await t.deps.storage.get(row.result!.original.key))!.data;
      const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      return [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    };

    const inpaint = await create(headers, {
      mode: 'inpaint',
      prompt: 'a red boat',
      images: [upload.uuid],
      settings: { mask: mask.uuid },
    });
    await t.runJobs();
    expect((await shown(inpaint.uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
    const filled = replicate.predictions.get((await rowOf(inpaint.uuid)).providerJobId!)!;
    expect(filled.model).toBe('black-forest-labs/flux-fill-pro');
    expect(filled.input).toMatchObject({ prompt: 'a red boat', output_format: 'png' });
    for (const field of ['image', 'mask']) {
      expect(String(filled.input[field])).toMatch(new RegExp(`^${replicate.url}/files/`));
    }
    expect((await pixel(inpaint.uuid, 150, 90))[1]).toBeLessThan(60); // painted: the fake's magenta
    expect((await pixel(inpaint.uuid, 30, 90))[1]).toBeGreaterThan(100); // untouched

    const extend = await create(headers, { mode: 'outpaint', images: [upload.uuid], aspect: '16:9' });
    await t.runJobs();
    const extended = await shown(extend.uuid, headers);
    expect(extended.status, extended.error_detail).toBe(GenerationStatus.COMPLETED);
    expect([extended.result.width, extended.result.height]).toEqual([320, 180]);
    expect((await pixel(extend.uuid, 10, 90))[1]).toBeLessThan(60); // the new canvas was filled
    expect((await pixel(extend.uuid, 160, 90))[1]).toBeGreaterThan(100); // the photo kept
  });

  it('animates a photo with Kling: an MP4 with its poster', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const { uuid } = await create(headers, {
      mode: 'video',
      images: [upload.uuid],
      duration: 5,
      prompt: 'she smiles',
      settings: { camera: 'dolly_in' },
    });
    await t.runJobs();
    const done = await shown(uuid, headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.content_type).toBe('video/mp4');
    expect(done.result.variants.length).toBeGreaterThan(0);
    const row = await rowOf(uuid);
    // Kling 2.1 here has no camera parameter: the chosen move is said after the description.
    const input = replicate.predictions.get(row.providerJobId!)!.input;
    expect(input).toMatchObject({ duration: 5, prompt: `she smiles. ${CAMERA_MOVE_WORDS.dolly_in}` });
    expect(input).not.toHaveProperty('camera_control');
    // The default price table prices Kling at Replicate per second of video ($0.05).
    expect(row.providerCostUsd).toBeCloseTo(0.05 * 5, 2);
  });
  it('styles a photo with Kontext: the style’s words lead the prompt, the photo is uploaded, the result stored and priced', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const before = replicate.creates;
    const { uuid } = await create(headers, {
      mode: 'styling',
      style: 'cartoon',
      prompt: 'keep the smile',
      images: [upload.uuid],
      seed: 11,
    });
    await t.runJobs();
    const done = await shown(uuid, headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.engine).toBe('replicate');
    expect(done.result.notes).toContainEqual(
      expect.objectContaining({
        code: 'provider.made_by',
        params: { engine: 'replicate', model: 'black-forest-labs/flux-kontext-pro' },
      }),
    );
    const row = await rowOf(uuid);
    const prediction = replicate.predictions.get(row.providerJobId!)!;
    expect(prediction.model).toBe('black-forest-labs/flux-kontext-pro');
    expect(prediction.input).toMatchObject({
      prompt: 'Redraw this picture as a cartoon with bold outlines and flat colours. keep the smile',
      seed: 11,
      output_format: 'png',
    });
    expect(String(prediction.input.input_image)).toMatch(new RegExp(`^${replicate.url}/files/`));
    expect(row.result).toMatchObject({ original: { key: expect.any(String) } });
    // The default price table prices Kontext pro at $0.04 a picture.
    expect(row.providerCostUsd).toBeCloseTo(0.04, 6);
    expect(replicate.creates).toBe(before + 1);
    expect(await entriesOf(user.id)).toEqual([-3]);
  });

  it('a video from a description alone is left to the next engine: Kling at Replicate needs a first frame', async () => {
    const { user, headers } = await signedInUser();
    const before = replicate.creates;
    const { uuid } = await create(headers, {
      mode: 'video',
      prompt: 'waves rolling onto a beach',
      duration: 5,
      aspect: '9:16',
    });
    await runJobsUntilEnded(uuid);
    const done = await shown(uuid, headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.engine).toBe('local');
    expect(done.result.notes).toContainEqual(
      expect.objectContaining({
        code: 'provider.fallback',
        params: { engine: 'local', unavailable: 'replicate' },
      }),
    );
    expect(replicate.creates).toBe(before);
    expect(await entriesOf(user.id)).toEqual([-5]);
    // The next engine encodes the video locally: slow on a busy two-core machine.
  }, 120_000);
});

describe('the photos uploaded to Replicate’s files', () => {
  it('are deleted there once the prediction has succeeded, asked once however often it is polled', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const { uuid } = await create(headers, { mode: 'video', images: [upload.uuid], duration: 5 });
    await t.runJobs();
    expect((await shown(uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
    const row = await rowOf(uuid);
    const photo = fileIdOf(replicate.predictions.get(row.providerJobId!)!.input.start_image);
    expect(replicate.deletedFiles).toContain(photo);
    await runGeneration(t.deps, row.id, { attempt: 2, maxAttempts: 3 });
    expect(asksToDelete(photo)).toBe(1);
  });

  it('are deleted when the prediction failed (the safety check refused it)', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const { uuid } = await create(headers, {
      mode: 'editing',
      prompt: `make it ${REPLICATE_REFUSED_WORD}`,
      images: [upload.uuid],
    });
    await t.runJobs();
    const row = await rowOf(uuid);
    expect(row.errorCode).toBe('generations.result_moderated');
    const photo = fileIdOf(replicate.predictions.get(row.providerJobId!)!.input.input_image);
    expect(replicate.deletedFiles).toContain(photo);
    expect(asksToDelete(photo)).toBe(1);
  });

  it('are deleted when the create fails after the upload, and the next engine makes it', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const uploaded = replicate.uploadedFiles.length;
    const before = replicate.creates;
    replicate.failNextCreates({ status: 503 });
    const { uuid } = await create(headers, { mode: 'styling', style: 'toy', images: [upload.uuid] });
    await runJobsUntilEnded(uuid);
    expect((await shown(uuid, headers)).result.engine).toBe('local');
    expect(replicate.creates).toBe(before);
    const photos = replicate.uploadedFiles.slice(uploaded);
    expect(photos).toHaveLength(1);
    expect(replicate.deletedFiles).toContain(photos[0]);
  });

  it('a failed delete is logged and the generation still completes', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      replicate.failNextDeletes({ status: 500 });
      const { uuid } = await create(headers, {
        mode: 'editing',
        prompt: 'a pink sky',
        images: [upload.uuid],
      });
      await t.runJobs();
      expect((await shown(uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
      const photo = fileIdOf(
        replicate.predictions.get((await rowOf(uuid)).providerJobId!)!.input.input_image,
      );
      expect(asksToDelete(photo)).toBe(1);
      expect(replicate.deletedFiles).not.toContain(photo);
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining(`Replicate's file ${photo} could not be deleted (500)`),
      );
      expect(await entriesOf(user.id)).toEqual([-3]);
    } finally {
      warn.mockRestore();
    }
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

  it('out of order: a late `processing` and a duplicate `succeeded` after the end change nothing', async () => {
    const { user, headers, uuid, id } = await acceptedThenStopped();
    const succeeded = await replicate.finish(id);
    const first = await deliver(succeeded);
    expect([first.statusCode, first.json().detail]).toEqual([200, 'finished']);
    const stored = await rowOf(uuid);
    expect(stored.status).toBe(GenerationStatus.COMPLETED);
    const late = replicate.signWebhook(
      JSON.stringify({ ...JSON.parse(succeeded.body), status: 'processing', output: null }),
    );
    expect((await deliver(late)).json().detail).toBe('noted');
    const duplicate = replicate.signWebhook(succeeded.body);
    expect((await deliver(duplicate)).json().detail).toBe('already finished');
    const after = await rowOf(uuid);
    expect(after.status).toBe(GenerationStatus.COMPLETED);
    expect(after.result).toEqual(stored.result);
    expect(after.refunded).toBe(false);
    expect((await shown(uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
    expect(await entriesOf(user.id)).toEqual([-2]);
  });

  it('a prediction finished by its webhook has its uploaded photo deleted once, duplicates or not', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const { uuid } = await create(headers, {
      mode: 'editing',
      prompt: 'make the sky pink',
      images: [upload.uuid],
    });
    replicate.failNextReads({ status: 502 });
    await expect(
      runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 }),
    ).rejects.toThrow();
    const id = (await rowOf(uuid)).providerJobId!;
    const photo = fileIdOf(replicate.predictions.get(id)!.input.input_image);
    expect(replicate.deletedFiles).not.toContain(photo);
    const webhook = await replicate.finish(id);
    expect((await deliver(webhook)).json().detail).toBe('finished');
    expect((await deliver(webhook)).json().detail).toBe('already finished');
    expect(replicate.deletedFiles).toContain(photo);
    expect(asksToDelete(photo)).toBe(1);
  });

  it('a failed prediction’s delivery deletes its uploaded photo', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const { uuid } = await create(headers, {
      mode: 'editing',
      prompt: 'make it snow',
      images: [upload.uuid],
    });
    replicate.failNextReads({ status: 502 });
    await expect(
      runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 }),
    ).rejects.toThrow();
    const id = (await rowOf(uuid)).providerJobId!;
    const prediction = replicate.predictions.get(id)!;
    const photo = fileIdOf(prediction.input.input_image);
    const body = JSON.stringify({
      id,
      status: 'failed',
      error: 'CUDA out of memory',
      input: prediction.input,
    });
    expect((await deliver(replicate.signWebhook(body))).json().detail).toBe('finished');
    expect((await deliver(replicate.signWebhook(body))).json().detail).toBe('already finished');
    expect((await rowOf(uuid)).refunded).toBe(true);
    expect(replicate.deletedFiles).toContain(photo);
    expect(asksToDelete(photo)).toBe(1);
    expect(await entriesOf(user.id)).toEqual([-3, 3]);
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
