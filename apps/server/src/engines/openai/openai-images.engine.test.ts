import { GenerationStatus } from '@mirra/contracts';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiSdkFailure } from './openai-images.engine.js';
import { OPENAI_REFUSED_WORD, startOpenAiFake, type OpenAiFake } from '../../fakes/openai.fake.js';
import { createUploadFor } from '../../test/factories.js';
import { generationTestHelpers } from '../../test/generations.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** The OpenAI images engine (gpt-image-1) against the fake OpenAI API, through the whole generation. */
let openai: OpenAiFake;
let t: TestApp;
beforeAll(async () => {
  openai = await startOpenAiFake();
  t = await createTestApp({
    env: {
      // What is checked here is the adapter; the bundled image classifier (tested on its own)
      // now and then refuses one of the fake's random drawings, which would fail a step at random.
      MODERATION_IMAGES: 'false',
      ENGINE_SIMPLE: 'openai,local',
      ENGINE_EDITING: 'openai,local',
      ENGINE_STYLING: 'openai,local',
      ENGINE_INPAINT: 'openai',
      OPENAI_API_KEY: openai.apiKey!,
      OPENAI_BASE_URL: openai.url,
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
  await openai?.close();
});

const helpers = generationTestHelpers(() => t);
const { signedInUser, entriesOf } = helpers;
async function createAndRun(headers: Record<string, string>, body: object) {
  const { uuid } = await helpers.create(headers, body);
  await t.runJobs();
  return { shown: await helpers.shown(uuid, headers), row: await helpers.rowOf(uuid) };
}
const imageRequests = () => openai.requests.filter((request) => request.endpoint === 'images');
describe('the OpenAI images engine', () => {
  it('makes a picture with gpt-image-1: the model named, the generation as `user`, stored and priced', async () => {
    const { user, headers } = await signedInUser();
    openai.reset();
    const { shown, row } = await createAndRun(headers, { mode: 'simple', prompt: 'a lantern on a pier' });
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(shown.result.engine).toBe('openai');
    expect(shown.result.notes).toContainEqual(
      expect.objectContaining({
        code: 'provider.made_by',
        params: { engine: 'openai', model: 'gpt-image-1' },
      }),
    );
    const [request] = imageRequests();
    expect(request!.body).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'a lantern on a pier',
      user: shown.uuid,
    });
    expect(request!.authorization).toBe(`Bearer ${openai.apiKey}`);
    expect(row.providerCostUsd).toBeCloseTo(0.042, 6);
    expect(row.providerJobId).toBeNull();
    expect(await entriesOf(user.id)).toEqual([-2]);
  });

  it('edits and styles a photo through /v1/images/edits with the photo as a file', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    openai.reset();
    const edited = await createAndRun(headers, {
      mode: 'editing',
      prompt: 'make her hair blonde',
      images: [upload.uuid],
    });
    const styled = await createAndRun(headers, {
      mode: 'styling',
      prompt: '',
      style: 'pencil',
      images: [upload.uuid],
    });
    expect(edited.shown.status, edited.shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(styled.shown.status, styled.shown.error_detail).toBe(GenerationStatus.COMPLETED);
    const [edit, style] = imageRequests();
    expect(edit!.body).toMatchObject({ prompt: 'make her hair blonde', model: 'gpt-image-1' });
    expect((edit!.body.image as Array<{ file: Buffer }>)[0]!.file.length).toBeGreaterThan(100);
    expect(String(style!.body.prompt)).toMatch(/pencil sketch/);
  });

  it('a refusal by its safety system ends as moderated, refunded once, no other engine asked', async () => {
    const { user, headers } = await signedInUser();
    openai.reset();
    const { row } = await createAndRun(headers, {
      mode: 'simple',
      prompt: `a ${OPENAI_REFUSED_WORD} poster`,
    });
    expect(row).toMatchObject({
      status: GenerationStatus.ERROR,
      engine: 'openai',
      errorCode: 'generations.result_moderated',
      errorDetail: 'Moderation failed, credits refunded',
    });
    expect(imageRequests()).toHaveLength(1);
    expect(await entriesOf(user.id)).toEqual([-2, 2]);
  });

  it('a 5xx, or a 429 still there after its Retry-After, moves to the next engine; one 429 is waited out', async () => {
    const { headers } = await signedInUser();
    openai.script('images', [{ status: 500 }]);
    expect((await createAndRun(headers, { mode: 'simple', prompt: 'a kite' })).shown.result.engine).toBe(
      'local',
    );
    openai.script('images', [{ status: 429 }, { status: 429 }]);
    expect((await createAndRun(headers, { mode: 'simple', prompt: 'a kite' })).shown.result.engine).toBe(
      'local',
    );
    openai.script('images', [{ status: 429 }]);
    expect((await createAndRun(headers, { mode: 'simple', prompt: 'a kite' })).shown.result.engine).toBe(
      'openai',
    );
  });
});

describe('what the fake receives over HTTP from the SDK', () => {
  it('generations: one JSON request with every field the engine sets', async () => {
    const { headers } = await signedInUser();
    openai.reset();
    const { shown } = await createAndRun(headers, { mode: 'simple', prompt: 'a red fox in the snow' });
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(imageRequests()).toHaveLength(1);
    const [request] = imageRequests();
    expect(request!.path).toBe('/v1/images/generations');
    expect(request!.contentType).toBe('application/json');
    expect(request!.body).toEqual({
      model: 'gpt-image-1',
      prompt: 'a red fox in the snow',
      n: 1,
      size: '1024x1024',
      quality: 'medium',
      output_format: 'png',
      moderation: 'auto',
      user: shown.uuid,
    });
  });

  it('edits: multipart with the photo’s own bytes as the one `image[]` file, and the fields as text', async () => {
    const { user, headers } = await signedInUser();
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#c84' } })
      .jpeg()
      .toBuffer();
    const upload = await createUploadFor(t, user.id, photo);
    openai.reset();
    const { shown } = await createAndRun(headers, {
      mode: 'editing',
      prompt: 'add a rainbow',
      images: [upload.uuid],
    });
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(shown.result.engine).toBe('openai');
    expect(imageRequests()).toHaveLength(1);
    const [request] = imageRequests();
    expect(request!.path).toBe('/v1/images/edits');
    expect(request!.contentType).toBe('multipart/form-data');
    const { image, ...fields } = request!.body;
    expect(fields).toEqual({
      prompt: 'add a rainbow',
      model: 'gpt-image-1',
      n: '1',
      size: 'auto',
      quality: 'medium',
      output_format: 'png',
      user: shown.uuid,
    });
    const files = image as Array<{ file: Buffer; type: string }>;
    expect(files).toHaveLength(1);
    expect(files[0]!.type).toBe('image/jpeg');
    expect(files[0]!.file.equals(photo)).toBe(true);
  });

  it('sizes by the asked frame shape, one picture a call; an inpaint sends the mask with the part to change transparent', async () => {
    const { user, headers } = await signedInUser();
    openai.reset();
    const run = await helpers.create(headers, {
      mode: 'simple',
      prompt: 'a harbour',
      count: 2,
      aspect: '9:16',
    });
    await t.runJobs();
    expect((await helpers.shown(run.uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
    expect(imageRequests().map((request) => [request.body.size, request.body.n])).toEqual([
      ['1024x1536', 1],
      ['1024x1536', 1],
    ]);

    const photo = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#48c' } })
      .jpeg()
      .toBuffer();
    // White over the left half: the part to change.
    const maskPng = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#000' } })
      .composite([
        {
          input: await sharp({ create: { width: 100, height: 100, channels: 3, background: '#fff' } })
            .png()
            .toBuffer(),
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const [upload, mask] = [
      await createUploadFor(t, user.id, photo),
      await createUploadFor(t, user.id, maskPng),
    ];
    openai.reset();
    const { shown } = await createAndRun(headers, {
      mode: 'inpaint',
      prompt: 'a red boat',
      images: [upload.uuid],
      settings: { mask: mask.uuid },
    });
    expect(shown.status, shown.error_detail).toBe(GenerationStatus.COMPLETED);
    const [request] = imageRequests();
    expect(request!.path).toBe('/v1/images/edits');
    const [sent] = request!.body.mask as Array<{ file: Buffer; type: string }>;
    expect(sent!.type).toBe('image/png');
    const { data, info } = await sharp(sent!.file).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([200, 100, 4]);
    expect(data[(50 * 200 + 20) * 4 + 3]).toBeLessThan(10); // painted: editable
    expect(data[(50 * 200 + 180) * 4 + 3]).toBeGreaterThan(245); // kept
  });
});

describe('how OpenAI’s failures end, over HTTP', () => {
  it('a safety refusal of an edit ends as moderated, refunded once, the fallback engine not asked', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    openai.reset();
    const { row } = await createAndRun(headers, {
      mode: 'editing',
      prompt: `paint a ${OPENAI_REFUSED_WORD} sign on the wall`,
      images: [upload.uuid],
    });
    expect(row).toMatchObject({
      status: GenerationStatus.ERROR,
      engine: 'openai',
      errorCode: 'generations.result_moderated',
      errorDetail: 'Moderation failed, credits refunded',
    });
    expect(imageRequests().map((request) => request.path)).toEqual(['/v1/images/edits']);
    expect(await entriesOf(user.id)).toEqual([-3, 3]);
  });

  it('a 5xx on an edit, or a key it refuses, is sent once (no retry by the SDK) and the next engine makes it', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    openai.reset();
    openai.script('images', [{ status: 503 }]);
    const styled = await createAndRun(headers, {
      mode: 'styling',
      prompt: '',
      style: 'pencil',
      images: [upload.uuid],
    });
    expect(styled.shown.status, styled.shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(styled.shown.result.engine).toBe('local');
    expect(imageRequests().map((request) => request.path)).toEqual(['/v1/images/edits']);

    openai.reset();
    openai.script('images', [{ status: 500 }]);
    const simple = await createAndRun(headers, { mode: 'simple', prompt: 'a lighthouse' });
    expect(simple.shown.result.engine).toBe('local');
    expect(imageRequests()).toHaveLength(1);

    openai.reset();
    openai.script('images', [{ status: 401 }]);
    const refusedKey = await createAndRun(headers, { mode: 'simple', prompt: 'a lighthouse' });
    expect(refusedKey.shown.result.engine).toBe('local');
    expect(imageRequests()).toHaveLength(1);
  });

  it('a 429 asking for a long wait goes to the next engine at once; one whose Retry-After is an HTTP date is waited out', async () => {
    const { headers } = await signedInUser();
    openai.reset();
    openai.script('images', [{ status: 429, retryAfter: '120' }]);
    const long = await createAndRun(headers, { mode: 'simple', prompt: 'a harbour' });
    expect(long.shown.result.engine).toBe('local');
    expect(imageRequests()).toHaveLength(1);

    openai.reset();
    openai.script('images', [{ status: 429, retryAfter: new Date(Date.now() + 1000).toUTCString() }]);
    const dated = await createAndRun(headers, { mode: 'simple', prompt: 'a harbour' });
    expect(dated.shown.status, dated.shown.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(dated.shown.result.engine).toBe('openai');
    expect(imageRequests()).toHaveLength(2);
  });
});

describe('openAiSdkFailure: the SDK’s errors as engine outcomes', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const apiError = (status: number, error: object, headers: Record<string, string> = {}) =>
    APIError.generate(status, { error }, undefined, new Headers(headers));

  it('no answer in time, or the job cancelled, is a timeout; no connection is an outage', () => {
    expect(openAiSdkFailure(new APIConnectionTimeoutError(), now)).toMatchObject({
      code: 'engine.timeout',
      retryable: true,
    });
    expect(openAiSdkFailure(new APIUserAbortError(), now)).toMatchObject({ code: 'engine.timeout' });
    expect(openAiSdkFailure(new APIConnectionError({ cause: new Error('ECONNREFUSED') }), now)).toMatchObject(
      { code: 'engine.unavailable', retryable: true },
    );
  });

  it('a 429 carries its Retry-After (seconds or an HTTP date); 5xx and a refused key are outages', () => {
    const limited = openAiSdkFailure(apiError(429, { type: 'requests' }, { 'retry-after': '7' }), now);
    expect(limited).toMatchObject({ code: 'engine.unavailable', retryAfterSeconds: 7 });
    const dated = openAiSdkFailure(
      apiError(429, { type: 'requests' }, { 'retry-after': 'Fri, 27 Nov 2026 12:00:20 GMT' }),
      now,
    );
    expect(dated.retryAfterSeconds).toBe(20);
    expect(openAiSdkFailure(apiError(429, {}), now).retryAfterSeconds).toBeNull();
    expect(openAiSdkFailure(apiError(502, { type: 'server_error' }), now)).toMatchObject({
      code: 'engine.unavailable',
      retryAfterSeconds: null,
    });
    expect(openAiSdkFailure(apiError(401, { code: 'invalid_api_key' }), now).code).toBe('engine.unavailable');
  });

  it('its safety system’s refusal is final; another 400 is a failure with OpenAI’s message', () => {
    const refusal = { type: 'image_generation_user_error', code: 'moderation_blocked', message: 'No.' };
    expect(openAiSdkFailure(apiError(400, refusal), now)).toMatchObject({
      code: 'engine.refused',
      retryable: false,
    });
    expect(
      openAiSdkFailure(apiError(400, { code: 'content_policy_violation', message: 'No.' }), now).code,
    ).toBe('engine.refused');
    expect(
      openAiSdkFailure(apiError(400, { message: "Invalid value: 'size'.", code: null }), now),
    ).toMatchObject({ code: 'engine.failed', message: "Invalid value: 'size'.", retryable: false });
  });
});
