import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { apiBalance, apiGenerate, apiWaitForGeneration, E2E_SETTINGS } from '../lib/generations.js';
import {
  apiModelWithPhotos,
  photoProgressSeen,
  photoStatesSeen,
  recordModelScreens,
  trainingProgressSeen,
  writeFacePhotos,
  type FacePhotoFiles,
} from '../lib/models.js';
import { apiPassLiveCheck, writeFakeCamera, type FakeCamera } from '../lib/live-check.js';
import { openPurchaseSheet, payOnTestCheckout, tickConsent } from '../lib/payments.js';
import { signInWithTokens } from '../lib/session.js';
import { callApi } from '../lib/accounts.js';
import { installTelegramHost, miniAppUrl, newTelegramUser, signInitData } from '../lib/telegram.js';

/** Face analysis of 16 photos and a training on a small machine: minutes, not seconds. */
const CHECKS = { timeout: 180_000 };
const RESULT = { timeout: 60_000 };
/** A fixed seed: the same picture each run (and the same answer from the result moderation). */
const SEED = '2';
const uuidPath = (prefix: string) => new RegExp(`^${prefix}[0-9a-f-]{36}/$`);

let photos: FacePhotoFiles;
/** The owner's face for the live check before training, played by Chromium's fake camera. */
let camera: FakeCamera;
const bearer = (user: Pick<TestUser, 'access'>) => `Bearer ${user.access}`;

/** The statuses of the person's models, newest first. */
async function apiModelStatuses(user: TestUser): Promise<number[]> {
  const list = await callApi<{ results: Array<{ status: number }> }>('/api/models/', {
    authorization: bearer(user),
  });
  return list.body.results.map((model) => model.status);
}

beforeAll(async () => {
  [photos, camera] = await Promise.all([writeFacePhotos(15), writeFakeCamera('own')]);
}, 180_000);
afterAll(async () => {
  await photos?.remove();
  await camera?.remove();
});

