import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { apiGenerate, apiWaitForGeneration } from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';

/**
 * Where Home leads, on the narrowest phones: its idea tiles open their mode's form filled with the
 * idea, video has an entry of its own beside Create and Repeat, and a result offers only what can
 * take it (a video cannot be edited, face-swapped or animated).
 */
const PHONE_360 = { width: 360, height: 780 };

describe('home entries (360 px)', () => {
  let s: Session;
  let user: TestUser;
  beforeEach(async () => {
    s = await openBrowser('phone', { size: PHONE_360 });
    user = await createActiveUser({ firstName: 'Ada', lastName: 'Lovelace' });
    await signInWithTokens(s.page, user);
  });
  afterEach(async () => {
    await s.close();
  });

  it('an idea tile opens its mode’s form filled with the idea; the mode’s own draft stays its own', async () => {
    const { page } = s;
    await page.goto(url('/'));
    const tiles = page.locator('.idea-card');
    await tiles.first().waitFor();
    const count = await tiles.count();
    expect(count).toBeGreaterThanOrEqual(4);
    const modes = new Set<string>();
    for (let index = 0; index < count; index++) {
      await page.goto(url('/'));
      const tile = page.locator('.idea-card').nth(index);
      const title = (await tile.textContent())!.trim();
      await tile.click();
      await page.waitForURL((u) => /^\/generate\/[a-z_]+\/$/.test(u.pathname) && u.searchParams.has('idea'));
      const mode = new URL(page.url()).pathname.split('/')[2]!;
      modes.add(mode);
      const form = page.getByTestId('generate-form');
      await form.waitFor();
      // The description is there, in English (the engines read English), whatever the tile's language.
      const prompt = await page.getByTestId('prompt').inputValue();
      expect(prompt, title).toMatch(/^[A-Za-z][\x20-\x7e]{10,}$/);
      if (mode === 'styling') {
        // A look idea chooses its style; the photo is the person's own.
        expect(await page.locator('[data-testid^="style-"][aria-checked="true"]').count(), title).toBe(1);
      }
      if (index === 0) await saveScreenshot(page, 'home-idea-form-360');
    }
    // Ideas make pictures from words and restyle a photo.
    expect(modes.has('simple')).toBe(true);
    expect(modes.has('styling')).toBe(true);

    // Typing in an idea's form keeps it; the mode's plain form is still empty.
    await page.goto(url('/'));
    await page.locator('.idea-card').first().click();
    await page.waitForURL((u) => u.searchParams.has('idea'));
    const ideaUrl = page.url();
    await page.getByTestId('prompt').fill('A quiet harbour at dawn');
    // The draft is written to the tab's storage after the render; leave only once it is there.
    await expect
      .poll(() =>
        page.evaluate(() =>
          Object.values(sessionStorage).some((value) => value.includes('A quiet harbour at dawn')),
        ),
      )
      .toBe(true);
    await page.goto(url(new URL(ideaUrl).pathname));
    expect(await page.getByTestId('prompt').inputValue()).toBe('');
    await page.goto(ideaUrl);
    expect(await page.getByTestId('prompt').inputValue()).toBe('A quiet harbour at dawn');
  });

  it('Home offers a video beside Create and Repeat; Create keeps its four picture modes and offers the tools', async () => {
    const { page } = s;
    await page.goto(url('/'));
    const actions = page.locator('.hero__actions a');
    await actions.first().waitFor();
    const hrefs = await actions.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(['/create/', '/posts/top/', '/generate/video/']);
    // All three on screen at 360 px, none wider than the page.
    for (const box of await actions.evaluateAll((links) =>
      links.map((link) => link.getBoundingClientRect().toJSON() as DOMRect),
    )) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(PHONE_360.width);
    }
    await saveScreenshot(page, 'home-hero-360');
    await page.getByTestId('home-make-video').click();
    await page.waitForURL(url('/generate/video/'));
    await page.getByTestId('generate-form').waitFor();
    await page.locator('[data-testid^="video-duration-"]').first().waitFor();

    await page.goto(url('/create/'));
    await page.locator('[data-testid^="mode-"]').first().waitFor();
    const modes = await page
      .locator('[data-testid^="mode-"]')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-testid')));
    // Photo packs (their catalogue), the four picture modes, then the tools and the talking photo with
    // a card of their own (the offline engine runs them).
    expect(modes).toEqual([
      'mode-photo_pack',
      'mode-simple',
      'mode-face_swap',
      'mode-editing',
      'mode-styling',
      'mode-upscale',
      'mode-restore',
      'mode-background',
      'mode-talking_photo',
    ]);
  });

  it(
    'a video result offers only what takes a video; a picture result offers editing, face swap and animating',
    { timeout: 240_000 },
    async () => {
      const { page } = s;
      // Fixed seeds: the same drawing (and moderation verdict) each run.
      const picture = await apiGenerate(user, { mode: 'simple', prompt: 'A lighthouse on a cliff', seed: 2 });
      expect((await apiWaitForGeneration(user, picture.uuid)).status).toBe(100);
      const video = await apiGenerate(user, {
        mode: 'video',
        prompt: 'Snow falling over mountains',
        duration: 3,
        seed: 2,
      });
      expect((await apiWaitForGeneration(user, video.uuid, 180_000)).status).toBe(100);

      await page.goto(url(`/generation/${picture.uuid}/`));
      await page.getByTestId('result-download').waitFor();
      for (const action of ['result-edit', 'result-animate', 'result-publish', 'result-tools']) {
        expect(await page.getByTestId(action).count(), action).toBe(1);
      }
      // Face swap, the picture tools, repeat and the profile wait in the Tools sheet.
      expect(await page.getByTestId('result-face-swap').count()).toBe(0);
      await page.getByTestId('result-tools').click();
      await page.getByRole('dialog').waitFor();
      await saveScreenshot(page, 'picture-result-tools-360', true);
      for (const action of ['result-face-swap', 'result-tool-upscale', 'result-repeat', 'result-profile']) {
        expect(await page.getByRole('dialog').getByTestId(action).count(), action).toBe(1);
      }

      await page.goto(url(`/generation/${video.uuid}/`));
      await page.getByTestId('result-video').waitFor();
      await page.getByTestId('result-download').waitFor();
      await saveScreenshot(page, 'video-result-actions-360', true);
      for (const action of ['result-edit', 'result-face-swap', 'result-animate', 'result-tools']) {
        expect(await page.getByTestId(action).count(), action).toBe(0);
      }
      // Nothing offered leads to "This result can't be used as the photo".
      for (const action of ['result-share', 'result-repeat', 'result-profile']) {
        expect(await page.getByTestId(action).count(), action).toBe(1);
      }
    },
  );
});
