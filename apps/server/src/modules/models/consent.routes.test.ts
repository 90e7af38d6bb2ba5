import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerationStatus } from '@mirra/contracts';
import { loadTestFaces, turnedHead, type TestFaces } from '@mirra/imaging/testing';
import { generations, modelConsents, modelLiveChecks, models, posts } from '../../shared/db/schema.js';
import { createUploadFor } from '../../test/factories.js';
import { multipartBody } from '../../test/images.js';
import { astronautPhotos, uploadModelPhotos } from '../../test/models.js';
import { insertPost, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// A model of someone else, end to end through the API with real face analysis: the owner makes a
// model of another person (the astronaut's photos), that person confirms through the link with
// their own live check (the astronaut's head turned each way, as live-check.routes.test.ts makes
// its frames), and withdraws. A guest is a request without any credentials.
let t: TestApp;
let faces: TestFaces;
let photos: Buffer[];
type Frames = { straight: Buffer; left: Buffer; right: Buffer };
let person: Frames;
let stranger: Frames;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      MODEL_MIN_PHOTOS: '3',
      FREE_DAILY_PHOTOS: '1000',
      PRICE_MODEL_TRAINING: '5',
      PRICE_FACE_SWAP: '1',
    },
  });
  [faces, photos] = await Promise.all([loadTestFaces(), astronautPhotos()]);
  await t.deps.faceAnalyzer.warmUp();
  person = {
    straight: faces.astronaut,
    left: await turnedHead(faces.astronaut, 0.4),
    right: await turnedHead(faces.astronaut, -0.4),
  };
  stranger = {
    straight: faces.graceHopper,
    left: await turnedHead(faces.graceHopper, 0.4),
    right: await turnedHead(faces.graceHopper, -0.4),
  };
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function modelWithPhotos(owner: Person, subject: 'self' | 'other', name: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/models/',
    headers: owner.headers,
    payload: { name, category: 'female', subject },
  });
  expect(created.statusCode, created.body).toBe(201);
  const uuid = created.json().uuid as string;
  const uploaded = await uploadModelPhotos(
    t,
    owner.headers,
    uuid,
    photos.slice(0, 3).map((data) => ({ data })),
  );
  expect(uploaded.json().reference_count).toBe(3);
  return { uuid, json: created.json() };
}

function frameBody(frames: Frames) {
  return multipartBody(
    (['straight', 'left', 'right'] as const).map((name) => ({
      name,
      filename: `${name}.jpg`,
      contentType: 'image/jpeg',
      data: frames[name],
    })),
  );
}

function guestCheck(token: string, frames: Frames) {
  const body = frameBody(frames);
  return t.app.inject({
    method: 'POST',
    url: `/api/consents/${token}/live-check/`,
    headers: body.headers,
    payload: body.payload,
  });
}

const train = (owner: Person, uuid: string) =>
  t.app.inject({ method: 'POST', url: `/api/models/${uuid}/train/`, headers: owner.headers });

const faceSwap = (owner: Person, body: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/generations/',
    headers: owner.headers,
    payload: { mode: 'face_swap', ...body },
  });