describe.each(VIEWPORT_NAMES)('digital model (%s)', (viewport) => {
  let s: Session;
  let user: TestUser;
  // Each viewport in one theme here; the model's screens are also shot in the other at the end.
  const theme = viewport === 'desktop' ? 'dark' : 'light';
  const otherTheme = theme === 'dark' ? 'light' : 'dark';
  beforeEach(async () => {
    s = await openBrowser(viewport, { theme, extraArgs: camera.args });
    user = await createActiveUser({ firstName: 'Eileen', lastName: 'Collins' });
  });
  afterEach(async () => {
    await s.close();
  });

  it(
    'uploads 16 photos with per-file progress and verdicts, trains with progress and success, then makes a face photo and a face swap',
    { timeout: 600_000 },
    async () => {
      const { page } = s;
      await recordModelScreens(page);
      await signInWithTokens(page, user);
      await page.goto(url('/upload/'));
      const upload = page.getByTestId('upload-page');
      await upload.getByTestId('model-intro').waitFor();
      expect(await upload.getByTestId('upload-tips').textContent()).toContain('A few in low light');
      await upload.getByTestId('model-name').fill('Holiday me');
      await upload.getByRole('radio', { name: 'Female', exact: true }).click();
      await saveScreenshot(page, `upload-intro-${viewport}-${theme}`);

      // Many at once (a browser, not Android inside Telegram): 15 of one person and a coffee cup.
      const input = upload.getByTestId('model-photo-input');
      expect(await input.getAttribute('multiple')).not.toBeNull();
      await input.setInputFiles([...photos.faces, photos.noFace]);
      await upload.getByTestId('model-photo').first().waitFor();
      // The grid moves from the intro to the model's panel once the model exists: scroll to either.
      await page.evaluate(() => document.querySelector('[data-testid="model-photos"]')?.scrollIntoView());
      await saveScreenshot(page, `upload-progress-${viewport}-${theme}`);

      await expect
        .poll(() => upload.getByTestId('good-count').textContent(), CHECKS)
        .toBe('Good photos: 15 of 15 needed');
      await expect.poll(() => upload.getByTestId('bad-count').textContent()).toBe("1 photo can't be used");
      const problem = upload.locator('[data-testid="model-photo"][data-state="problem"]');
      expect(await problem.count()).toBe(1);
      expect(await problem.getByTestId('model-photo-reason').textContent()).toBe('No face found');
      expect(await upload.locator('[data-testid="model-photo"][data-state="good"]').count()).toBe(15);
      expect(await upload.getByTestId('photos-needed').textContent()).toBe(
        'Enough to train. More good photos make a better model.',
      );
      expect(await upload.getByTestId('model-name-shown').textContent()).toBe('Holiday me');

      // Every file had its own tile and bar on the way, and was checked by the server.
      const names = [...photos.faces, photos.noFace].map((file) => path.basename(file));
      const states = await photoStatesSeen(page);
      const progress = await photoProgressSeen(page);
      expect(Object.keys(states).sort()).toEqual([...names].sort());
      for (const name of names) {
        expect(states[name], name).toContain('queued');
        expect(progress[name]?.length, name).toBeGreaterThan(0);
        expect(
          states[name]!.some((state) => state === 'uploading' || state === 'checking'),
          name,
        ).toBe(true);
      }
      await page.waitForTimeout(300);
      await saveScreenshot(page, `upload-checked-${viewport}-${theme}`, true);

      // Training: the price first (the first model is free), a question before anything is
      // charged, then the progress dialog, then success.
      expect(await upload.getByTestId('training-price').textContent()).toBe('Free: your first model');
      expect(await upload.getByTestId('training-balance').textContent()).toBe(
        `${E2E_SETTINGS.welcomeCredits} credits`,
      );
      // The local engine trains here: the screen says seconds, not "up to 30 minutes".
      expect(await upload.getByTestId('training-time-note').textContent()).toContain('half a minute');
      await upload.getByTestId('train-submit').click();
      // First the live check (the camera films the owner turning their head), then the question.
      await page.getByTestId('live-check-start').click();
      const confirm = page.getByTestId('train-confirm-sheet');
      await confirm.waitFor(RESULT);
      expect(await confirm.getByTestId('train-confirm-text').textContent()).toContain('trains free');
      await page.waitForTimeout(300);
      await saveScreenshot(page, `training-confirm-${viewport}-${theme}`);
      // Nothing starts before the answer.
      expect(await apiModelStatuses(user)).toEqual([0]);
      await confirm.getByTestId('train-confirm').click();
      const ready = page.getByTestId('training-ready');
      // The progress dialog comes first and stays a moment, however quick the engine (the local
      // one trains in about a second): its stages are seen, never a flash straight to success.
      await page.getByTestId('training-hide').waitFor();
      const progressShownAt = Date.now();
      await page.waitForTimeout(400);
      await saveScreenshot(page, `training-dialog-${viewport}-${theme}`);
      await ready.waitFor(CHECKS);
      expect(Date.now() - progressShownAt).toBeGreaterThan(1500);
      expect((await trainingProgressSeen(page)).length).toBeGreaterThan(0);
      await page.waitForTimeout(300);
      await saveScreenshot(page, `training-ready-${viewport}-${theme}`);
      // The first model took nothing from the welcome credits.
      expect(await apiBalance(user)).toBe(E2E_SETTINGS.welcomeCredits);

      // Create a photo: face photo mode with this model chosen; a prompt and no photo.
      await ready.getByTestId('create-photo').click();
      await page.waitForURL((u) => u.pathname === '/generate/face_swap/' && u.searchParams.has('model'));
      const modelUuid = new URL(page.url()).searchParams.get('model')!;
      const option = page.getByTestId('model-option');
      await option.first().waitFor();
      expect(await option.count()).toBe(1);
      expect(await option.getAttribute('aria-checked')).toBe('true');
      expect(await option.textContent()).toContain('15 reference photos');
      await page.getByTestId('no-photo-hint').waitFor();
      await page.getByTestId('prompt').fill('An astronaut portrait in front of the Moon, cinematic light');
      if ((await page.getByTestId('seed').count()) === 0) await page.getByTestId('advanced-toggle').click();
      await page.getByTestId('seed').fill(SEED);
      await saveScreenshot(page, `face-photo-form-${viewport}-${theme}`);
      await page.getByTestId('generate-submit').click();
      await page.waitForURL((u) => uuidPath('/generation/').test(u.pathname));
      await page.getByTestId('result-image').waitFor(RESULT);
      await page.waitForTimeout(300);
      await saveScreenshot(page, `face-photo-result-${viewport}-${theme}`, true);
      const facePhoto = new URL(page.url()).pathname.split('/')[2]!;

      // The result's face swap (among its tools): the result becomes the target photo, the model is chosen.
      await page.getByTestId('result-tools').click();
      await page.getByTestId('result-face-swap').click();
      await page.waitForURL(url(`/generate/face_swap/generation/${facePhoto}/`));
      await page.getByTestId('photo-preview').waitFor(RESULT);
      await expect.poll(() => option.getAttribute('aria-checked')).toBe('true');
      await page.getByTestId('generate-submit').click();
      await page.waitForURL(
        (u) => uuidPath('/generation/').test(u.pathname) && !u.pathname.includes(facePhoto),
      );
      await page.getByTestId('result-image').waitFor(RESULT);
      // Two face pictures were paid for; the free training took nothing.
      expect(await apiBalance(user)).toBe(E2E_SETTINGS.welcomeCredits - 2 * E2E_SETTINGS.prices.faceSwap);

      // The model's page: ready, its reference count; a photo added to the trained model is
      // checked and joins its references.
      await page.goto(url(`/model/${modelUuid}/`));
      const details = page.getByTestId('model-details');
      await details.waitFor();
      expect(await details.getByTestId('model-status').textContent()).toBe('Ready');
      expect(await details.getByTestId('model-title').textContent()).toBe('Holiday me');
      await details.getByTestId('model-photo-input').setInputFiles(photos.extraFace);
      await expect.poll(() => details.textContent(), CHECKS).toContain('16 reference photos');
      await saveScreenshot(page, `model-page-${viewport}-${theme}`, true);
      // The same screens in the other theme: the model's page, and /upload/ listing the model.
      await s.context.addCookies([{ name: 'theme', value: otherTheme, url: url('/') }]);
      await page.reload();
      await details.waitFor();
      await page.waitForTimeout(300);
      await saveScreenshot(page, `model-page-${viewport}-${otherTheme}`, true);
      await page.goto(url('/upload/'));
      await page.getByTestId('model-list-item').waitFor();
      expect(await page.getByTestId('model-list-item').textContent()).toContain('Ready');
      await page.waitForTimeout(300);
      await saveScreenshot(page, `upload-with-models-${viewport}-${otherTheme}`, true);
      await page.goto(url(`/model/${modelUuid}/`));
      await details.waitFor();

      // Deleting the photo without a face; the model itself, after a confirmation.
      await details
        .locator('[data-testid="model-photo"][data-state="problem"]')
        .getByTestId('model-photo-delete')
        .click();
      await expect
        .poll(() => details.locator('[data-testid="model-photo"][data-state="problem"]').count())
        .toBe(0);
      await details.getByTestId('delete-model').click();
      await page.getByTestId('delete-model-sheet').waitFor();
      await saveScreenshot(page, `model-delete-${viewport}-${theme}`);
      await page.getByTestId('delete-model-confirm').click();
      await page.waitForURL(url('/upload/'));
      // Without a trained model, face swap sends to /upload/ again.
      await page.goto(url('/generate/face_swap/'));
      await page.waitForURL(url('/upload/'));
      expect(s.errors).toEqual([]);
    },
  );

  it('training without enough credits opens the credit balance dialog, charges nothing, and buying comes back to the model', async () => {
    const { page } = s;
    if (viewport === 'phone') await page.setViewportSize({ width: 360, height: 780 });
    // The first model, trained free, spends the first-model offer: the next one costs credits.
    const first = await apiModelWithPhotos(user, photos.faces, 'First');
    await apiPassLiveCheck(user, first);
    expect(
      (await callApi(`/api/models/${first}/train/`, { method: 'POST', authorization: bearer(user) })).status,
    ).toBe(202);
    await expect.poll(() => apiModelStatuses(user), { timeout: 60_000 }).toEqual([100]);
    const uuid = await apiModelWithPhotos(user, photos.faces);
    // Spend the welcome credits down to less than training costs.
    const spend = E2E_SETTINGS.welcomeCredits - E2E_SETTINGS.prices.modelTraining + 1;
    for (let i = 0; i < spend; i += 1) {
      const generation = await apiGenerate(user, {
        mode: 'simple',
        prompt: 'A lighthouse on a cliff at sunset',
        seed: 2,
      });
      expect((await apiWaitForGeneration(user, generation.uuid)).status).toBe(100);
    }
    const balance = await apiBalance(user);
    expect(balance).toBeLessThan(E2E_SETTINGS.prices.modelTraining);
    await apiPassLiveCheck(user, uuid);
    await signInWithTokens(page, user);
    await page.goto(url(`/model/${uuid}/`));
    const details = page.getByTestId('model-details');
    await details.waitFor();
    expect(await details.getByTestId('model-status').textContent()).toBe('Collecting photos');
    await expect
      .poll(() => details.getByTestId('good-count').textContent())
      .toBe('Good photos: 15 of 15 needed');
    await details.getByTestId('train-submit').click();
    const confirm = page.getByTestId('train-confirm-sheet');
    await confirm.waitFor();
    expect(await confirm.getByTestId('train-confirm').textContent()).toBe(
      `Train for ${E2E_SETTINGS.prices.modelTraining} credits`,
    );
    await confirm.getByTestId('train-confirm').click();
    const dialog = page.getByTestId('credits-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('credits-shortfall').textContent()).toBe(
      "You don't have enough 1 credit for generation.",
    );
    await saveScreenshot(page, `model-train-credits-${viewport}-${theme}`);
    expect(await apiBalance(user)).toBe(balance);
    expect(await details.getByTestId('model-status').textContent()).toBe('Collecting photos');

    // Buying the credits comes back to this model waiting to train (never a blank new-model
    // form): first how the payment went, then the question to train, ready to answer.
    await openPurchaseSheet(page);
    await page.getByTestId('purchase-product-credits_100').click();
    await page.getByTestId('purchase-method-test').click();
    await tickConsent(page);
    await page.getByTestId('purchase-submit').click();
    await payOnTestCheckout(page);
    await page.waitForURL(
      (u) =>
        u.pathname === `/model/${uuid}/` &&
        u.searchParams.get('train') === '1' &&
        u.searchParams.has('payment'),
    );
    const paid = page.getByTestId('payment-result');
    await paid.waitFor();
    expect(await paid.getAttribute('data-status')).toBe('paid');
    expect(await page.getByTestId('train-confirm-sheet').count()).toBe(0);
    await page.waitForTimeout(300);
    await saveScreenshot(page, `model-train-paid-${viewport}-${theme}`);
    await page.keyboard.press('Escape');
    const again = page.getByTestId('train-confirm-sheet');
    await again.waitFor();
    expect(await again.getByTestId('train-confirm').textContent()).toBe(
      `Train for ${E2E_SETTINGS.prices.modelTraining} credits`,
    );
    // The model's photos are all still there, and the balance the price line shows is the new one.
    expect(await details.getByTestId('good-count').textContent()).toBe('Good photos: 15 of 15 needed');
    await expect
      .poll(() => again.getByTestId('training-balance').textContent())
      .toBe(`${balance + 100} credits`);
    await page.waitForTimeout(300);
    await saveScreenshot(page, `model-train-again-${viewport}-${theme}`);
    await again.getByTestId('train-confirm').click();
    await page.getByTestId('training-ready').waitFor(CHECKS);
    expect(await apiBalance(user)).toBe(balance + 100 - E2E_SETTINGS.prices.modelTraining);
    // Answered once: a reload does not ask again.
    expect(new URL(page.url()).searchParams.has('train')).toBe(false);
  });

  it('keeps uploading while /upload/ is hidden, and shows the verdicts on return', async () => {
    const { page } = s;
    await signInWithTokens(page, user);
    await page.goto(url('/upload/'));
    const upload = page.getByTestId('upload-page');
    await upload.getByTestId('model-photo-input').setInputFiles(photos.faces.slice(0, 3));
    await upload.getByTestId('model-photo').first().waitFor();
    // Leave in-app at once (the photos are likely still on their way), then come back.
    await page.getByTestId('header-profile').click();
    await page.getByTestId('profile-page').waitFor();
    await page.goBack();
    await page.waitForURL(url('/upload/'));
    await expect
      .poll(() => upload.getByTestId('good-count').textContent(), CHECKS)
      .toBe('Good photos: 3 of 15 needed');
    expect(await upload.locator('[data-testid="model-photo"][data-state="good"]').count()).toBe(3);
    expect(await upload.getByTestId('photos-needed').textContent()).toBe(
      'Add 12 more good photos to start training.',
    );
    expect(await upload.getByTestId('train-submit').isDisabled()).toBe(true);
  });

  it('face swap without a trained model goes to /upload/, from the mode and from a post', async () => {
    const { page } = s;
    await signInWithTokens(page, user);
    await page.goto(url('/generate/face_swap/'));
    await page.waitForURL(url('/upload/'));
    await page.getByTestId('upload-page').waitFor();
    await page.goto(url(`/generate/face_swap/post/${randomUUID()}/`));
    await page.waitForURL(url('/upload/'));
    await page.getByTestId('model-intro').waitFor();
  });
});

describe('digital model inside Telegram on Android', () => {
  it('picks one photo at a time and says so', async () => {
    const s = await openBrowser('phone');
    try {
      await installTelegramHost(s.page);
      const user = newTelegramUser({ first_name: 'Aidar' });
      await s.page.goto(
        miniAppUrl('/upload/', { initData: signInitData(user), version: '8.0', platform: 'android' }),
      );
      // The first launch made the account: the onboarding once, then the page Telegram opened.
      await s.page.getByTestId('welcome-page').waitFor();
      await saveScreenshot(s.page, 'welcome-telegram-android');
      await s.page.getByTestId('welcome-skip').click();
      await s.page.waitForURL((u) => u.pathname === '/upload/');
      const notice = s.page.getByTestId('one-file-notice');
      await notice.waitFor();
      await s.page.getByTestId('upload-tips').waitFor();
      expect(await notice.textContent()).toBe('On Android inside Telegram, choose files one at a time.');
      expect(await s.page.getByTestId('model-photo-input').getAttribute('multiple')).toBeNull();
      await saveScreenshot(s.page, 'upload-telegram-android');
    } finally {
      await s.close();
    }
  });
});
