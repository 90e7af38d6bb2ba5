import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url } from '../lib/browser.js';
import { apiPassLiveCheck } from '../lib/live-check.js';
import { apiModelWithPhotos, writeFacePhotos, type FacePhotoFiles } from '../lib/models.js';
import { signInWithTokens } from '../lib/session.js';
import { grantStaff } from '../lib/staff.js';

// Photo packs on the offline engine: the catalogue and a pack's page in Russian and English at
// 360 px, and one pack bought whose album fills in live, then downloads as one ZIP.
let user: TestUser;
let photos: FacePhotoFiles;
const bearer = (who: Pick<TestUser, 'access'>) => `Bearer ${who.access}`;

beforeAll(async () => {
  photos = await writeFacePhotos(15);
  user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
  const modelUuid = await apiModelWithPhotos(user, photos.faces);
  await apiPassLiveCheck(user, modelUuid);
  const trained = await callApi(`/api/models/${modelUuid}/train/`, { body: {}, authorization: bearer(user) });
  expect(trained.status, JSON.stringify(trained.body)).toBe(202);
  // The offline engine trains in seconds; waited for here (expect.poll belongs to tests).
  for (let waited = 0; ; waited += 1000) {
    const model = await callApi<{ status: number }>(`/api/models/${modelUuid}/`, {
      authorization: bearer(user),
    });
    if (model.body.status === 100) break;
    if (waited > 90_000) throw new Error(`the model did not train: ${JSON.stringify(model.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  // Enough credits for one pack, granted by an admin through the console's API.
  const admin = await createActiveUser({ firstName: 'Grace', lastName: 'Admin' });
  await grantStaff(admin, 'admin');
  const granted = await callApi(`/api/admin/users/${user.uuid}/credits/`, {
    authorization: bearer(admin),
    body: { delta: 100, reason: 'Photo packs e2e', idempotency_key: `packs-${user.uuid}` },
  });
  expect(granted.status, JSON.stringify(granted.body)).toBeLessThan(300);
}, 240_000);
afterAll(() => photos?.remove());

describe('photo packs at 360 px', () => {
  it('ru dark: the catalogue and a pack’s page, in Russian, priced whole before buying', async () => {
    const s = await openBrowser('phone', {
      size: { width: 360, height: 780 },
      locale: 'ru',
      theme: 'dark',
      colorScheme: 'dark',
    });
    try {
      const { page } = s;
      await signInWithTokens(page, user);
      await page.goto(url('/create/'));
      await page.getByTestId('mode-photo_pack').click();
      await page.waitForURL((u) => u.pathname === '/packs/');
      const packs = page.getByTestId('photo-pack');
      await packs.first().waitFor();
      expect(await packs.count()).toBeGreaterThanOrEqual(8);
      await expect
        .poll(() => page.getByTestId('photo-pack-list').textContent())
        .toContain('Деловые портреты');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await saveScreenshot(page, 'packs-catalogue-ru-dark-360');
      await packs.filter({ hasText: 'Зимняя сказка' }).click();
      await page.getByTestId('photo-pack-buy').waitFor();
      await expect
        .poll(() => page.getByTestId('photo-pack-price').textContent())
        .toMatch(/Весь пак: 30 кредитов/);
      // What the offline engine does is said before the price, and how the likeness is made.
      expect(await page.getByTestId('engine-line').count()).toBe(1);
      await expect
        .poll(() => page.getByTestId('likeness-line').getAttribute('data-likeness'))
        .toBe('trained');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await saveScreenshot(page, 'packs-pack-ru-dark-360');
      // The same model while it still trains (the list answered as in training): usable at once,
      // made from its photos, with when the trained model is ready.
      await page.route(
        (u) => u.pathname === '/api/models/',
        async (route) => {
          const answer = await route.fetch();
          const body = (await answer.json()) as { results: Array<Record<string, unknown>> };
          body.results = body.results.map((model) => ({
            ...model,
            status: 60,
            progress: 40,
            training_seconds: 300,
          }));
          await route.fulfill({ response: answer, json: body });
        },
      );
      await page.reload();
      await expect
        .poll(() => page.getByTestId('likeness-line').textContent(), { timeout: 15_000 })
        .toBe('Мгновенное сходство по вашим фото — обученная модель будет готова примерно через 3 мин.');
      expect(await page.getByTestId('model-option').first().isEnabled()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.getByTestId('likeness-line').scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'packs-pack-instant-likeness-ru-dark-360');
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('de light: the catalogue, a pack’s page and the console’s pack editor fit 360 px in German', async () => {
    const s = await openBrowser('phone', { size: { width: 360, height: 780 }, locale: 'de', theme: 'light' });
    try {
      const { page } = s;
      await grantStaff(user, 'admin');
      await signInWithTokens(page, user);
      const fits = async () =>
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.goto(url('/packs/'));
      await expect.poll(() => page.getByTestId('photo-pack-list').textContent()).toContain('Wintermärchen');
      await fits();
      await saveScreenshot(page, 'packs-catalogue-de-light-360');
      await page.getByTestId('photo-pack').filter({ hasText: 'Wintermärchen' }).click();
      await expect
        .poll(() => page.getByTestId('photo-pack-price').textContent())
        .toMatch(/Ganzes Paket: 30 Credits/);
      await fits();
      await saveScreenshot(page, 'packs-pack-de-light-360', true);
      await page.goto(url('/admin/packs/'));
      await page.getByTestId('admin-photo-pack').first().click();
      await page.getByTestId('admin-photo-pack-form').waitFor();
      expect(await page.getByTestId('admin-photo-pack-title-de').inputValue()).toBe('Business-Porträts');
      // The emoji as art and the cover button in the console's language (not the browser's "Choose File").
      expect(
        await page
          .getByTestId('admin-photo-pack-emoji-art')
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBeGreaterThan(0);
      await page.getByText('Anderes Bild wählen').or(page.getByText('Bild auswählen')).first().waitFor();
      await fits();
      await saveScreenshot(page, 'packs-console-de-light-360', true);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('en light: buying a pack opens its album, which fills in live and downloads as one ZIP', async () => {
    const s = await openBrowser('phone', { size: { width: 360, height: 780 }, locale: 'en', theme: 'light' });
    try {
      const { page } = s;
      await signInWithTokens(page, user);
      await page.goto(url('/packs/'));
      await page.getByTestId('photo-pack').filter({ hasText: 'Business headshots' }).click();
      await page.getByTestId('photo-pack-buy').waitFor();
      await expect.poll(() => page.getByTestId('photo-pack-buy').isEnabled()).toBe(true);
      expect(await page.getByTestId('photo-pack-buy').textContent()).toBe('Create 10 photos for 30 credits');
      expect(await page.getByTestId('likeness-line').textContent()).toBe('Likeness from your trained model.');
      await page.getByTestId('likeness-line').scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'packs-pack-trained-likeness-en-light-360');
      await page.getByTestId('photo-pack-buy').click();
      await page.waitForURL((u) => u.pathname.startsWith('/albums/'), { timeout: 30_000 });
      const album = page.getByTestId('photo-pack-album');
      await album.waitFor();
      expect(await page.getByTestId('photo-pack-album-item').count()).toBe(10);
      // Seen filling: some pictures ready while others are still being made.
      await expect
        .poll(async () => Number(await album.getAttribute('data-ready')), { timeout: 120_000, interval: 250 })
        .toBeGreaterThan(0);
      const readyWhenFirstSeen = Number(await album.getAttribute('data-ready'));
      await saveScreenshot(page, 'packs-album-filling-en-light-360');
      await expect
        .poll(async () => Number(await album.getAttribute('data-ready')), {
          timeout: 240_000,
          interval: 1000,
        })
        .toBe(10);
      expect(readyWhenFirstSeen).toBeLessThan(10);
      expect(await page.getByTestId('photo-pack-album-count').textContent()).toBe('Done: 10 photos');
      await saveScreenshot(page, 'packs-album-done-en-light-360');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('photo-pack-download').click(),
      ]);
      const file = await download.path();
      const { readFile } = await import('node:fs/promises');
      const zip = await readFile(file!);
      expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      expect(zip.toString('latin1').match(/mirra-\d\d\.(jpg|png)/g)?.length).toBeGreaterThanOrEqual(10);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
