import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake, type FalFake } from '../fakes/fal.fake.js';
import { FAL_WEBHOOK_PATH } from '../engines/fal/fal-webhook.routes.js';
import { runGeneration } from '../modules/generations/generation-run.usecases.js';
import { createLocalStorage } from '../shared/storage/local-storage.js';
import type { Storage } from '../shared/storage/storage.js';
import { bearer, createActiveUser, login } from '../test/factories.js';
import { generationTestHelpers } from '../test/generations.js';
import { multipartBody, twoToneImage } from '../test/images.js';
import { astronautPhotos, uploadModelPhotos } from '../test/models.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * A disk that stops taking writes (read-only remount, full disk) or a bucket that refuses them:
 * the request is answered 503 with Retry-After — a person is told to try again, a provider
 * delivers its webhook again — never 500, and works again once the store does.
 */
let t: TestApp;
let fal: FalFake;
let mediaDir: string;
/** What the store answers each write with while it is broken; null: it works. */
let writeFailure: (() => Error) | null = null;

const fsError = (code: string, message: string) =>
  Object.assign(new Error(`${code}: ${message}, open '/data/media/x.tmp'`), {
    code,
    errno: -30,
    syscall: 'open',
    path: '/data/media/x.tmp',
  });
/** What the AWS SDK throws for an S3 service's refusal: a named error with `$metadata`. */
const s3Error = () =>
  Object.assign(new Error('Please reduce your request rate.'), {
    name: 'SlowDown',
    $fault: 'server',
    $metadata: { httpStatusCode: 503, attempts: 3 },
  });

function breakableStorage(inner: Storage): Storage {
  return {
    ...inner,
    async put(key, data, contentType) {
      if (writeFailure) throw writeFailure();
      return inner.put(key, data, contentType);
    },
  };
}

beforeAll(async () => {
  mediaDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-outage-media-'));
  fal = await startFalFake({ queueSteps: 1, progressSteps: 1 });
  t = await createTestApp({
    env: {
      MODERATION_IMAGES: 'false',
      ENGINE_SIMPLE: 'fal',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      FAL_JWKS_URL: fal.jwksUrl,
      FAL_USER_ID: fal.userId,
      FREE_DAILY_PHOTOS: '1000',
      RATE_LIMIT_UPLOADS_PER_USER: '1000',
    },
    overrides: { storage: breakableStorage(createLocalStorage(mediaDir)) },
  });
});
afterAll(async () => {
  await t?.close();
  await fal?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

const FAILURES: Array<[string, () => Error]> = [
  ['a read-only disk (EROFS)', () => fsError('EROFS', 'read-only file system')],
  ['a full disk (ENOSPC)', () => fsError('ENOSPC', 'no space left on device')],
  ['a folder it may not write (EACCES)', () => fsError('EACCES', 'permission denied')],
  ['an S3 store refusing writes', s3Error],
];

function expectTryAgain(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(response.statusCode).toBe(503);
  expect(response.json()).toMatchObject({ code: 'common.unavailable' });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

async function signedIn() {
  const user = await createActiveUser(t);
  return { user, headers: bearer((await login(t, user.email!, user.password)).access) };
}

describe('a storage write that fails', () => {
  it.each(FAILURES)(
    'an upload on %s answers 503 with Retry-After, then works again',
    async (_name, failure) => {
      const { headers } = await signedIn();
      const image = await twoToneImage(120, 80, 'jpeg');
      const upload = () => {
        const body = multipartBody([
          { name: 'file', filename: 'p.jpg', contentType: 'image/jpeg', data: image },
        ]);
        return t.app.inject({
          method: 'POST',
          url: '/api/uploads/',
          payload: body.payload,
          headers: { ...headers, ...body.headers },
        });
      };
      writeFailure = failure;
      try {
        expectTryAgain(await upload());
      } finally {
        writeFailure = null;
      }
      expect((await upload()).statusCode).toBe(201);
    },
  );

  it('a model photo on a full disk answers 503 with Retry-After, then is accepted', async () => {
    const { headers } = await signedIn();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/models/',
      headers,
      payload: { name: 'Me', category: 'female' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { uuid } = created.json();
    const [photo] = await astronautPhotos();
    writeFailure = FAILURES[1]![1];
    try {
      expectTryAgain(await uploadModelPhotos(t, headers, uuid, [{ data: photo! }]));
    } finally {
      writeFailure = null;
    }
    expect((await uploadModelPhotos(t, headers, uuid, [{ data: photo! }])).statusCode).toBe(201);
  });

  it('a provider’s webhook on a read-only disk answers 503, and its next delivery finishes the generation', async () => {
    const { signedInUser, create, rowOf } = generationTestHelpers(() => t);
    const { headers } = await signedInUser();
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a lighthouse at dusk' });
    // fal accepted the job; the worker's polling run died, so only the webhook can end it.
    fal.failNextStatuses({ status: 503 });
    await expect(
      runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 }),
    ).rejects.toThrow();
    const requestId = (await rowOf(uuid)).providerJobId!.split(' ')[0]!;
    const webhook = await fal.finish(requestId);
    const deliver = () =>
      t.app.inject({
        method: 'POST',
        url: FAL_WEBHOOK_PATH,
        headers: webhook.headers,
        payload: webhook.body,
      });

    writeFailure = FAILURES[0]![1];
    try {
      expectTryAgain(await deliver());
    } finally {
      writeFailure = null;
    }
    expect((await rowOf(uuid)).status).not.toBe(GenerationStatus.COMPLETED);
    expect((await deliver()).statusCode).toBe(200);
    expect((await rowOf(uuid)).status).toBe(GenerationStatus.COMPLETED);
  });
});
