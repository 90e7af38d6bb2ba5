import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createActiveUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiGenerate, apiWaitForGeneration, makeTestPhoto } from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';

/**
 * What a person sees of provenance at 360 px: the AI mark over a result, and the public verify
 * page, where a guest drops a file and learns whether Mirra made it (the signed original), whether
 * it changed (a copy stripped of its metadata, re-saved smaller), or that there is no sign of Mirra.
 */
const PHONE_360 = { width: 360, height: 780 };
const CASES = [
  { language: 'en', theme: 'light', mark: 'AI', mirra: "Made by Mirra's AI" },
  { language: 'ru', theme: 'dark', mark: 'ИИ', mirra: 'Создано ИИ Mirra' },
] as const;

describe('provenance on screen (360 px)', () => {
  let s: Session | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  for (const { language, theme, mark, mirra } of CASES) {
    it(`${language}, ${theme}: a result wears the AI mark; the verify page tells Mirra's file, a stripped copy and another picture apart`, async () => {
      const user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
      const created = await apiGenerate(user, {
        mode: 'simple',
        prompt: 'a red lighthouse by the sea',
        seed: 3,
      });
      const done = await apiWaitForGeneration(user, created.uuid);
      expect(done.result, JSON.stringify(done)).not.toBeNull();
      const original = Buffer.from(await (await fetch(url(done.result!.download_url))).arrayBuffer());

      s = await openBrowser('phone', { size: PHONE_360, locale: language, theme, colorScheme: theme });
      const { page } = s;
      await signInWithTokens(page, user);
      await page.goto(url(`/generation/${created.uuid}/`));
      const badge = page.getByTestId('ai-mark');
      await badge.waitFor({ timeout: 15_000 });
      expect((await badge.textContent())?.startsWith(mark)).toBe(true);
      const box = (await badge.boundingBox())!;
      const picture = (await page.getByTestId('result-image').boundingBox())!;
      // Over the picture's top right corner, inside the 360 px page.
      expect(box.x).toBeGreaterThanOrEqual(picture.x);
      expect(box.x + box.width).toBeLessThanOrEqual(Math.min(picture.x + picture.width, PHONE_360.width));
      expect(box.y).toBeGreaterThanOrEqual(picture.y);
      await saveScreenshot(page, `provenance-result-${language}-${theme}-360`);

      // A guest (signed out) checks files.
      await page.context().clearCookies();
      await page.context().addCookies([{ name: 'theme', value: theme, url: url('/') }]);
      await page.evaluate(() => localStorage.clear());
      await page.goto(url('/verify/'));
      const input = page.getByTestId('verify-input');
      await input.waitFor({ state: 'attached', timeout: 15_000 });
      const verdict = page.getByTestId('verify-verdict');

      await input.setInputFiles({ name: 'original.jpg', mimeType: 'image/jpeg', buffer: original });
      await page.locator('[data-testid="verify-verdict"][data-verdict="mirra"]').waitFor({ timeout: 15_000 });
      expect(await verdict.textContent()).toContain(mirra);
      await saveScreenshot(page, `provenance-verify-mirra-${language}-${theme}-360`, true);

      const { width } = await sharp(original).metadata();
      const stripped = await sharp(original)
        .resize({ width: Math.round(width! * 0.9) })
        .jpeg({ quality: 80 })
        .toBuffer();
      await input.setInputFiles({ name: 'copy.jpg', mimeType: 'image/jpeg', buffer: stripped });
      await page
        .locator('[data-testid="verify-verdict"][data-verdict="mirra_changed"]')
        .waitFor({ timeout: 15_000 });
      await saveScreenshot(page, `provenance-verify-changed-${language}-${theme}-360`, true);

      await input.setInputFiles({
        name: 'other.jpg',
        mimeType: 'image/jpeg',
        buffer: await makeTestPhoto(400, 300),
      });
      await page
        .locator('[data-testid="verify-verdict"][data-verdict="unknown"]')
        .waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE_360.width,
      );
      await saveScreenshot(page, `provenance-verify-unknown-${language}-${theme}-360`, true);
    });
  }
});
