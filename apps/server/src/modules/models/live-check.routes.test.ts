import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestFaces, tiltedPrint, turnedHead, type TestFaces } from '@mirra/imaging/testing';
import { modelLiveChecks, models } from '../../shared/db/schema.js';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { multipartBody } from '../../test/images.js';
import { astronautPhotos, uploadModelPhotos } from '../../test/models.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// The live check through its route with real face analysis. The "turned" frames are the portrait
// with its head turned by the video pipeline's face rig (a 2D warp that moves the nose across the
// cheeks by depth, about 8° as the analyser reads it): they show the check follows the mesh's pose
// and non-planar motion, not that a real person's camera turn passes (that takes a camera).
let t: TestApp;
let faces: TestFaces;
let photos: Buffer[];
let own: { straight: Buffer; left: Buffer; right: Buffer };
let other: { straight: Buffer; left: Buffer; right: Buffer };

beforeAll(async () => {
  // Three photos make a model here: the check is what is tested, not the photo minimum.
  t = await createTestApp({ env: { MODEL_MIN_PHOTOS: '3' } });
  [faces, photos] = await Promise.all([loadTestFaces(), astronautPhotos()]);
  await t.deps.faceAnalyzer.warmUp();
  own = {
    straight: faces.astronaut,
    left: await turnedHead(faces.astronaut, 0.4),
    right: await turnedHead(faces.astronaut, -0.4),
  };
  other = {
    straight: faces.graceHopper,
    left: await turnedHead(faces.graceHopper, 0.4),
    right: await turnedHead(faces.graceHopper, -0.4),
  };
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function modelWithPhotos(count: number, credits = 0) {
  const user = await createActiveUser(t);
  if (credits) await grantWelcomeCredits(t.deps.db, user.id, credits);
  const { access } = await login(t, user.email!, user.password);
  const headers = bearer(access);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/models/',
    headers,
    payload: { name: 'Me', category: 'female' },
  });
  const uuid = created.json().uuid as string;
  if (count === 0) return { uuid, headers };
  const uploaded = await uploadModelPhotos(
    t,
    headers,
    uuid,
    photos.slice(0, count).map((data) => ({ data })),
  );
  expect(uploaded.json().reference_count).toBe(count);
  return { uuid, headers };
}

function takeCheck(
  model: { uuid: string; headers: Record<string, string> },
  frames: { straight: Buffer; left: Buffer; right: Buffer },
) {
  const body = multipartBody(
    (['straight', 'left', 'right'] as const).map((name) => ({
      name,
      filename: `${name}.jpg`,
      contentType: 'image/jpeg',
      data: frames[name],
    })),
  );
  return t.app.inject({
    method: 'POST',
    url: `/api/models/${model.uuid}/live-check/`,
    headers: { ...model.headers, ...body.headers },
    payload: body.payload,
  });
}

const train = (model: { uuid: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: `/api/models/${model.uuid}/train/`, headers: model.headers });

describe('the live check before training', () => {
  it(
    'refuses training without a check; own face turned each way passes, and then training starts',
    { timeout: 120_000 },
    async () => {
      const model = await modelWithPhotos(3, 1000);
      const before = await train(model);
      expect(before.statusCode, before.body).toBe(409);
      expect(before.json()).toMatchObject({ code: 'models.live_check_required', reason: 'missing' });
      const shown = await t.app.inject({
        method: 'GET',
        url: `/api/models/${model.uuid}/`,
        headers: model.headers,
      });
      expect(shown.json().live_check).toBeNull();

      const checked = await takeCheck(model, own);
      expect(checked.statusCode, checked.body).toBe(200);
      expect(checked.json()).toEqual({ passed: true, problems: [] });
      const after = await t.app.inject({
        method: 'GET',
        url: `/api/models/${model.uuid}/`,
        headers: model.headers,
      });
      expect(after.json().live_check).toBe('passed');

      const started = await train(model);
      expect(started.statusCode, started.body).toBe(202);
      // Only the verdict and its measures are kept: no frame was stored.
      const [row] = await t.deps.db
        .select({ check: modelLiveChecks })
        .from(modelLiveChecks)
        .innerJoin(models, eq(models.id, modelLiveChecks.modelId))
        .where(eq(models.uuid, model.uuid));
      expect(row?.check.passed).toBe(true);
      expect(Object.keys(row!.check).sort()).toEqual(
        ['checkedAt', 'descriptor', 'id', 'measures', 'modelId', 'passed', 'problems', 'userId'].sort(),
      );

      // Deleting the model deletes its check.
      await t.app.inject({ method: 'DELETE', url: `/api/models/${model.uuid}/`, headers: model.headers });
      expect(
        await t.deps.db.select().from(modelLiveChecks).where(eq(modelLiveChecks.modelId, row!.check.modelId)),
      ).toEqual([]);
    },
  );

  it(
    "refuses another person's face, turned as asked, and training stays refused",
    { timeout: 60_000 },
    async () => {
      const model = await modelWithPhotos(3);
      const checked = await takeCheck(model, other);
      expect(checked.statusCode, checked.body).toBe(200);
      expect(checked.json().passed).toBe(false);
      expect(checked.json().problems).toContain('face.different_person');
      expect(checked.json().problems).not.toContain('pose.no_turn');
      const shown = await t.app.inject({
        method: 'GET',
        url: `/api/models/${model.uuid}/`,
        headers: model.headers,
      });
      expect(shown.json().live_check).toBe('refused');
    },
  );

  it(
    'refuses three identical frames and a flat print of the face tilted each way',
    { timeout: 60_000 },
    async () => {
      const model = await modelWithPhotos(3);
      const same = await takeCheck(model, {
        straight: own.straight,
        left: own.straight,
        right: own.straight,
      });
      expect(same.json()).toMatchObject({ passed: false, problems: ['pose.no_turn'] });
      const print = await takeCheck(model, {
        straight: faces.astronaut,
        left: await tiltedPrint(faces.astronaut, 0.5),
        right: await tiltedPrint(faces.astronaut, -0.5),
      });
      expect(print.json().passed).toBe(false);
      expect(print.json().problems.some((p: string) => p === 'pose.no_turn' || p === 'spoof.flat')).toBe(
        true,
      );
      expect(print.json().problems).not.toContain('face.different_person');
    },
  );

  it(
    'asks for all three frames, and for good photos to compare with first',
    { timeout: 60_000 },
    async () => {
      const empty = await modelWithPhotos(0);
      const none = await takeCheck(empty, own);
      expect(none.statusCode).toBe(400);
      expect(none.json().code).toBe('models.live_check_needs_photos');
      const model = await modelWithPhotos(1);
      const body = multipartBody([
        { name: 'straight', filename: 's.jpg', contentType: 'image/jpeg', data: own.straight },
      ]);
      const partial = await t.app.inject({
        method: 'POST',
        url: `/api/models/${model.uuid}/live-check/`,
        headers: { ...model.headers, ...body.headers },
        payload: body.payload,
      });
      expect(partial.statusCode).toBe(400);
      expect(partial.json()).toMatchObject({
        code: 'common.validation',
        left: [expect.any(String)],
        right: [expect.any(String)],
      });
    },
  );
});
