import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { averageDescriptor } from '@mirra/imaging';
import { multipartBody } from './images.js';
import { astronautPhotos } from '@mirra/imaging/testing';
import { modelLiveChecks, modelPhotos, models } from '../shared/db/schema.js';
import type { TestApp } from './test-app.js';

export { astronautPhotos };

/** POSTs files to a model's photos endpoint as one multipart upload. */
export function uploadModelPhotos(
  t: TestApp,
  headers: Record<string, string>,
  modelUuid: string,
  files: Array<{ data: Buffer; filename?: string; contentType?: string }>,
) {
  const body = multipartBody(
    files.map((file, index) => ({
      name: 'files',
      filename: file.filename ?? `photo-${index + 1}.jpg`,
      contentType: file.contentType ?? 'image/jpeg',
      data: file.data,
    })),
  );
  return t.app.inject({
    method: 'POST',
    url: `/api/models/${modelUuid}/photos/`,
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
}

/**
 * Records a passed live check for a model whose photos are uploaded, as if its owner had taken it
 * (the frames' descriptor is the photos' own): for tests about what comes after the check. The
 * check itself is tested through its route in live-check.routes.test.ts.
 */
export async function passLiveCheck(t: TestApp, modelUuid: string): Promise<void> {
  const [model] = await t.deps.db.select().from(models).where(eq(models.uuid, modelUuid));
  if (!model) throw new Error(`passLiveCheck: no model ${modelUuid}`);
  const photos = await t.deps.db.select().from(modelPhotos).where(eq(modelPhotos.modelId, model.id));
  const descriptor = averageDescriptor(
    photos.filter((photo) => photo.ok).map((photo) => photo.analysis.faces[0]?.descriptor ?? []),
  );
  const measures = { yaws: [0, 0.3, -0.3], similarity: 1, nonPlanarMotion: 0.1, real: [], live: [] };
  await t.deps.db
    .insert(modelLiveChecks)
    .values({
      modelId: model.id,
      userId: model.userId,
      passed: true,
      measures,
      descriptor,
      checkedAt: t.deps.now(),
    })
    .onConflictDoUpdate({ target: modelLiveChecks.modelId, set: { passed: true, descriptor } });
}

/** Creates a model through the API, uploads the 15 astronaut photos, trains it, runs the job. */
export async function createTrainedModel(
  t: TestApp,
  headers: Record<string, string>,
  name = 'Me',
): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/models/',
    headers,
    payload: { name, category: 'female' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const { uuid } = created.json();
  const uploaded = await uploadModelPhotos(
    t,
    headers,
    uuid,
    (await astronautPhotos()).map((data) => ({ data })),
  );
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  expect(uploaded.json().reference_count).toBe(15);
  await passLiveCheck(t, uuid);
  const trained = await t.app.inject({ method: 'POST', url: `/api/models/${uuid}/train/`, headers });
  expect(trained.statusCode, trained.body).toBe(202);
  await t.runJobs();
  const model = await t.app.inject({ method: 'GET', url: `/api/models/${uuid}/`, headers });
  expect(model.json().status, model.json().error_detail).toBe(100);
  return uuid;
}
