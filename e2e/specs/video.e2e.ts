import { readFile } from 'node:fs/promises';
import type { Locator } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import {
  apiBalance,
  apiGenerate,
  apiWaitForGeneration,
  E2E_SETTINGS,
  progressSeen,
  recordProgress,
} from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';

/** Decoded frames (readyState ≥ HAVE_CURRENT_DATA) and its time moving on. */
async function expectPlaying(video: Locator) {
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  const startedAt = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
    .not.toBe(startedAt);
}

const resultPath = /^\/generation\/[0-9a-f-]{36}\/$/;
const SECONDS = 3;

describe('video', () => {
  let s: Session;
  let user: TestUser;
  beforeEach(async () => {
    s = await openBrowser('phone');
    user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
  });
  afterEach(async () => {
    await s.close();
  });

  it('animates a picture: price first, live progress, the video plays, the download is an MP4, published it plays in the feed', async () => {
    const { page } = s;
    await recordProgress(page);
    await signInWithTokens(page, user);
    // A picture of mine to animate (fixed seed: the same drawing, and moderation verdict, each run).
    const picture = await apiGenerate(user, { mode: 'simple', prompt: 'A lighthouse on a cliff', seed: 2 });
    expect((await apiWaitForGeneration(user, picture.uuid)).status).toBe(100);

    await page.goto(url(`/generation/${picture.uuid}/`));
    await page.getByTestId('result-animate').click();
    await page.waitForURL(url(`/generate/video/generation/${picture.uuid}/`));
    // The picture becomes the photo; length and frame shape chosen, the price follows the length.
    await page.getByTestId('video-duration-10').click();
    await expect.poll(() => page.getByTestId('price-cost').textContent()).toBe('10 credits');
    await page.getByTestId(`video-duration-${SECONDS}`).click();
    await expect.poll(() => page.getByTestId('price-cost').textContent()).toBe('3 credits');
    await page.getByTestId('video-aspect-1x1').click();
    await page.getByTestId('generate-submit').click();

    await page.waitForURL((u) => resultPath.test(u.pathname));
    const video = page.getByTestId('result-video');
    await video.waitFor({ timeout: 120_000 });
    const seen = await progressSeen(page);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(await apiBalance(user)).toBe(
      E2E_SETTINGS.welcomeCredits - 1 - SECONDS * E2E_SETTINGS.prices.videoPerSecond,
    );
    expect(await video.getAttribute('width')).toBe('720');
    expect(await video.getAttribute('height')).toBe('720');
    expect(await video.getAttribute('poster')).toMatch(/\.webp/);

    // It plays by itself: decoded frames (readyState ≥ HAVE_CURRENT_DATA) and time moving on.
    await expectPlaying(video);
    expect(await video.evaluate((element: HTMLVideoElement) => element.duration)).toBeCloseTo(SECONDS, 0);
    await expect
      .poll(() => page.getByTestId('result-notes').textContent())
      .toMatch(/not a generative video model/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('result-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^mirra-[0-9a-f]{8}\.mp4$/);
    const bytes = await readFile((await download.path())!);
    // An MP4 starts with its `ftyp` box.
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(bytes.length).toBeGreaterThan(10_000);

    // Published: the post page and the feed show the video, playing muted while in view.
    await page.getByTestId('result-publish').click();
    await page.getByTestId('publish-sheet').waitFor();
    await page.getByTestId('publish-submit').click();
    await page.waitForURL((u) => /^\/post\/[0-9a-f-]{36}\/$/.test(u.pathname));
    const postUuid = new URL(page.url()).pathname.split('/')[2]!;
    await expectPlaying(page.getByTestId('post-image'));
    await page.goto(url('/posts/new/'));
    const card = page.locator(`[data-testid="post-card"][data-uuid="${postUuid}"]`);
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    const cardVideo = card.locator('video');
    expect(await cardVideo.getAttribute('width')).toBe('720');
    expect(await cardVideo.getAttribute('poster')).toMatch(/\.webp/);
    await expectPlaying(cardVideo);

    // On home, the video's tile says so, with its length.
    await page.goto(url('/'));
    await expect.poll(() => page.getByTestId('tile-video-badge').textContent()).toBe(`${SECONDS} s`);
  });
  it("makes a video from a description: the price, live progress, it plays, says it is the local engine's drawing, and its home tile moves", async () => {
    const { page } = s;
    await recordProgress(page);
    await signInWithTokens(page, user);
    await page.goto(url('/generate/video/'));
    // No photo: the form says a description will do, and takes one.
    await page.getByTestId('no-photo-hint').waitFor();
    await page.getByTestId('prompt').fill('Snowy mountains at night under the stars');
    await page.getByTestId(`video-duration-${SECONDS}`).click();
    await expect.poll(() => page.getByTestId('price-cost').textContent()).toBe('3 credits');
    await saveScreenshot(page, 'video-from-description-form', true);
    await page.getByTestId('generate-submit').click();

    await page.waitForURL((u) => resultPath.test(u.pathname));
    const video = page.getByTestId('result-video');
    await video.waitFor({ timeout: 120_000 });
    const seen = await progressSeen(page);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(await apiBalance(user)).toBe(
      E2E_SETTINGS.welcomeCredits - SECONDS * E2E_SETTINGS.prices.videoPerSecond,
    );
    // 9:16 by default.
    expect(await video.getAttribute('width')).toBe('720');
    expect(await video.getAttribute('height')).toBe('1280');
    await expectPlaying(video);
    expect(await video.evaluate((element: HTMLVideoElement) => element.duration)).toBeCloseTo(SECONDS, 0);
    const notes = page.getByTestId('result-notes');
    await expect
      .poll(() => notes.textContent())
      .toMatch(/animated procedural scene by the offline local engine/);
    await expect.poll(() => notes.textContent()).toMatch(/Snow falls/);
    await saveScreenshot(page, 'video-from-description-result', true);

    // On home its tile shows the poster, then the looping animated preview once in view.
    await page.goto(url('/'));
    const tile = page.getByTestId('generation-tile').first();
    await expect.poll(() => tile.getByTestId('tile-video-badge').textContent()).toBe(`${SECONDS} s`);
    const thumbnail = tile.locator('img');
    const poster = await thumbnail.getAttribute('src');
    await thumbnail.scrollIntoViewIfNeeded();
    await expect.poll(() => thumbnail.getAttribute('data-animated'), { timeout: 20_000 }).toBe('true');
    expect(await thumbnail.getAttribute('src')).not.toBe(poster);
    await expect
      .poll(() => thumbnail.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
      .toBe(180);
    await saveScreenshot(page, 'video-from-description-home');
  });

  it('the video form in Russian, light, on the narrowest phone: the hint and the description field', async () => {
    const light = await openBrowser('phone', {
      colorScheme: 'light',
      theme: 'light',
      locale: 'ru',
      size: { width: 360, height: 780 },
    });
    try {
      await signInWithTokens(light.page, user);
      await light.page.goto(url('/generate/video/'));
      await expect.poll(() => light.page.getByTestId('no-photo-hint').textContent()).toMatch(/Нет фото/);
      await light.page.getByTestId('generate-submit').click();
      await light.page.getByText('Загрузите фото для анимации или опишите сцену.').waitFor();
      await saveScreenshot(light.page, 'video-form-ru-light-360', true);
    } finally {
      await light.close();
    }
  });
});
