import sharp from 'sharp';
import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { descriptorSimilarity, type FaceProfile, readExifLabel } from '@mirra/imaging';
import { modelsRepository } from '../models/models.repository.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createTrainedModel } from '../../test/models.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { composeSideBySide, loadTestFaces, type TestFaces } from '@mirra/imaging/testing';

const noteTexts = (notes: Array<{ text: string }>) => notes.map((note) => note.text);

// Face swap and face photos on the default local engine, end to end: a model trained from real
// photos of one person (the astronaut), real targets, and the real face analyser judging whose
// face the result carries.
let t: TestApp;
let faces: TestFaces;
let owner: { id: number; headers: Record<string, string> };
let modelUuid: string;
let profile: FaceProfile;

beforeAll(async () => {
  // Prices pinned so the 40 credits each person gets cover training and the swaps.
  t = await createTestApp({
    env: { FREE_DAILY_PHOTOS: '1000', PRICE_MODEL_TRAINING: '20', PRICE_FACE_SWAP: '2' },
  });
  faces = await loadTestFaces();
  owner = await signedInUser();
  modelUuid = await createTrainedModel(t, owner.headers);
  const model = await modelsRepository.findOwnedWithProfile(t.deps.db, owner.id, modelUuid);
  profile = model!.profile as FaceProfile;
}, 180_000);
afterAll(() => t?.close());

async function signedInUser() {
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 40);
  const { access } = await login(t, user.email!, user.password);
  return { id: user.id, headers: bearer(access) };
}

const create = (headers: Record<string, string>, body: object) =>
  t.app.inject({ method: 'POST', url: '/api/generations/', headers, payload: body });

async function createAndRun(headers: Record<string, string>, body: object) {
  const created = await create(headers, body);
  expect(created.statusCode, created.body).toBe(201);
  await t.runJobs();
  const done = await t.app.inject({
    method: 'GET',
    url: `/api/generations/${created.json().uuid}/`,
    headers,
  });
  return done.json();
}

async function download(url: string): Promise<Buffer> {
  const response = await t.fetchMedia(url);
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

const balance = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/credits/', headers })).json().balance;

describe('face swap on the local engine', () => {
  it(
    'puts the model’s face on the target: the result is closer to the model than to the target’s own face',
    { timeout: 120_000 },
    async () => {
      const target = await createUploadFor(t, owner.id, faces.graceHopper);
      const before = await balance(owner.headers);
      const done = await createAndRun(owner.headers, {
        mode: 'face_swap',
        model_uuid: modelUuid,
        images: [target.uuid],
      });
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      expect(done.result).toMatchObject({ engine: 'local', width: 512, height: 600 });
      expect(noteTexts(done.result.notes).join(' ')).toMatch(/local engine.*not a generative model/i);
      expect(await balance(owner.headers)).toBe(before - done.cost);

      const result = await download(done.result.download_url);
      const metadata = await sharp(result).metadata();
      expect(readExifLabel(metadata.exif).imageDescription).toMatch(/^Face swapped by Mirra local engine/);
      const swapped = await t.deps.faceAnalyzer.analyze(result);
      const original = await t.deps.faceAnalyzer.analyze(faces.graceHopper);
      expect(swapped.faces).toHaveLength(1);
      const toModel = descriptorSimilarity(swapped.faces[0]!.descriptor, profile.descriptor);
      const toTarget = descriptorSimilarity(swapped.faces[0]!.descriptor, original.faces[0]!.descriptor);
      expect(toModel, `to model ${toModel}, to target ${toTarget}`).toBeGreaterThan(toTarget + 0.15);
      // Before the swap, the target was nothing like the model.
      expect(descriptorSimilarity(original.faces[0]!.descriptor, profile.descriptor)).toBeLessThan(0.4);
      // Only the face changed: the corners of the photo are the target's.
      const [a, b] = await Promise.all(
        [result, faces.graceHopper].map((image) =>
          sharp(image).extract({ left: 0, top: 0, width: 80, height: 80 }).raw().toBuffer(),
        ),
      );
      let difference = 0;
      for (let i = 0; i < a!.length; i++) difference += Math.abs(a![i]! - b![i]!);
      expect(difference / a!.length).toBeLessThan(4);
    },
  );

  it('swaps the largest face when the target has several, and says so', { timeout: 120_000 }, async () => {
    const target = await createUploadFor(
      t,
      owner.id,
      await composeSideBySide(faces.graceHopper, faces.astronaut, 600),
    );
    const done = await createAndRun(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      images: [target.uuid],
    });
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(noteTexts(done.result.notes)).toContain('2 faces were found; the largest one was swapped.');
    const swapped = await t.deps.faceAnalyzer.analyze(await download(done.result.download_url));
    // Grace Hopper's face (the larger one, on the left) is now the model's.
    const left = swapped.faces.find((face) => face.box.x < swapped.image.width / 2)!;
    expect(descriptorSimilarity(left.descriptor, profile.descriptor)).toBeGreaterThan(0.5);
  });

  it('a target without a face ends as ERROR with a clear reason, refunded', { timeout: 60_000 }, async () => {
    const target = await createUploadFor(t, owner.id, faces.coffee);
    const before = await balance(owner.headers);
    const done = await createAndRun(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      images: [target.uuid],
    });
    expect(done).toMatchObject({
      status: GenerationStatus.ERROR,
      refunded: true,
      error_code: 'generations.bad_input',
      error_reason: 'no_face',
      result: null,
    });
    expect(done.error_detail).toMatch(/No face was found in this photo/);
    expect(await balance(owner.headers)).toBe(before);
  });

  it('makes a face photo from a prompt: a scene with the model’s face', { timeout: 120_000 }, async () => {
    const done = await createAndRun(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      prompt: 'a beach at sunset',
      seed: 11,
    });
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(noteTexts(done.result.notes).join(' ')).toMatch(
      /cut out of your best photo by the offline selfie segmentation/,
    );
    const result = await download(done.result.download_url);
    expect(readExifLabel((await sharp(result).metadata()).exif).imageDescription).toMatch(
      /^Face photo by Mirra local engine/,
    );
    const analysis = await t.deps.faceAnalyzer.analyze(result);
    expect(analysis.faces.length).toBeGreaterThanOrEqual(1);
    const grace = await t.deps.faceAnalyzer.analyze(faces.graceHopper);
    const toModel = descriptorSimilarity(analysis.faces[0]!.descriptor, profile.descriptor);
    // Recognisably the model's person (Human's "match" is above 0.5), and not somebody else.
    expect(toModel).toBeGreaterThan(0.45);
    expect(toModel).toBeGreaterThan(
      descriptorSimilarity(analysis.faces[0]!.descriptor, grace.faces[0]!.descriptor) + 0.15,
    );
  });
});

