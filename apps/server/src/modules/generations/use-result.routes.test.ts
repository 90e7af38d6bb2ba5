import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineRegistry } from '../../engines/index.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { completedGeneration, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// Starting a new generation from one of my results: the server copies the stored picture into my
// uploads, so the browser never downloads the result from the store to upload it again (with S3
// that download would be cross-origin and need bucket CORS). Runs on local disk and, under
// TEST_STORAGE=s3, against the S3-compatible test server.

const engine = createScriptedEngine('test');
let t: TestApp;
let alice: Person;
beforeAll(async () => {
  t = await createTestApp({
    env: { ENGINE_SIMPLE: 'test', ENGINE_EDITING: 'test', FREE_DAILY_PHOTOS: '1000' },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
  alice = await signedInPerson(t);
});
afterAll(() => t?.close());

const useResult = (person: Person, uuid: string) =>
  t.app.inject({ method: 'POST', url: `/api/generations/${uuid}/use_result/`, headers: person.headers });

describe('POST /api/generations/:uuid/use_result/', () => {
  it('copies my result into my uploads on the server, the same upload each time', async () => {
    const generation = await completedGeneration(t, alice, { mode: 'simple', prompt: 'a red kite' });
    expect(generation.status).toBe(GenerationStatus.COMPLETED);

    const first = await useResult(alice, generation.uuid);
    expect(first.statusCode).toBe(201);
    const upload = first.json();
    expect(upload).toMatchObject({
      width: generation.result.width,
      height: generation.result.height,
      content_type: generation.result.content_type,
    });
    const again = await useResult(alice, generation.uuid);
    expect(again.statusCode).toBe(201);
    expect(again.json().uuid).toBe(upload.uuid);

    // The copy holds the result's bytes, under my uploads (its own key, not the result's).
    const [copy, original] = await Promise.all([
      t.fetchMedia(upload.url),
      t.fetchMedia(generation.result.url),
    ]);
    expect(copy.statusCode).toBe(200);
    expect(copy.rawPayload.equals(original.rawPayload)).toBe(true);
    expect(upload.bytes).toBe(original.rawPayload.length);

    // It is an upload like any other: it starts a generation of mine.
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/uploads/${upload.uuid}/`,
      headers: alice.headers,
    });
    expect(mine.statusCode).toBe(200);
    const edit = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: alice.headers,
      payload: { mode: 'editing', prompt: 'make the kite blue', images: [upload.uuid] },
    });
    expect(edit.statusCode).toBe(201);
  });

  it('answers 404 for someone else’s result and for a generation without a result yet', async () => {
    const generation = await completedGeneration(t, alice, { mode: 'simple', prompt: 'a green kite' });
    const bob = await signedInPerson(t);
    const stranger = await useResult(bob, generation.uuid);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().code).toBe('generations.not_found');

    const queued = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: alice.headers,
      payload: { mode: 'simple', prompt: 'a yellow kite' },
    });
    expect(queued.statusCode).toBe(201);
    const early = await useResult(alice, queued.json().uuid);
    expect(early.statusCode).toBe(404);
    expect(early.json().code).toBe('generations.not_found');
  });
});
