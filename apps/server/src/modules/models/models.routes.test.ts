import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { creditEntries, modelPhotos, models, notifications, users } from '../../shared/db/schema.js';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { descriptorSimilarity, type FaceProfile } from '@mirra/imaging';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { astronautPhotos, passLiveCheck, uploadModelPhotos } from '../../test/models.js';
import { createTestApp, mediaUrlExpiry, mediaUrlPattern, type TestApp } from '../../test/test-app.js';
import {
  blurPhoto,
  composeSideBySide,
  darkenPhoto,
  loadTestFaces,
  shrinkIntoCanvas,
  type TestFaces,
} from '@mirra/imaging/testing';
import { reconcileStuckTraining, runModelTraining } from './model-training-run.usecases.js';
import { modelPhotoKeys } from './models.models.js';

// Real photos through the real face analysis (@mirra/imaging/testing), the real database, jobs as
// the worker runs them, and the Telegram Bot API fake for the "model ready" message.
const PRICE = 7;
let t: TestApp;
let fake: TelegramBotApiFake;
let faces: TestFaces;
let photos: Buffer[];

beforeAll(async () => {
  fake = await startTelegramBotApiFake({ botUsername: 'mirra_models_bot' });
  t = await createTestApp({
    env: { ...fake.env, PUBLIC_URL: 'https://mirra.test', PRICE_MODEL_TRAINING: String(PRICE) },
  });
  [faces, photos] = await Promise.all([loadTestFaces(), astronautPhotos()]);
  await t.deps.faceAnalyzer.warmUp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function signedIn(credits = 20, telegram?: { id: number; allowsWrite: boolean }) {
  const user = await createActiveUser(t);
  if (credits) await grantWelcomeCredits(t.deps.db, user.id, credits);
  if (telegram) {
    await t.deps.db
      .update(users)
      .set({ telegramId: telegram.id, telegramAllowsWrite: telegram.allowsWrite, language: 'de' })
      .where(eq(users.id, user.id));
  }
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: bearer(access) };
}

const api = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function newModel(headers: Record<string, string>, name = 'Me') {
  const response = await api('POST', '/api/models/', headers, { name, category: 'female' });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().uuid as string;
}

const balance = async (headers: Record<string, string>) =>
  (await api('GET', '/api/credits/', headers)).json().balance;
const getModel = async (uuid: string, headers: Record<string, string>) =>
  (await api('GET', `/api/models/${uuid}/`, headers)).json();

describe('creating a model', () => {
  it('answers 201 with the uuid, status NEW and the training price, and lists it', async () => {
    const { headers } = await signedIn();
    const response = await api('POST', '/api/models/', headers, { name: '  Holiday me ', category: 'male' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Holiday me',
      category: 'male',
      status: GenerationStatus.NEW,
      progress: 0,
      reference_count: 0,
      photo_count: 0,
      min_photos: 15,
      cost: 0,
      // What training will cost, shown before anything is charged.
      training_price: PRICE,
      photos: [],
    });
    const list = await api('GET', '/api/models/', headers);
    expect(list.json().results.map((m: { uuid: string }) => m.uuid)).toEqual([response.json().uuid]);
  });

  it('refuses a blank name and an unknown category with field errors', async () => {
    const { headers } = await signedIn();
    const response = await api('POST', '/api/models/', headers, { name: ' ', category: 'robot' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'common.validation',
      name: ['This field may not be blank.'],
      category: ['Choose a model category.'],
    });
  });

  it("hides other people's models as not found", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const uuid = await newModel(alice.headers);
    for (const [method, url] of [
      ['GET', `/api/models/${uuid}/`],
      ['DELETE', `/api/models/${uuid}/`],
      ['POST', `/api/models/${uuid}/train/`],
    ] as const) {
      const response = await api(method, url, bob.headers);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().code).toBe('models.not_found');
    }
    const upload = await uploadModelPhotos(t, bob.headers, uuid, [{ data: photos[0]! }]);
    expect(upload.statusCode).toBe(404);
  });
});

