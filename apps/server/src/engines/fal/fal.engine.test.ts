import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_WORD, startFalFake, type FalFake, type SignedWebhook } from '../../fakes/fal.fake.js';
import { runGeneration } from '../../modules/generations/generation-run.usecases.js';
import { createUploadFor } from '../../test/factories.js';
import { generationTestHelpers } from '../../test/generations.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { FAL_WEBHOOK_PATH } from './fal-webhook.routes.js';

/**
 * The fal engine against the fake fal queue, through the whole generation: the API charges, the
 * worker submits and polls (or fal's webhook finishes it), the result lands in Mirra's storage.
 */
let fal: FalFake;
let t: TestApp;
beforeAll(async () => {
  fal = await startFalFake({ queueSteps: 1, progressSteps: 1 });
  t = await createTestApp({
    env: {
      // What is checked here is the adapter; the bundled image classifier (tested on its own)
      // now and then refuses one of the fake's random drawings, which would fail a step at random.
      MODERATION_IMAGES: 'false',
      ENGINE_SIMPLE: 'fal,local',
      ENGINE_EDITING: 'fal',
      ENGINE_STYLING: 'fal,local',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      FAL_JWKS_URL: fal.jwksUrl,
      FAL_USER_ID: fal.userId,
      PRICE_SIMPLE: '2',
      PRICE_EDITING: '3',
      PRICE_STYLING: '3',
      FREE_DAILY_PHOTOS: '1000',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fal?.close();
});

const { signedInUser, create, rowOf, shown, entriesOf, runJobsUntilEnded } = generationTestHelpers(() => t);
const requestIdOf = async (uuid: string) => (await rowOf(uuid)).providerJobId!.split(' ')[0]!;
const deliver = (webhook: SignedWebhook, body = webhook.body) =>
  t.app.inject({ method: 'POST', url: FAL_WEBHOOK_PATH, headers: webhook.headers, payload: body });

describe('the fal engine, polled by the worker', () => {
  it('makes a simple picture with FLUX: stored, engine and model in the notes, cost recorded, charged once', async () => {
    const { user, headers } = await signedInUser();
    const before = fal.submissions;
    const { uuid } = await create(headers, {
      mode: 'simple',
      prompt: 'a red fox in a snowy forest',
      seed: 7,
    });
    await t.runJobs();

    const done = await shown(uuid, headers);
    expect(done.status).toBe(GenerationStatus.COMPLETED);
    expect(done.result.engine).toBe('fal');
    expect(done.result.notes).toContainEqual({
      code: 'provider.made_by',
      params: { engine: 'fal', model: 'fal-ai/flux/schnell' },
      text: 'Made by fal with fal-ai/flux/schnell.',
    });
    const row = await rowOf(uuid);
    expect(row.provider).toBe('fal');
    expect(row.providerCostUsd).toBeCloseTo(0.003, 6);
    expect(fal.submissions).toBe(before + 1);
    const job = fal.jobs.get(row.providerJobId!.split(' ')[0]!)!;
    expect(job.model).toBe('fal-ai/flux/schnell');
    expect(job.input).toMatchObject({ prompt: 'a red fox in a snowy forest', seed: 7 });
    expect(job.webhookUrl).toBe('http://mirra.test/api/engines/fal/webhook/');
    const stored = await t.deps.storage.get((row.result as { original: { key: string } }).original.key);
    expect(stored?.data.length).toBeGreaterThan(1000);
    expect(await entriesOf(user.id)).toEqual([-2]);
  });

  it('edits a photo with FLUX Kontext, and styles one with a style prompt', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const edit = await create(headers, {
      mode: 'editing',
      prompt: 'make the sky pink',
      images: [upload.uuid],
    });
    const styled = await create(headers, {
      mode: 'styling',
      prompt: '',
      style: 'watercolor',
      images: [upload.uuid],
    });
    await t.runJobs();

    for (const { uuid } of [edit, styled]) {
      const done = await shown(uuid, headers);
      expect(done.status).toBe(GenerationStatus.COMPLETED);
      expect(done.result.engine).toBe('fal');
      const job = fal.jobs.get(await requestIdOf(uuid))!;
      expect(job.model).toBe('fal-ai/flux-pro/kontext');
      expect(String(job.input.image_url)).toMatch(/^data:image\/\w+;base64,/);
    }
    expect(fal.jobs.get(await requestIdOf(styled.uuid))!.input.prompt).toMatch(/watercolour/);
  });
});

describe('outages and refusals', () => {
  it('a 5xx from fal moves the generation to the next engine of the list (local)', async () => {
    const { user, headers } = await signedInUser();
    const before = fal.submissions;
    fal.failNextSubmits({ status: 503 });
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a lighthouse at dusk' });
    await t.runJobs();

    const done = await shown(uuid, headers);
    expect(done.status).toBe(GenerationStatus.COMPLETED);
    expect(done.result.engine).toBe('local');
    expect(done.result.notes).toContainEqual({
      code: 'provider.fallback',
      params: { engine: 'local', unavailable: 'fal' },
      text: 'Made by local: fal unavailable.',
    });
    expect((await rowOf(uuid)).engine).toBe('local');
    expect(fal.submissions).toBe(before);
    expect(await entriesOf(user.id)).toEqual([-2]);
  });

  it('a dropped connection, or a 429 still there after its Retry-After, moves on too; one 429 is waited out', async () => {
    const { headers } = await signedInUser();
    fal.failNextSubmits({ status: 'disconnect' });
    const dropped = await create(headers, { mode: 'simple', prompt: 'a boat' });
    await runJobsUntilEnded(dropped.uuid);
    expect((await shown(dropped.uuid, headers)).result.engine).toBe('local');

    fal.failNextSubmits({ status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 });
    const limited = await create(headers, { mode: 'simple', prompt: 'a boat' });
    await runJobsUntilEnded(limited.uuid);
    expect((await shown(limited.uuid, headers)).result.engine).toBe('local');

    fal.failNextSubmits({ status: 429, retryAfter: 1 });
    const waited = await create(headers, { mode: 'simple', prompt: 'a boat' });
    await runJobsUntilEnded(waited.uuid);
    expect((await shown(waited.uuid, headers)).result.engine).toBe('fal');
  });

  it('a refusal by FLUX’s safety checker ends as moderated with one refund, and no other engine is asked', async () => {
    const { user, headers } = await signedInUser();
    const before = fal.submissions;
    const { uuid } = await create(headers, { mode: 'simple', prompt: `a ${REFUSED_WORD} scene` });
    await t.runJobs();

    const ended = await shown(uuid, headers);
    expect(ended.status).toBe(GenerationStatus.ERROR);
    expect(await rowOf(uuid)).toMatchObject({
      engine: 'fal',
      errorCode: 'generations.result_moderated',
      errorDetail: 'Moderation failed, credits refunded',
      refunded: true,
    });
    expect(fal.submissions).toBe(before + 1);
    expect(await entriesOf(user.id)).toEqual([-2, 2]);
  });

  it('a refusal by Kontext’s content checker (422 content_policy_violation) ends the same way', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const { uuid } = await create(headers, {
      mode: 'editing',
      prompt: `make it ${REFUSED_WORD}`,
      images: [upload.uuid],
    });
    await t.runJobs();
    expect(await rowOf(uuid)).toMatchObject({
      status: GenerationStatus.ERROR,
      errorCode: 'generations.result_moderated',
    });
    expect(await entriesOf(user.id)).toEqual([-3, 3]);
  });
});

describe('a job fal accepted is never submitted twice', () => {
  it('a run that fails after the submit is resumed by the stored id on the next attempt', async () => {
    const { user, headers } = await signedInUser();
    const before = fal.submissions;
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a quiet harbour' });
    const id = (await rowOf(uuid)).id;
    fal.failNextStatuses({ status: 503 });
    await expect(runGeneration(t.deps, id, { attempt: 1, maxAttempts: 3 })).rejects.toThrow();
    const stopped = await rowOf(uuid);
    expect(stopped.status).toBe(GenerationStatus.IN_QUEUE);
    expect(stopped.provider).toBe('fal');
    expect(stopped.providerJobId).toMatch(/ fal-ai\/flux\/schnell$/);
    expect(fal.submissions).toBe(before + 1);

    await runGeneration(t.deps, id, { attempt: 2, maxAttempts: 3 });
    expect((await rowOf(uuid)).status).toBe(GenerationStatus.COMPLETED);
    expect(fal.submissions).toBe(before + 1);
    expect((await rowOf(uuid)).providerJobId).toBe(stopped.providerJobId);
    expect(await entriesOf(user.id)).toEqual([-2]);
  });
});

describe('fal’s webhook', () => {
  /** A generation fal accepted whose worker run died: only the webhook or a later run can end it. */
  async function acceptedThenStopped(prompt = 'a tram in the rain') {
    const { user, headers } = await signedInUser();
    const { uuid } = await create(headers, { mode: 'simple', prompt });
    fal.failNextStatuses({ status: 503 });
    await expect(
      runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 }),
    ).rejects.toThrow();
    return { user, headers, uuid, requestId: await requestIdOf(uuid) };
  }

  it('finishes the generation; a duplicate and a late ERROR delivery change nothing', async () => {
    const { user, headers, uuid, requestId } = await acceptedThenStopped();
    const webhook = await fal.finish(requestId);

    const first = await deliver(webhook);
    expect(first.statusCode).toBe(200);
    const done = await shown(uuid, headers);
    expect(done.status).toBe(GenerationStatus.COMPLETED);
    expect(done.result.engine).toBe('fal');
    const key = ((await rowOf(uuid)).result as { original: { key: string } }).original.key;
    expect(key).toContain('/webhook/');

    expect((await deliver(webhook)).statusCode).toBe(200);
    const late = fal.signWebhook(
      requestId,
      JSON.stringify({
        request_id: requestId,
        status: 'ERROR',
        error: 'Invalid status code: 500',
        payload: null,
      }),
    );
    expect((await deliver(late)).statusCode).toBe(200);
    expect((await rowOf(uuid)).status).toBe(GenerationStatus.COMPLETED);
    expect(await t.deps.storage.get(key)).not.toBeNull();
    // The worker's retry finds it finished and does nothing.
    await runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 2, maxAttempts: 3 });
    expect(await entriesOf(user.id)).toEqual([-2]);
  });

  it('an ERROR delivery for a refused request ends it as moderated, refunded once however often it comes', async () => {
    const { user, uuid, requestId } = await acceptedThenStopped();
    const body = JSON.stringify({
      request_id: requestId,
      status: 'ERROR',
      error: 'Invalid status code: 422',
      payload: { detail: [{ loc: ['body', 'prompt'], msg: 'flagged', type: 'content_policy_violation' }] },
    });
    const webhook = fal.signWebhook(requestId, body);
    expect((await deliver(webhook)).statusCode).toBe(200);
    expect((await deliver(webhook)).statusCode).toBe(200);
    expect(await rowOf(uuid)).toMatchObject({
      status: GenerationStatus.ERROR,
      errorCode: 'generations.result_moderated',
    });
    await runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 2, maxAttempts: 3 });
    expect(await entriesOf(user.id)).toEqual([-2, 2]);
  });

  it('refuses a forged delivery: tampered body, another account, stale timestamp, unsigned', async () => {
    const { uuid, requestId } = await acceptedThenStopped();
    const webhook = await fal.finish(requestId);
    const forbidden = { detail: 'Forbidden.', code: 'engines.webhook_forbidden' };

    const tampered = await deliver(webhook, webhook.body.replace('"OK"', '"ERROR"'));
    expect([tampered.statusCode, tampered.json()]).toEqual([403, forbidden]);
    const otherUser = await deliver(fal.signWebhook(requestId, webhook.body, { userId: 'someone-else' }));
    expect(otherUser.statusCode).toBe(403);
    const stale = await deliver(
      fal.signWebhook(requestId, webhook.body, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    );
    expect(stale.statusCode).toBe(403);
    const { 'x-fal-webhook-signature': _signature, ...unsigned } = webhook.headers;
    expect((await deliver({ ...webhook, headers: unsigned })).statusCode).toBe(403);
    expect((await rowOf(uuid)).status).toBe(GenerationStatus.IN_QUEUE);
  });

  it('after fal rotates its key, fetches its JWKS again (at most once a minute) and accepts the new signatures', async () => {
    // 404 "not known yet" below means the signature was accepted; 403 that it was refused.
    const unknownRequest = '00000000-0000-4000-8000-000000000001';
    const body = JSON.stringify({ request_id: unknownRequest, status: 'OK', payload: null });
    let now = Date.now() + 3600_000;
    const signedNow = () => fal.signWebhook(unknownRequest, body, { timestamp: Math.floor(now / 1000) });
    try {
      t.setNow(new Date(now));
      expect((await deliver(signedNow())).statusCode).toBe(404);
      const fetchesBefore = fal.jwksFetches;

      fal.rotateKey();
      expect((await deliver(signedNow())).statusCode).toBe(404);
      expect(fal.jwksFetches).toBe(fetchesBefore + 1);
      expect((await deliver(signedNow())).statusCode).toBe(404);
      expect(fal.jwksFetches).toBe(fetchesBefore + 1);

      // Another unknown key within the minute is refused without asking fal again…
      fal.rotateKey();
      now += 30_000;
      t.setNow(new Date(now));
      expect((await deliver(signedNow())).statusCode).toBe(403);
      expect((await deliver(signedNow())).statusCode).toBe(403);
      expect(fal.jwksFetches).toBe(fetchesBefore + 1);
      // …and accepted once the minute has passed.
      now += 31_000;
      t.setNow(new Date(now));
      expect((await deliver(signedNow())).statusCode).toBe(404);
      expect(fal.jwksFetches).toBe(fetchesBefore + 2);
    } finally {
      t.setNow(undefined);
    }
  });

  it('answers 404 for a request it has not recorded, so fal delivers it again later', async () => {
    const body = JSON.stringify({ request_id: 'not-ours', status: 'OK', payload: null });
    const response = await deliver(fal.signWebhook('00000000-0000-4000-8000-000000000000', body));
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('engines.webhook_unknown_request');
  });
});

describe('fal’s queue in the live progress', () => {
  it('the place in fal’s queue reaches the live events while fal holds the job, and is cleared after', async () => {
    await t.deps.notifications!.isListening();
    const { headers } = await signedInUser();
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'boats waiting at a lock' });
    const events: Array<{ status: number; queue_position?: number | null }> = [];
    const stop = t.deps.generationEvents.watch(
      uuid,
      (event) => events.push(event),
      () => undefined,
    );
    try {
      await t.runJobs();
      for (let i = 0; i < 150 && !events.some((e) => e.status === GenerationStatus.COMPLETED); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      stop();
    }
    // The fake keeps a job in its queue for one status read, at place 0 (next).
    expect(events.some((event) => event.queue_position === 0)).toBe(true);
    const completed = events.find((event) => event.status === GenerationStatus.COMPLETED);
    expect(completed).toMatchObject({ queue_position: null });
    expect((await shown(uuid, headers)).queue_position).toBeNull();
  });
});
