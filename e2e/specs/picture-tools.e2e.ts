import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTestFaces } from '@mirra/imaging/testing';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiWaitForGeneration } from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';
import { grantStaff } from '../lib/staff.js';

const resultPath = /^\/generation\/[0-9a-f-]{36}\/$/;
const uuidOf = (page: Page) => new URL(page.url()).pathname.split('/')[2]!;

/** Credits for a run of several tools, granted by an admin through the console's API. */
async function grantCredits(user: TestUser, delta: number) {
  const admin = await createActiveUser({ firstName: 'Grace', lastName: 'Admin' });
  await grantStaff(admin, 'admin');
  const login = await callApi<{ access: string }>('/api/token/login/', {
    body: { email: admin.email, password: admin.password },
  });
  const granted = await callApi(`/api/admin/users/${user.uuid}/credits/`, {
    authorization: `Bearer ${login.body.access}`,
    body: { delta, reason: 'Picture tools e2e', idempotency_key: `tools-${user.uuid}` },
  });
  expect(granted.status, JSON.stringify(granted.body)).toBeLessThan(300);
}

/**
 * Submits the form once the free tier's pause between generations is over (the pause and its
 * dialog have their own tests), and waits for the result.
 */
async function submitAndWaitForResult(page: Page, user: TestUser, timeout: number) {
  const mode = new URL(page.url()).pathname.split('/')[2]!;
  await expect
    .poll(
      async () =>
        (
          await callApi<{ wait_seconds: number }>(`/api/generations/price/?mode=${mode}`, {
            authorization: `Bearer ${user.access}`,
          })
        ).body.wait_seconds,
      { timeout: 20_000, interval: 500 },
    )
    .toBe(0);
  const created = page.waitForResponse(
    (response) => response.url().endsWith('/api/generations/') && response.request().method() === 'POST',
  );
  await page.getByTestId('generate-submit').click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  await page.waitForURL((u) => resultPath.test(u.pathname), { timeout: 30_000 });
  await page.getByTestId('result-image').waitFor({ timeout });
  return uuidOf(page);
}

