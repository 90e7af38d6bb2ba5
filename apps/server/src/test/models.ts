import { expect } from 'vitest';
import { multipartBody } from './images.js';
import { astronautPhotos } from '@mirra/imaging/testing';
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
  const trained = await t.app.inject({ method: 'POST', url: `/api/models/${uuid}/train/`, headers });
  expect(trained.statusCode, trained.body).toBe(202);
  await t.runJobs();
  const model = await t.app.inject({ method: 'GET', url: `/api/models/${uuid}/`, headers });
  expect(model.json().status, model.json().error_detail).toBe(100);
  return uuid;
}