describe('a model of someone else', () => {
  it(
    "trains only after that person confirms by the link with their own face, puts only a verified face onto a stranger's post, and withdrawing deletes it and takes its posts down",
    { timeout: 120_000 },
    async () => {
      const owner = await signedInPerson(t, { firstName: 'Olga', credits: 100 });
      const model = await modelWithPhotos(owner, 'other', 'Anna');
      expect(model.json).toMatchObject({ subject: 'other', consent: 'pending' });

      // No consent yet: training is refused, and the owner cannot take the check in their place.
      const refused = await train(owner, model.uuid);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'models.consent_required', reason: 'missing' });
      const ownCheck = frameBody(person);
      const byOwner = await t.app.inject({
        method: 'POST',
        url: `/api/models/${model.uuid}/live-check/`,
        headers: { ...owner.headers, ...ownCheck.headers },
        payload: ownCheck.payload,
      });
      expect(byOwner.json().code).toBe('models.consent_required');

      const link = await t.app.inject({
        method: 'POST',
        url: `/api/models/${model.uuid}/consent-link/`,
        headers: owner.headers,
      });
      expect(link.statusCode, link.body).toBe(200);
      expect(link.json().status).toBe('pending');
      const token = new URL(link.json().url as string).pathname.split('/')[2]!;

      // The guest sees who asks and for what.
      const page = await t.app.inject({ method: 'GET', url: `/api/consents/${token}/` });
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json()).toMatchObject({
        status: 'pending',
        owner_name: 'Olga',
        model_name: 'Anna',
        photo_count: 3,
        is_expired: false,
      });
      expect(page.json().cover_url).toEqual(expect.any(String));
      // A token whose signature does not verify names nothing.
      const forged = `${token.slice(0, -4)}AAAA`;
      expect((await t.app.inject({ method: 'GET', url: `/api/consents/${forged}/` })).statusCode).toBe(404);

      // Somebody else's face in front of the camera confirms nothing.
      const wrong = await guestCheck(token, stranger);
      expect(wrong.statusCode, wrong.body).toBe(200);
      expect(wrong.json().passed).toBe(false);
      expect(wrong.json().problems).toContain('face.different_person');
      expect(wrong.json().consent.status).toBe('pending');
      expect((await train(owner, model.uuid)).statusCode).toBe(409);

      // The person in the photos confirms, and training may start.
      const right = await guestCheck(token, person);
      expect(right.statusCode, right.body).toBe(200);
      expect(right.json()).toMatchObject({ passed: true, problems: [], consent: { status: 'confirmed' } });
      const started = await train(owner, model.uuid);
      expect(started.statusCode, started.body).toBe(202);
      await t.runJobs();
      const trained = await t.app.inject({
        method: 'GET',
        url: `/api/models/${model.uuid}/`,
        headers: owner.headers,
      });
      expect(trained.json()).toMatchObject({ status: GenerationStatus.COMPLETED, consent: 'confirmed' });

      // A picture made with it and published (straight into the database: what matters here is
      // that it was made with the model).
      const post = await insertPost(t, owner.user.id, { status: 'published' });
      await t.deps.db
        .update(generations)
        .set({ modelUuid: model.uuid })
        .where(eq(generations.id, post.generationId));

      // Face swap onto a stranger's post takes this face: it passed the person's live check.
      const author = await signedInPerson(t);
      const strangersPost = await insertPost(t, author.user.id, { status: 'published' });
      const target = await createUploadFor(t, owner.user.id, faces.graceHopper);
      const onto = { model_uuid: model.uuid, images: [target.uuid], post_uuid: strangersPost.uuid };
      const verified = await faceSwap(owner, onto);
      expect(verified.statusCode, verified.body).toBe(201);
      // A face without a passed check on record (as a model trained before live checks existed)
      // is refused there, and still fine on a photo of one's own.
      const [row] = await t.deps.db.select().from(models).where(eq(models.uuid, model.uuid));
      await t.deps.db.delete(modelLiveChecks).where(eq(modelLiveChecks.modelId, row!.id));
      const unverified = await faceSwap(owner, onto);
      expect(unverified.statusCode, unverified.body).toBe(403);
      expect(unverified.json()).toMatchObject({
        code: 'generations.face_unverified',
        model_uuid: [expect.any(String)],
      });
      const ownPhoto = await faceSwap(owner, { model_uuid: model.uuid, images: [target.uuid] });
      expect(ownPhoto.statusCode, ownPhoto.body).toBe(201);

      // The person withdraws by the same link (no account): the model and its posts are gone.
      const withdrawn = await t.app.inject({ method: 'POST', url: `/api/consents/${token}/withdraw/` });
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect(withdrawn.json()).toMatchObject({ status: 'withdrawn', withdrawn_at: expect.any(String) });
      const gone = await t.app.inject({
        method: 'GET',
        url: `/api/models/${model.uuid}/`,
        headers: owner.headers,
      });
      expect(gone.statusCode).toBe(404);
      expect(await t.deps.db.select().from(models).where(eq(models.uuid, model.uuid))).toEqual([]);
      expect(
        await t.deps.db
          .select()
          .from(posts)
          .where(eq(posts.uuid, post.uuid as string)),
      ).toEqual([]);
      expect((await t.app.inject({ method: 'GET', url: `/api/posts/${post.uuid}/` })).statusCode).toBe(404);
      // ...for good: the result is never published again, and the link confirms nothing more.
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/posts/',
        headers: owner.headers,
        payload: { generation_uuid: post.generationUuid, title: '', draft: false },
      });
      expect(again.json().code).toBe('posts.consent_withdrawn');
      expect((await guestCheck(token, person)).json().code).toBe('consents.closed');
      const twice = await t.app.inject({ method: 'POST', url: `/api/consents/${token}/withdraw/` });
      expect(twice.json().status).toBe('withdrawn');
      // The record stays: who asked, when it was confirmed and withdrawn, how many posts went.
      const [record] = await t.deps.db
        .select()
        .from(modelConsents)
        .where(eq(modelConsents.modelUuid, model.uuid));
      expect(record).toMatchObject({
        status: 'withdrawn',
        modelId: null,
        ownerId: owner.user.id,
        postsRemoved: 1,
        confirmedAt: expect.any(Date),
        withdrawnAt: expect.any(Date),
      });
    },
  );
});