describe('photo checks on upload', () => {
  it(
    'gives every file its verdict, with the problems and tips of the real face analysis',
    { timeout: 120_000 },
    async () => {
      const { headers } = await signedIn();
      const uuid = await newModel(headers);
      // Three good photos first, so "the same person" has something to compare with.
      const files = [
        { data: photos[0]!, filename: 'good-1.jpg' },
        { data: photos[1]!, filename: 'good-2.jpg' },
        { data: photos[2]!, filename: 'good-3.jpg' },
        { data: await darkenPhoto(faces.astronaut, 0.3), filename: 'dark.png' },
        { data: faces.coffee, filename: 'cup.png' },
        { data: await composeSideBySide(faces.astronaut, faces.graceHopper), filename: 'two.png' },
        { data: await shrinkIntoCanvas(faces.astronaut, 2048, 256), filename: 'far.png' },
        { data: await blurPhoto(faces.astronaut, 3), filename: 'blurred.png' },
        { data: faces.graceHopper, filename: 'grace.jpg' },
        { data: faces.cameraman, filename: 'side.png' },
        { data: Buffer.from('not a photo at all'), filename: 'notes.txt' },
      ];
      const response = await uploadModelPhotos(t, headers, uuid, files);
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      const byName = Object.fromEntries(body.photos.map((p: { filename: string }) => [p.filename, p]));
      expect(body.photos.map((p: { filename: string }) => p.filename)).toEqual(files.map((f) => f.filename));
      for (const name of ['good-1.jpg', 'good-2.jpg', 'good-3.jpg']) {
        expect(byName[name]).toMatchObject({ ok: true, problems: [], tips: ['pose.front'], pose: 'front' });
      }
      // Low light is a tip: the photo still counts.
      expect(byName['dark.png']).toMatchObject({
        ok: true,
        problems: [],
        tips: ['pose.front', 'photo.low_light'],
      });
      expect(byName['cup.png']).toMatchObject({ ok: false, problems: ['face.none'], pose: null });
      expect(byName['two.png'].problems).toContain('face.multiple');
      expect(byName['far.png'].problems).toContain('face.too_small');
      expect(byName['blurred.png']).toMatchObject({ ok: false, problems: ['photo.blurry'] });
      // Grace Hopper: somebody else, wearing glasses.
      expect(byName['grace.jpg']).toMatchObject({ ok: false, problems: ['face.different_person'] });
      expect(byName['grace.jpg'].tips).toContain('face.glasses');
      expect(byName['side.png'].tips).toContain('pose.side');
      expect(byName['side.png'].problems).toEqual(['face.different_person']);
      expect(byName['notes.txt']).toMatchObject({ uuid: null, ok: false, problems: ['file.unsupported'] });
      expect(body.reference_count).toBe(4);

      const model = await getModel(uuid, headers);
      expect(model).toMatchObject({ reference_count: 4, photo_count: 10 });
      expect(model.photos).toHaveLength(10);
      // Stored with the verdict; the unreadable file was not stored at all.
      const rows = await t.deps.db
        .select()
        .from(modelPhotos)
        .where(eq(modelPhotos.modelId, await modelId(uuid)));
      expect(rows).toHaveLength(10);
      expect(rows.filter((row) => row.ok)).toHaveLength(4);
    },
  );

  it(
    'judges "the same person" by the largest group, so an early stray photo is flagged later',
    { timeout: 120_000 },
    async () => {
      const { headers } = await signedIn();
      const uuid = await newModel(headers);
      const first = await uploadModelPhotos(t, headers, uuid, [
        { data: faces.graceHopper, filename: 'grace.jpg' },
      ]);
      // Alone, nobody to differ from.
      expect(first.json().photos[0]).toMatchObject({ ok: true, problems: [] });
      const rest = await uploadModelPhotos(
        t,
        headers,
        uuid,
        photos.slice(0, 4).map((data) => ({ data })),
      );
      expect(rest.json().photos.every((p: { ok: boolean }) => p.ok)).toBe(true);
      expect(rest.json().reference_count).toBe(4);
      const model = await getModel(uuid, headers);
      const grace = model.photos.find((p: { uuid: string }) => p.uuid === first.json().photos[0].uuid);
      expect(grace).toMatchObject({ ok: false, problems: ['face.different_person'] });
    },
  );

  it(
    'refuses a photo the model already has: the same file, or it re-saved, resized, recompressed or mirrored',
    { timeout: 120_000 },
    async () => {
      const { headers } = await signedIn();
      const uuid = await newModel(headers);
      const first = await uploadModelPhotos(
        t,
        headers,
        uuid,
        photos.slice(0, 4).map((data, index) => ({ data, filename: `me-${index}.jpg` })),
      );
      expect(first.json().photos.every((p: { ok: boolean }) => p.ok)).toBe(true);
      expect(first.json().reference_count).toBe(4);

      const copies = [
        { data: photos[0]!, filename: 'same-file.jpg' },
        { data: await sharp(photos[1]!).jpeg({ quality: 55 }).toBuffer(), filename: 'recompressed.jpg' },
        {
          data: await sharp(photos[2]!).resize({ width: 300 }).jpeg({ quality: 80 }).toBuffer(),
          filename: 'resized.jpg',
        },
        {
          data: await sharp(photos[3]!).png().toBuffer(),
          filename: 're-saved.png',
          contentType: 'image/png',
        },
        // Mirrored (a selfie camera's flip) and re-encoded: still the same picture.
        { data: await sharp(photos[1]!).flop().jpeg({ quality: 85 }).toBuffer(), filename: 'mirrored.jpg' },
      ];
      const second = await uploadModelPhotos(t, headers, uuid, [
        ...copies,
        // Another photo of the same person still counts, and so does the first of a new picture.
        { data: photos[4]!, filename: 'new.jpg' },
        { data: photos[4]!, filename: 'new-again.jpg' },
      ]);
      expect(second.statusCode, second.body).toBe(201);
      const verdicts = second.json().photos as Array<{ filename: string; ok: boolean; problems: string[] }>;
      expect(verdicts.map((v) => [v.filename, v.ok, v.problems])).toEqual([
        ['same-file.jpg', false, ['photo.duplicate']],
        ['recompressed.jpg', false, ['photo.duplicate']],
        ['resized.jpg', false, ['photo.duplicate']],
        ['re-saved.png', false, ['photo.duplicate']],
        ['mirrored.jpg', false, ['photo.duplicate']],
        ['new.jpg', true, []],
        ['new-again.jpg', false, ['photo.duplicate']],
      ]);
      expect(second.json().reference_count).toBe(5);
      expect(await getModel(uuid, headers)).toMatchObject({ reference_count: 5, photo_count: 11 });

      // Deleting the first of a picture lets its copy count instead.
      const firstUuid = first.json().photos[0].uuid;
      expect((await api('DELETE', `/api/models/${uuid}/photos/${firstUuid}/`, headers)).statusCode).toBe(200);
      const after = await getModel(uuid, headers);
      expect(after.reference_count).toBe(5);
      const sameFile = after.photos.find((p: { uuid: string }) => p.uuid === second.json().photos[0].uuid);
      expect(sameFile).toMatchObject({ ok: true, problems: [] });
    },
  );

  it(
    'keeps originals private: only a short-lived signed preview URL, which stops at a wrong signature',
    { timeout: 60_000 },
    async () => {
      const { user, headers } = await signedIn();
      const uuid = await newModel(headers);
      const response = await uploadModelPhotos(t, headers, uuid, [{ data: photos[0]! }]);
      const [photo] = response.json().photos;
      // The storage key is sealed: the URL names neither the owner, the model nor the photo.
      expect(photo.thumbnail_url).toMatch(mediaUrlPattern('webp'));
      expect(photo.thumbnail_url).not.toContain(uuid);
      expect(photo.thumbnail_url).not.toContain(`/${user.id}/`);
      const exp = mediaUrlExpiry(photo.thumbnail_url);
      expect(exp * 1000 - Date.now()).toBeLessThanOrEqual(2 * 3600 * 1000);
      const preview = await t.fetchMedia(photo.thumbnail_url);
      expect(preview.statusCode).toBe(200);
      expect((await sharp(preview.rawPayload).metadata()).format).toBe('webp');
      const forged = photo.thumbnail_url.replace(
        /(sig|X-Amz-Signature)=[^&]+/,
        '$1=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      );
      expect(forged).not.toBe(photo.thumbnail_url);
      expect([403, 404]).toContain((await t.fetchMedia(forged)).statusCode);
      // The original is stored, EXIF-free, under the owner's prefix, and no URL names it.
      const [row] = await t.deps.db.select().from(modelPhotos).where(eq(modelPhotos.uuid, photo.uuid));
      expect(row!.storageKey).toBe(`models/${user.id}/${uuid}/photos/${photo.uuid}.jpg`);
      expect(JSON.stringify(await getModel(uuid, headers))).not.toContain(`${photo.uuid}.jpg`);
    },
  );

  it('takes at most 30 files in one upload', async () => {
    const { headers } = await signedIn();
    const uuid = await newModel(headers);
    const files = Array.from({ length: 31 }, (_, i) => ({
      data: Buffer.from(`not a photo ${i}`),
      filename: `${i}.txt`,
    }));
    const response = await uploadModelPhotos(t, headers, uuid, files);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'common.validation',
      files: ['Send at most 30 photos at once.'],
    });
    const thirty = await uploadModelPhotos(t, headers, uuid, files.slice(0, 30));
    expect(thirty.statusCode).toBe(201);
    expect(thirty.json().photos).toHaveLength(30);
  });

  it('deletes one photo with its files; the counts follow', { timeout: 60_000 }, async () => {
    const { user, headers } = await signedIn();
    const uuid = await newModel(headers);
    const uploaded = (
      await uploadModelPhotos(
        t,
        headers,
        uuid,
        photos.slice(0, 2).map((data) => ({ data })),
      )
    ).json();
    const [photo] = uploaded.photos;
    const [row] = await t.deps.db.select().from(modelPhotos).where(eq(modelPhotos.uuid, photo.uuid));
    // A training attempt that ended without completing wrote the face crop but never recorded it.
    const aligned = modelPhotoKeys(user.id, uuid, photo.uuid, 'png').aligned;
    await t.deps.storage.put(aligned, await sharp(photos[0]!).png().toBuffer(), 'image/png');
    expect(row!.alignedKey).toBeNull();
    const response = await api('DELETE', `/api/models/${uuid}/photos/${photo.uuid}/`, headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ reference_count: 1, photo_count: 1 });
    expect(await t.deps.storage.get(row!.storageKey)).toBeNull();
    expect(await t.deps.storage.get(row!.thumbnailKey)).toBeNull();
    expect(await t.deps.storage.get(aligned)).toBeNull();
    const again = await api('DELETE', `/api/models/${uuid}/photos/${photo.uuid}/`, headers);
    expect(again.json().code).toBe('models.photo_not_found');
  });
});

