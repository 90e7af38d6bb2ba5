import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFalFake, type FalFake } from '../../apps/server/src/fakes/fal.fake.js';
import { startReplicateFake, type ReplicateFake } from '../../apps/server/src/fakes/replicate.fake.js';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { apiGenerate, apiUpload, apiWaitForGeneration, makeTestPhoto } from '../lib/generations.js';
import { apiPassLiveCheck } from '../lib/live-check.js';
import { apiModelWithPhotos, writeFacePhotos, type FacePhotoFiles } from '../lib/models.js';
import { startDedicatedServer, type DedicatedServer } from '../lib/server.js';
import { signInWithTokens } from '../lib/session.js';

/**
 * Real AI engines switched on, against the local fakes of fal.ai and Replicate (they answer as
 * those APIs do, with real pictures drawn by the local imaging code): pictures from a description
 * go to fal first (ENGINE_SIMPLE=fal,local), face swap to Replicate (ENGINE_FACE_SWAP=replicate,
 * local). The user sees fal's queue in the live progress, the result says which engine made it,
 * and a fal outage falls back to the offline engine. Its own server, so the others keep `local`.
 */
let fal: FalFake;
let replicate: ReplicateFake;
let server: DedicatedServer;
let restoreEnv: () => void;
let photos: FacePhotoFiles;

const RESULT = { timeout: 60_000 };
const resultPath = /^\/generation\/([0-9a-f-]{36})\/$/;
const bearer = (user: TestUser) => `Bearer ${user.access}`;

beforeAll(async () => {
  // Three status reads in fal's queue (places 2, 1, 0), then two in progress: a few seconds.
  fal = await startFalFake({ queueSteps: 3, progressSteps: 2, deliverWebhooks: true });
  replicate = await startReplicateFake({ processingSteps: 2, deliverWebhooks: true });
  server = await startDedicatedServer({
    ENGINE_SIMPLE: 'fal,local',
    ENGINE_FACE_SWAP: 'replicate,local',
    // The fakes draw random pictures; the bundled image classifier (tested on its own) now and
    // then refuses one, which would fail a step at random.
    MODERATION_IMAGES: 'false',
    FAL_KEY: fal.key,
    FAL_BASE_URL: fal.url,
    FAL_JWKS_URL: fal.jwksUrl,
    FAL_USER_ID: fal.userId,
    REPLICATE_API_TOKEN: replicate.token,
    REPLICATE_BASE_URL: replicate.url,
    WELCOME_CREDITS: '20',
    PRICE_SIMPLE: '1',
    PRICE_FACE_SWAP: '1',
    PRICE_MODEL_TRAINING: '2',
    FREE_DAILY_PHOTOS: '50',
    FREE_DELAY_SECONDS: '0',
  });
  restoreEnv = server.use().restore;
  photos = await writeFacePhotos(15);
}, 180_000);
afterAll(async () => {
  restoreEnv?.();
  await server?.stop();
  await Promise.all([fal?.close(), replicate?.close(), photos?.remove()]);
}, 60_000);

/** Records every text the progress screen's phase line showed, from the first paint on. */
async function recordPhases(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __phases: string[] };
    w.__phases = [];
    const read = () => {
      const text = document.querySelector('[data-testid="generation-phase"]')?.textContent ?? null;
      if (text && w.__phases.at(-1) !== text) w.__phases.push(text);
    };
    new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const phasesSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __phases: string[] }).__phases);

async function generateFromPrompt(page: Page, prompt: string): Promise<string> {
  await page.goto(url('/generate/simple/'));
  await page.getByTestId('prompt').fill(prompt);
  if ((await page.getByTestId('seed').count()) === 0) await page.getByTestId('advanced-toggle').click();
  await page.getByTestId('seed').fill('2');
  await page.getByTestId('generate-submit').click();
  await page.waitForURL((u) => resultPath.test(u.pathname));
  return new URL(page.url()).pathname.split('/')[2]!;
}

describe.each(VIEWPORT_NAMES)('AI providers (%s)', (viewport) => {
  const theme = viewport === 'desktop' ? 'dark' : 'light';
  let s: Session;
  let user: TestUser;
  beforeEach(async () => {
    s = await openBrowser(viewport, { theme });
    user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
  });
  afterEach(async () => {
    await s.close();
  });

  it('a picture from a description is made by fal: its queue place shows live, the result says fal made it', async () => {
    const { page } = s;
    await recordPhases(page);
    await signInWithTokens(page, user);
    const before = fal.submissions;
    await generateFromPrompt(page, 'A red fox in a snowy forest at dawn');
    // While fal holds the job in its queue the screen says the place (fal's 0 is place 1).
    const queued = page.getByText(/AI provider’s queue: place \d/);
    await queued.waitFor({ timeout: 30_000 });
    await saveScreenshot(page, `provider-queue-${viewport}-${theme}`);
    await page.getByTestId('result-image').waitFor(RESULT);
    await expect
      .poll(() => page.getByTestId('result-notes').textContent())
      .toContain('Made by fal with fal-ai/flux/schnell.');
    await page.waitForTimeout(300);
    await saveScreenshot(page, `provider-result-${viewport}-${theme}`, true);
    expect(fal.submissions).toBe(before + 1);
    const places = (await phasesSeen(page)).filter((text) => /queue: place/.test(text));
    expect(places.length).toBeGreaterThan(0);
    expect(s.errors).toEqual([]);
  });

  it('when fal is down the picture is made by the offline engine, and the result says why', async () => {
    const { page } = s;
    await signInWithTokens(page, user);
    fal.failNextSubmits({ status: 503 });
    const uuid = await generateFromPrompt(page, 'A lighthouse at dusk');
    await page.getByTestId('result-image').waitFor(RESULT);
    await expect
      .poll(() => page.getByTestId('result-notes').textContent())
      .toContain('Made by local: fal unavailable.');
    const { body } = await callApi<{ result: { engine: string } }>(`/api/generations/${uuid}/`, {
      authorization: bearer(user),
    });
    expect(body.result.engine).toBe('local');
    expect(s.errors).toEqual([]);
  });
});

describe('face swap through Replicate', () => {
  it('puts the trained model’s face on a photo at Replicate; the result says Replicate made it', async () => {
    const user = await createActiveUser({ firstName: 'Grace', lastName: 'Hopper' });
    const modelUuid = await apiModelWithPhotos(user, photos.faces);
    await apiPassLiveCheck(user, modelUuid);
    const trained = await callApi(`/api/models/${modelUuid}/train/`, {
      body: {},
      authorization: bearer(user),
    });
    expect(trained.status).toBe(202);
    await expect
      .poll(
        async () =>
          (await callApi<{ status: number }>(`/api/models/${modelUuid}/`, { authorization: bearer(user) }))
            .body.status,
        { timeout: 60_000 },
      )
      .toBe(100);
    const target = await apiUpload(user, await makeTestPhoto(900, 700));
    const created = await apiGenerate(user, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      images: [target.uuid],
    });
    const done = await apiWaitForGeneration(user, created.uuid, 60_000);
    expect(done.status, JSON.stringify(done)).toBe(100);

    const s = await openBrowser('phone', { theme: 'light' });
    try {
      await signInWithTokens(s.page, user);
      await s.page.goto(url(`/generation/${created.uuid}/`));
      await s.page.getByTestId('result-image').waitFor(RESULT);
      await expect
        .poll(() => s.page.getByTestId('result-notes').textContent())
        .toContain('Made by replicate with cdingram/face-swap.');
      await saveScreenshot(s.page, 'provider-face-swap-phone-light', true);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
