import { loadTestFaces } from '@mirra/imaging/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake, type FalFake } from '../../fakes/fal.fake.js';
import { grantWelcomeCredits } from '../../modules/credits/credits.usecases.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { multipartBody } from '../../test/images.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The talking photo at fal (VEED Fabric), against the fake fal: the portrait and the words go to
 * the text model (its own voice says them), the portrait and the recorded voice to the audio model,
 * and the recording is deleted once the video is back.
 */
let fal: FalFake;
let t: TestApp;
let owner: { id: number; headers: Record<string, string> };
let portrait: { uuid: string; data: Buffer };

beforeAll(async () => {
  fal = await startFalFake({ queueSteps: 1, progressSteps: 1 });
  t = await createTestApp({
    env: {
      ENGINE_TALKING_PHOTO: 'fal',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      FAL_JWKS_URL: fal.jwksUrl,
      FAL_USER_ID: fal.userId,
      FREE_DAILY_PHOTOS: '1000',
      GENERATION_MAX_ATTEMPTS: '1',
    },
  });
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 200);
  owner = { id: user.id, headers: bearer((await login(t, user.email!, user.password)).access) };
  const upload = await createUploadFor(t, user.id, (await loadTestFaces()).graceHopper);
  const row = await t.deps.db.query.uploads.findFirst({ where: (u, { eq }) => eq(u.uuid, upload.uuid) });
  portrait = { uuid: upload.uuid, data: (await t.deps.storage.get(row!.storageKey))!.data };
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fal?.close();
});

async function createAndRun(body: object) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/generations/',
    headers: owner.headers,
    payload: body,
  });
  expect(created.statusCode, created.body).toBe(201);
  await t.runJobs();
  const uuid = created.json().uuid as string;
  const row = (await t.deps.db.query.generations.findFirst({ where: (g, { eq }) => eq(g.uuid, uuid) }))!;
  const job = fal.jobs.get(row.providerJobId!.split(' ')[0]!)!;
  const shown = (
    await t.app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers: owner.headers })
  ).json();
  return { job, shown };
}

const dataUriBytes = (uri: unknown) => Buffer.from(String(uri).split(',')[1]!, 'base64');

describe('talking photo at fal', () => {
  it('a text goes with the portrait to Fabric’s text model, said in its own language', async () => {
    const text = 'Привет! Как дела?';
    const { job, shown } = await createAndRun({
      mode: 'talking_photo',
      prompt: text,
      images: [portrait.uuid],
      settings: { language: 'ru' },
    });
    expect(job.model).toBe('veed/fabric-1.0/text');
    expect(job.input).toMatchObject({ text, resolution: '720p' });
    expect(job.input.audio_url).toBeUndefined();
    expect(dataUriBytes(job.input.image_url).equals(portrait.data)).toBe(true);
    expect(shown.status, JSON.stringify(shown)).toBe(100);
    expect(shown.result.content_type).toBe('video/mp4');
  }, 60_000);

  it('a recorded voice goes as the audio with the portrait to Fabric, and is deleted after', async () => {
    const voice = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(400, 7)]);
    const body = multipartBody([
      { name: 'file', filename: 'voice.ogg', contentType: 'audio/ogg', data: voice },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/',
      payload: body.payload,
      headers: { ...owner.headers, ...body.headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { job, shown } = await createAndRun({
      mode: 'talking_photo',
      images: [portrait.uuid],
      settings: { voice: uploaded.json().uuid },
      duration: 3,
    });
    expect(job.model).toBe('veed/fabric-1.0');
    expect(job.input).toMatchObject({ resolution: '720p' });
    expect(String(job.input.audio_url)).toMatch(/^data:audio\/ogg;base64,/);
    expect(dataUriBytes(job.input.audio_url).equals(voice)).toBe(true);
    expect(dataUriBytes(job.input.image_url).equals(portrait.data)).toBe(true);
    expect(shown.status, JSON.stringify(shown)).toBe(100);
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/uploads/${uploaded.json().uuid}/`,
      headers: owner.headers,
    });
    expect(gone.statusCode).toBe(404);
  }, 60_000);
});
