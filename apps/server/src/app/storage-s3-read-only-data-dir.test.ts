import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GenerationStatus } from '@mirra/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Fake, type S3Fake } from '../fakes/s3.fake.js';
import { multipartBody, twoToneImage } from '../test/images.js';
import { completedGeneration, publish, signedInPerson, type Person } from '../test/posts-factories.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * With STORAGE_URL set, DATA_DIR/media is never touched: here it is a plain file (so even root,
 * for whom permission bits mean nothing, cannot create or read anything under it) inside a data
 * folder made read-only, and a person's whole path through the app still works.
 */
let s3: S3Fake;
let t: TestApp;
let person: Person;
const MARKER = 'not a folder: nothing may be stored here when STORAGE_URL is set';

beforeAll(async () => {
  s3 = await startS3Fake();
  t = await createTestApp({
    env: {
      ...s3.env('read-only'),
      ENGINE_SIMPLE: 'local',
      ENGINE_EDITING: 'local',
      FREE_DAILY_PHOTOS: '100',
    },
  });
  person = await signedInPerson(t);
  await rm(t.deps.config.mediaDir, { recursive: true, force: true });
  await mkdir(path.dirname(t.deps.config.mediaDir), { recursive: true });
  await writeFile(t.deps.config.mediaDir, MARKER);
  await chmod(t.deps.config.mediaDir, 0o444);
  await chmod(t.deps.config.dataDir, 0o555);
});
afterAll(async () => {
  await chmod(t.deps.config.dataDir, 0o755);
  await t.close();
  await s3.close();
});

describe('an app with S3 storage and a read-only data folder', () => {
  it('takes an upload, runs a generation on it, serves the result and publishes it, all from the bucket', async () => {
    const body = multipartBody([
      { name: 'file', filename: 'me.jpg', contentType: 'image/jpeg', data: await twoToneImage(300, 200) },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/',
      payload: body.payload,
      headers: { ...person.headers, ...body.headers },
    });
    expect(uploaded.statusCode).toBe(201);
    const upload = uploaded.json();
    expect(upload.url.startsWith(`${s3.endpoint}/`)).toBe(true);
    expect((await t.fetchMedia(upload.url)).statusCode).toBe(200);

    const done = await completedGeneration(t, person, {
      mode: 'editing',
      prompt: 'make it brighter',
      images: [upload.uuid],
      seed: 3,
    });
    expect(done.status).toBe(GenerationStatus.COMPLETED);
    for (const url of [done.result.url, done.result.download_url, done.result.variants[0].url]) {
      expect(url.startsWith(`${s3.endpoint}/`)).toBe(true);
      const file = await t.fetchMedia(url);
      expect(file.statusCode).toBe(200);
      expect((await sharp(file.rawPayload).metadata()).width).toBeGreaterThan(0);
    }

    const post = await publish(t, person, done.uuid);
    expect((await t.fetchMedia(post.image.url)).statusCode).toBe(200);

    // The app's pages may load and fetch media from the store's origin.
    const policy = (await t.app.inject({ method: 'GET', url: '/api/config/' })).headers[
      'content-security-policy'
    ];
    for (const directive of ['img-src', 'media-src', 'connect-src']) {
      expect(String(policy)).toMatch(new RegExp(`${directive} [^;]*${s3.endpoint.replace(/\./g, '\\.')}`));
    }

    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toMatchObject({ checks: { storage: 'ok' } });

    // Nothing was written beside the data folder's own files, and the media path is untouched.
    expect(await readFile(t.deps.config.mediaDir, 'utf8')).toBe(MARKER);
    expect((await readdir(t.deps.config.dataDir)).sort()).toEqual(['media']);
  });
});