describe('training', () => {
  it('refuses with a field error below 15 good photos, charging nothing', { timeout: 60_000 }, async () => {
    const { headers } = await signedIn();
    const uuid = await newModel(headers);
    await uploadModelPhotos(
      t,
      headers,
      uuid,
      photos.slice(0, 3).map((data) => ({ data })),
    );
    const response = await api('POST', `/api/models/${uuid}/train/`, headers);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'models.not_enough_photos',
      photos: ['Upload at least 15 good photos of yourself to train the model; 3 so far.'],
      reference_count: 3,
      min_photos: 15,
    });
    expect(await balance(headers)).toBe(20);
  });

  it('refuses without enough credits, saying by how much', { timeout: 120_000 }, async () => {
    const { headers } = await signedIn(3);
    const uuid = await newModel(headers);
    await uploadModelPhotos(
      t,
      headers,
      uuid,
      photos.map((data) => ({ data })),
    );
    await passLiveCheck(t, uuid);
    const response = await api('POST', `/api/models/${uuid}/train/`, headers);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ code: 'credits.insufficient', required: PRICE, difference: 4 });
    expect((await getModel(uuid, headers)).status).toBe(GenerationStatus.NEW);
  });

  it(
    'end to end: 15 photos → charged training job → ready model, lora, notification and a bot message',
    { timeout: 180_000 },
    async () => {
      const telegramId = 5_550_000_000 + Math.floor(Math.random() * 1000);
      const { user, headers } = await signedIn(20, { id: telegramId, allowsWrite: true });
      const uuid = await newModel(headers, 'Summer');
      const uploaded = await uploadModelPhotos(
        t,
        headers,
        uuid,
        photos.map((data) => ({ data })),
      );
      expect(uploaded.json()).toMatchObject({ reference_count: 15, min_photos: 15 });

      await passLiveCheck(t, uuid);
      const started = await api('POST', `/api/models/${uuid}/train/`, headers);
      expect(started.statusCode, started.body).toBe(202);
      expect(started.json()).toMatchObject({ status: GenerationStatus.IN_QUEUE, cost: PRICE });
      expect(await balance(headers)).toBe(20 - PRICE);
      // Photos cannot change while it trains.
      const busy = await uploadModelPhotos(t, headers, uuid, [{ data: photos[0]! }]);
      expect(busy.statusCode).toBe(409);
      expect(busy.json().code).toBe('models.training_in_progress');
      expect((await api('POST', `/api/models/${uuid}/train/`, headers)).statusCode).toBe(409);

      const startedAt = Date.now();
      await t.runJobs();
      // "Seconds, not minutes": the analyses were made at upload.
      expect(Date.now() - startedAt).toBeLessThan(60_000);
      const model = await getModel(uuid, headers);
      expect(model).toMatchObject({
        status: GenerationStatus.COMPLETED,
        progress: 100,
        reference_count: 15,
        trained_at: expect.any(String),
        error_code: null,
      });

      // The local engine's training: a real face profile and aligned crops of every photo.
      const [row] = await t.deps.db.select().from(models).where(eq(models.uuid, uuid));
      const profile = row!.profile as FaceProfile;
      expect(profile.photoCount).toBe(15);
      expect(profile.descriptor).toHaveLength(1024);
      expect(profile.bestByPose.front.length).toBeGreaterThan(0);
      expect(profile.landmarks?.meanShape).toHaveLength(478);
      const astronaut = await t.deps.faceAnalyzer.analyze(faces.astronaut);
      const grace = await t.deps.faceAnalyzer.analyze(faces.graceHopper);
      expect(descriptorSimilarity(profile.descriptor, astronaut.faces[0]!.descriptor)).toBeGreaterThan(0.9);
      expect(descriptorSimilarity(profile.descriptor, grace.faces[0]!.descriptor)).toBeLessThan(0.4);
      const photoRows = await t.deps.db.select().from(modelPhotos).where(eq(modelPhotos.modelId, row!.id));
      for (const photo of photoRows) {
        const crop = await t.deps.storage.get(photo.alignedKey!);
        expect(await sharp(crop!.data).metadata()).toMatchObject({ width: 256, height: 256 });
      }

      const me = await api('GET', '/api/users/me/', headers);
      expect(me.json().lora).toBe(true);
      const [notification] = await t.deps.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, user.id), eq(notifications.kind, 'model_ready')));
      expect(notification?.data).toEqual({ model_uuid: uuid, model_name: 'Summer' });
      const [message] = fake.sentMessages(telegramId);
      expect(message?.text).toBe(
        'Dein digitales Modell „Summer“ ist fertig! Öffne Mirra und erstelle Fotos mit deinem Gesicht.',
      );
      expect(message?.reply_markup).toEqual({
        inline_keyboard: [
          [{ text: 'Mein Modell öffnen', web_app: { url: `https://mirra.test/model/${uuid}/` } }],
        ],
      });

      const again = await api('POST', `/api/models/${uuid}/train/`, headers);
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('models.already_trained');
      expect(await balance(headers)).toBe(20 - PRICE);

      // Photos can be added afterwards: checked against the model, good ones join its references.
      const added = await uploadModelPhotos(t, headers, uuid, [
        { data: await darkenPhoto(faces.astronaut, 0.5), filename: 'evening.png' },
        { data: faces.graceHopper, filename: 'someone-else.jpg' },
      ]);
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json().photos.map((p: { ok: boolean }) => p.ok)).toEqual([true, false]);
      expect(added.json().photos[1].problems).toEqual(['face.different_person']);
      expect(added.json()).toMatchObject({ reference_count: 16 });
      const [after] = await t.deps.db.select().from(models).where(eq(models.uuid, uuid));
      const refreshed = after!.profile as FaceProfile;
      expect(refreshed.photoCount).toBe(16);
      // Immutable: the identity is the trained one, not re-averaged.
      expect(refreshed.descriptor).toEqual(profile.descriptor);
      expect(after!.status).toBe(GenerationStatus.COMPLETED);
      expect(refreshed.references.map((r) => r.photoId)).toContain(added.json().photos[0].uuid);

      // A copy of a photo the trained model has (re-encoded) is refused, and so is the second of
      // two copies of one new photo in one upload.
      const evening = await sharp(await darkenPhoto(faces.astronaut, 0.5))
        .png()
        .toBuffer();
      const copies = await uploadModelPhotos(t, headers, uuid, [
        { data: await sharp(photos[3]!).jpeg({ quality: 60 }).toBuffer(), filename: 'again.jpg' },
        { data: evening, filename: 'evening-again.png' },
      ]);
      expect(copies.json().photos.map((p: { problems: string[] }) => p.problems)).toEqual([
        ['photo.duplicate'],
        ['photo.duplicate'],
      ]);
      expect(copies.json()).toMatchObject({ reference_count: 16 });
    },
  );

  it('sends no bot message to a user who did not allow it', { timeout: 180_000 }, async () => {
    const telegramId = 5_560_000_000 + Math.floor(Math.random() * 1000);
    const { headers } = await signedIn(20, { id: telegramId, allowsWrite: false });
    const uuid = await newModel(headers);
    await uploadModelPhotos(
      t,
      headers,
      uuid,
      photos.map((data) => ({ data })),
    );
    await passLiveCheck(t, uuid);
    await api('POST', `/api/models/${uuid}/train/`, headers);
    await t.runJobs();
    expect((await getModel(uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
    expect(fake.sentMessages(telegramId)).toEqual([]);
  });

  it(
    'a training stuck past the timeout fails and is refunded exactly once; it can be started again',
    { timeout: 180_000 },
    async () => {
      const { user, headers } = await signedIn();
      const uuid = await newModel(headers);
      await uploadModelPhotos(
        t,
        headers,
        uuid,
        photos.map((data) => ({ data })),
      );
      await passLiveCheck(t, uuid);
      await api('POST', `/api/models/${uuid}/train/`, headers);
      expect(await balance(headers)).toBe(20 - PRICE);

      // Nothing happens before the timeout (30 minutes).
      t.setNow(new Date(Date.now() + 29 * 60_000));
      expect(await reconcileStuckTraining(t.deps)).toBe(0);
      t.setNow(new Date(Date.now() + 31 * 60_000));
      try {
        await reconcileStuckTraining(t.deps);
        expect(await reconcileStuckTraining(t.deps)).toBe(0);
      } finally {
        t.setNow(undefined);
      }
      const failed = await getModel(uuid, headers);
      expect(failed).toMatchObject({ status: GenerationStatus.FAILED, error_code: 'models.timeout' });
      expect(await balance(headers)).toBe(20);
      // The queued job finds the attempt over and does nothing.
      await t.runJobs();
      expect((await getModel(uuid, headers)).status).toBe(GenerationStatus.FAILED);
      const refunds = await t.deps.db
        .select()
        .from(creditEntries)
        .where(and(eq(creditEntries.userId, user.id), eq(creditEntries.kind, 'model_training_refund')));
      expect(refunds).toHaveLength(1);

      // A second attempt is charged anew and completes.
      expect((await api('POST', `/api/models/${uuid}/train/`, headers)).statusCode).toBe(202);
      expect(await balance(headers)).toBe(20 - PRICE);
      await t.runJobs();
      expect((await getModel(uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
    },
  );

  it('a training whose last attempt fails ends FAILED and refunded', { timeout: 180_000 }, async () => {
    const { headers } = await signedIn();
    const uuid = await newModel(headers);
    await uploadModelPhotos(
      t,
      headers,
      uuid,
      photos.map((data) => ({ data })),
    );
    await passLiveCheck(t, uuid);
    await api('POST', `/api/models/${uuid}/train/`, headers);
    const id = await modelId(uuid);
    // A photo vanished from storage: a fault on our side, retried until the attempts run out.
    const [photo] = await t.deps.db.select().from(modelPhotos).where(eq(modelPhotos.modelId, id)).limit(1);
    await t.deps.storage.delete(photo!.storageKey);
    await expect(runModelTraining(t.deps, id, 1, { attempt: 1, maxAttempts: 3 })).rejects.toThrow(/missing/);
    expect((await getModel(uuid, headers)).status).toBe(GenerationStatus.IN_QUEUE);
    await runModelTraining(t.deps, id, 1, { attempt: 3, maxAttempts: 3 });
    expect(await getModel(uuid, headers)).toMatchObject({
      status: GenerationStatus.FAILED,
      error_code: 'models.training_failed',
    });
    expect(await balance(headers)).toBe(20);
    // Run again (a duplicate job): nothing more happens.
    await runModelTraining(t.deps, id, 1, { attempt: 3, maxAttempts: 3 });
    expect(await balance(headers)).toBe(20);
  });
});

describe('training progress', () => {
  it(
    'streams status and progress over server-sent events until the model is ready',
    { timeout: 120_000 },
    async () => {
      const { headers } = await signedIn();
      const uuid = await newModel(headers);
      await uploadModelPhotos(
        t,
        headers,
        uuid,
        photos.map((data) => ({ data })),
      );
      await passLiveCheck(t, uuid);
      await api('POST', `/api/models/${uuid}/train/`, headers);
      const port = (t.app.server.address() as { port: number }).port;
      const response = await fetch(`http://127.0.0.1:${port}/api/models/${uuid}/events/`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      const events: Array<{ uuid: string; status: number; progress: number }> = [];
      const reading = (async () => {
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let split;
          while ((split = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, split);
            buffer = buffer.slice(split + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (block.includes('event: status') && data) events.push(JSON.parse(data.slice(6)));
          }
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await t.runJobs();
      // The stream ends by itself once training has ended.
      await reading;
      expect(events[0]).toMatchObject({ uuid, status: GenerationStatus.IN_QUEUE, progress: 0 });
      expect(events.map((e) => e.status)).toContain(GenerationStatus.IN_PROGRESS);
      expect(events.some((e) => e.progress > 0 && e.progress < 100)).toBe(true);
      expect(events.at(-1)).toMatchObject({ status: GenerationStatus.COMPLETED, progress: 100 });
    },
  );

  it('documents the model API in OpenAPI', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const path of [
      '/api/models/',
      '/api/models/{uuid}/',
      '/api/models/{uuid}/photos/',
      '/api/models/{uuid}/train/',
      '/api/models/{uuid}/events/',
    ]) {
      expect(spec.paths, path).toHaveProperty([path]);
    }
    expect(spec.paths['/api/models/{uuid}/photos/'].post.description).toContain('face.different_person');
  });
});

describe('deleting a model', () => {
  it('deletes its photos, files and rows, and turns lora off', { timeout: 180_000 }, async () => {
    const { user, headers } = await signedIn();
    const uuid = await newModel(headers);
    await uploadModelPhotos(
      t,
      headers,
      uuid,
      photos.map((data) => ({ data })),
    );
    await passLiveCheck(t, uuid);
    await api('POST', `/api/models/${uuid}/train/`, headers);
    await t.runJobs();
    expect((await api('GET', '/api/users/me/', headers)).json().lora).toBe(true);
    const id = await modelId(uuid);
    const rows = await t.deps.db.select().from(modelPhotos).where(eq(modelPhotos.modelId, id));
    expect(rows).toHaveLength(15);
    const keys = rows.flatMap((row) => [row.storageKey, row.thumbnailKey, row.alignedKey!]);
    for (const key of keys) expect(await t.deps.storage.get(key)).not.toBeNull();

    const response = await api('DELETE', `/api/models/${uuid}/`, headers);
    expect(response.statusCode).toBe(204);
    for (const key of keys) expect(await t.deps.storage.get(key), key).toBeNull();
    expect(await t.deps.db.select().from(modelPhotos).where(eq(modelPhotos.modelId, id))).toEqual([]);
    expect(await t.deps.db.select().from(models).where(eq(models.id, id))).toEqual([]);
    expect((await api('GET', `/api/models/${uuid}/`, headers)).statusCode).toBe(404);
    expect((await api('GET', '/api/users/me/', headers)).json().lora).toBe(false);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.hasLora).toBe(false);
  });

  it('stops a training in progress and refunds it', { timeout: 120_000 }, async () => {
    const { headers } = await signedIn();
    const uuid = await newModel(headers);
    await uploadModelPhotos(
      t,
      headers,
      uuid,
      photos.map((data) => ({ data })),
    );
    await passLiveCheck(t, uuid);
    await api('POST', `/api/models/${uuid}/train/`, headers);
    expect(await balance(headers)).toBe(20 - PRICE);
    expect((await api('DELETE', `/api/models/${uuid}/`, headers)).statusCode).toBe(204);
    expect(await balance(headers)).toBe(20);
    await t.runJobs();
    expect(await balance(headers)).toBe(20);
  });
});

async function modelId(uuid: string): Promise<number> {
  const [row] = await t.deps.db.select({ id: models.id }).from(models).where(eq(models.uuid, uuid));
  return row!.id;
}
