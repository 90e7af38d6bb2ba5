import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { astronautPhotos, passLiveCheck, uploadModelPhotos } from '../../test/models.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// The first digital model of an account trains free; the price shown before training is the
// price the training then takes, and the offer is spent once per account (deleting the model
// does not bring it back).
const PRICE = 100;
const WELCOME = 150;
let t: TestApp;
let photos: Buffer[];

beforeAll(async () => {
  t = await createTestApp({ env: { FIRST_MODEL_FREE: 'true', PRICE_MODEL_TRAINING: String(PRICE) } });
  photos = await astronautPhotos();
  await t.deps.faceAnalyzer.warmUp();
}, 120_000);
afterAll(() => t?.close());

async function signedIn() {
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, WELCOME);
  const { access } = await login(t, user.email!, user.password);
  return bearer(access);
}

const api = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const balance = async (headers: Record<string, string>) =>
  (await api('GET', '/api/credits/', headers)).json().balance as number;

async function modelReadyToTrain(headers: Record<string, string>, name: string) {
  const created = await api('POST', '/api/models/', headers, { name, category: 'female' });
  expect(created.statusCode, created.body).toBe(201);
  const { uuid } = created.json();
  const uploaded = await uploadModelPhotos(
    t,
    headers,
    uuid,
    photos.map((data) => ({ data })),
  );
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  return uuid as string;
}

async function train(headers: Record<string, string>, uuid: string) {
  const shown = (await api('GET', `/api/models/${uuid}/`, headers)).json().training_price as number;
  const before = await balance(headers);
  await passLiveCheck(t, uuid);
  const started = await api('POST', `/api/models/${uuid}/train/`, headers);
  expect(started.statusCode, started.body).toBe(202);
  // What the screen said is what was taken.
  expect(before - (await balance(headers))).toBe(shown);
  expect(started.json().cost).toBe(shown);
  await t.runJobs();
  expect((await api('GET', `/api/models/${uuid}/`, headers)).json().status).toBe(100);
  return shown;
}

describe('the first-model offer', () => {
  it(
    'trains the first model free and charges the next ones the price shown',
    { timeout: 180_000 },
    async () => {
      const headers = await signedIn();
      const first = await modelReadyToTrain(headers, 'First');
      const model = (await api('GET', `/api/models/${first}/`, headers)).json();
      expect(model.training_price).toBe(0);
      // The local engine trains here: a face profile in seconds.
      expect(model.training_seconds).toBeLessThanOrEqual(60);
      expect(await train(headers, first)).toBe(0);
      expect(await balance(headers)).toBe(WELCOME);

      // Spent: deleting the free model does not make the next one free.
      expect((await api('DELETE', `/api/models/${first}/`, headers)).statusCode).toBe(204);
      const second = await modelReadyToTrain(headers, 'Second');
      expect(await train(headers, second)).toBe(PRICE);
      expect(await balance(headers)).toBe(WELCOME - PRICE);
    },
  );

  it('lists a new model at the price its training would take', async () => {
    const headers = await signedIn();
    await api('POST', '/api/models/', headers, { name: 'Me', category: 'male' });
    const list = (await api('GET', '/api/models/', headers)).json();
    expect(list.results[0].training_price).toBe(0);
  });
});