describe('face swap requests', () => {
  it('needs a model: none → generations.model_required, before any charge', async () => {
    const user = await signedInUser();
    const target = await createUploadFor(t, user.id, faces.graceHopper);
    const response = await create(user.headers, { mode: 'face_swap', images: [target.uuid] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'generations.model_required',
      model_uuid: [expect.any(String)],
    });
    expect(await balance(user.headers)).toBe(40);
  });

  it("refuses someone else's model and an untrained one with a field error on model_uuid", async () => {
    const user = await signedInUser();
    const target = await createUploadFor(t, user.id, faces.graceHopper);
    const foreign = await create(user.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      images: [target.uuid],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({
      code: 'generations.model_unavailable',
      model_uuid: ['This model was not found or is not trained yet.'],
    });
    const untrained = await t.app.inject({
      method: 'POST',
      url: '/api/models/',
      headers: user.headers,
      payload: { name: 'New', category: 'custom' },
    });
    const response = await create(user.headers, {
      mode: 'face_swap',
      model_uuid: untrained.json().uuid,
      images: [target.uuid],
    });
    expect(response.json().code).toBe('generations.model_unavailable');
    expect(await balance(user.headers)).toBe(40);
  });

  it("refuses someone else's model in every mode, also those that do not use a model, before any charge", async () => {
    const user = await signedInUser();
    const photo = await createUploadFor(t, user.id, faces.graceHopper);
    for (const body of [
      { mode: 'simple', prompt: 'A lighthouse at dawn' },
      { mode: 'styling', images: [photo.uuid], style: 'oil' },
      { mode: 'editing', images: [photo.uuid], prompt: 'Make it night' },
      { mode: 'video', images: [photo.uuid], prompt: 'Waves roll in' },
    ]) {
      const response = await create(user.headers, { ...body, model_uuid: modelUuid });
      expect(response.statusCode, `${body.mode}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'generations.model_unavailable',
        model_uuid: [expect.any(String)],
      });
    }
    const rows = await t.deps.db.query.generations.findMany({ where: (g, { eq }) => eq(g.userId, user.id) });
    expect(rows).toEqual([]);
    expect(await balance(user.headers)).toBe(40);
  });

  it('needs a target photo or a prompt', async () => {
    const response = await create(owner.headers, { mode: 'face_swap', model_uuid: modelUuid });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'generations.image_required',
      images: [expect.any(String)],
    });
  });
  it('keeps only the fields the mode uses: face swap onto a photo stores no description', async () => {
    const target = await createUploadFor(t, owner.id, faces.graceHopper);
    // A form that still holds the face photo's description, a style and a video length.
    const swapped = await create(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      images: [target.uuid],
      prompt: 'A woman on a beach at sunset',
      style: 'oil',
      duration: 5,
      aspect: '9:16',
    });
    expect(swapped.statusCode, swapped.body).toBe(201);
    // 9:16 is a picture's frame shape as well as a video's: the swapped picture is made in it.
    expect(swapped.json()).toMatchObject({ prompt: '', style: null, duration: null, aspect: '9:16' });
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/generations/${swapped.json().uuid}/`,
      headers: owner.headers,
    });
    expect(stored.json()).toMatchObject({ prompt: '', model_uuid: modelUuid });

    // Without a photo the description is what a face photo is made of: it stays.
    const facePhoto = await create(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      prompt: 'A woman on a beach at sunset',
    });
    expect(facePhoto.json()).toMatchObject({ prompt: 'A woman on a beach at sunset' });

    // A plain picture takes no style, model or video length (its frame shape it does take).
    const plain = await create(owner.headers, {
      mode: 'simple',
      prompt: 'A lighthouse at dawn',
      style: 'oil',
      model_uuid: modelUuid,
      duration: 5,
      aspect: '9:16',
    });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json()).toMatchObject({
      prompt: 'A lighthouse at dawn',
      style: null,
      model_uuid: null,
      duration: null,
      aspect: '9:16',
    });
    await t.runJobs();
  });
});
