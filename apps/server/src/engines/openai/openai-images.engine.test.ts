import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      ENGINE_EDITING: 'openai',
      ENGINE_STYLING: 'openai',
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