describe('picture tools at 360 px', () => {
  let s: Session;
  let user: TestUser;
  beforeEach(async () => {
    s = await openBrowser('phone', { size: { width: 360, height: 780 } });
    user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
    await grantCredits(user, 30);
  });
  afterEach(async () => {
    await s.close();
  });

  it('four pictures at 9:16, one enlarged ×4; a portrait’s background removed (a PNG with alpha), a painted part removed, extended to 16:9', async () => {
    const { page } = s;
    await signInWithTokens(page, user);

    // Four pictures at 9:16: priced per picture before submitting, filling in as a set.
    await page.goto(url('/generate/simple/'));
    await page.getByTestId('prompt').fill('A lighthouse on a cliff at sunset');
    await page.getByTestId('picture-count-4').click();
    await page.getByTestId('picture-aspect-9x16').click();
    await expect.poll(() => page.getByTestId('price-cost').textContent()).toBe('4 credits');
    await saveScreenshot(page, 'tools-count-aspect-360');
    await page.getByTestId('generate-submit').click();
    await page.waitForURL((u) => resultPath.test(u.pathname));
    const items = page.getByTestId('generation-set-item');
    await expect.poll(() => items.count()).toBe(4);
    await expect
      .poll(
        async () => (await items.evaluateAll((all) => all.map((a) => a.getAttribute('data-status')))).join(),
        {
          timeout: 150_000,
        },
      )
      .toBe('100,100,100,100');
    await page.getByTestId('result-image').waitFor();
    const picture = await apiWaitForGeneration(user, uuidOf(page));
    expect(picture.result!.height / picture.result!.width).toBeCloseTo(16 / 9, 1);
    await saveScreenshot(page, 'tools-set-360');

    // The second picture of the set, enlarged ×4.
    await items.nth(1).click();
    await page.getByTestId('result-image').waitFor();
    const second = await apiWaitForGeneration(user, uuidOf(page));
    // The tools wait behind the result's one Tools button (a bottom sheet).
    await page.getByTestId('result-tools').click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(300); // the sheet's slide-up, for the screenshot
    await saveScreenshot(page, 'tools-sheet-360');
    await page.getByTestId('result-tool-upscale').click();
    await page.getByTestId('photo-preview').waitFor({ timeout: 30_000 });
    await page.getByTestId('tool-scale-4').click();
    const upscaled = await apiWaitForGeneration(user, await submitAndWaitForResult(page, user, 240_000));
    expect(upscaled.status).toBe(100);
    expect(upscaled.result!.width).toBe(4 * second.result!.width);

    // A portrait (the drawn scenes have nobody in them to cut out): its background removed, and
    // the download is a PNG whose background is transparent.
    await page.goto(url('/generate/background/'));
    const portrait = (await loadTestFaces()).astronaut;
    await page
      .getByTestId('photo-input')
      .setInputFiles({ name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: portrait });
    await page.getByTestId('photo-preview').waitFor({ timeout: 30_000 });
    await page.getByTestId('tool-background-transparent').click();
    await submitAndWaitForResult(page, user, 120_000);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('result-download').click(),
    ]);
    const file = await readFile((await download.path())!);
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe('png');
    expect(meta.hasAlpha).toBe(true);
    expect((await sharp(file).stats()).isOpaque).toBe(false);
    await saveScreenshot(page, 'tools-background-360');

    // Paint over a part of it and leave the description empty: the part is removed.
    await page.getByTestId('result-tools').click();
    await page.getByTestId('result-tool-inpaint').click();
    await page.getByTestId('photo-preview').waitFor({ timeout: 30_000 });
    const canvas = page.getByTestId('mask-canvas');
    await canvas.waitFor();
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.15);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.2, { steps: 8 });
    await page.mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.3, { steps: 8 });
    // The painting goes up as the mask (an upload) when the stroke ends.
    const maskUploaded = page.waitForResponse(
      (response) => response.url().endsWith('/api/uploads/') && response.request().method() === 'POST',
    );
    await page.mouse.up();
    expect((await maskUploaded).status()).toBe(201);
    // The uploaded mask is in the form's draft (kept in the tab's storage) before submitting.
    await expect
      .poll(() =>
        page.evaluate(() => Object.values(sessionStorage).some((value) => value.includes('"mask":{'))),
      )
      .toBe(true);
    await saveScreenshot(page, 'tools-mask-360');
    const inpainted = await apiWaitForGeneration(user, await submitAndWaitForResult(page, user, 120_000));
    expect(inpainted.status).toBe(100);

    // Extended to 16:9.
    await page.getByTestId('result-tools').click();
    await page.getByTestId('result-tool-outpaint').click();
    await page.getByTestId('photo-preview').waitFor({ timeout: 30_000 });
    await page.getByTestId('picture-aspect-16x9').click();
    await saveScreenshot(page, 'tools-outpaint-form-360', true);
    const extended = await apiWaitForGeneration(user, await submitAndWaitForResult(page, user, 120_000));
    expect(extended.result!.width / extended.result!.height).toBeCloseTo(16 / 9, 2);
    await saveScreenshot(page, 'tools-extended-360');
    expect(s.errors).toEqual([]);
  }, 600_000);

  for (const { language, theme } of [
    { language: 'ru', theme: 'light' },
    { language: 'ru', theme: 'dark' },
    { language: 'de', theme: 'light' },
    { language: 'de', theme: 'dark' },
  ] as const) {
    it(`${language}, ${theme}: the tools' forms fit 360 px in the person's language`, async () => {
      await s.close();
      s = await openBrowser('phone', {
        size: { width: 360, height: 780 },
        locale: language,
        theme,
        colorScheme: theme,
      });
      const { page } = s;
      await signInWithTokens(page, user);
      for (const mode of ['simple', 'background', 'outpaint', 'upscale']) {
        await page.goto(url(`/generate/${mode}/`));
        await page.getByTestId('generate-submit').waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, mode).toBeLessThanOrEqual(360);
        await saveScreenshot(page, `tools-form-${mode}-${language}-${theme}-360`, true);
      }
      // Worded in the language: the size choice and, on the background form, what goes behind.
      await page.goto(url('/generate/background/'));
      expect(await page.getByTestId('tool-background-blur').textContent()).toBe(
        language === 'ru' ? 'Размытие' : 'Unschärfe',
      );
      expect(s.errors).toEqual([]);
    });
  }
});
