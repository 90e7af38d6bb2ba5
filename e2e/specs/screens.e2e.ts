import { afterAll, beforeAll, describe, it } from 'vitest';
import { createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, VIEWPORT_NAMES } from '../lib/browser.js';
import { apiGenerate, apiWaitForGeneration } from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';

const GUEST_SCREENS = [
  ['welcome', '/welcome/', 'welcome-page'],
  ['home-guest', '/', 'home-page'],
  ['sign-up', '/sign-up/', 'sign-up-page'],
  ['sign-in-popup', '/profile/', 'sign-in-panel'],
] as const;

const MEMBER_SCREENS = [
  ['home', '/', 'home-page'],
  ['create', '/create/', 'create-page'],
  ['generate', '/generate/face_swap/', 'upload-page'],
  ['generate-image', '/generate/simple/', 'generate-form'],
  ['generate-styling', '/generate/styling/', 'generate-form'],
  ['generate-editing', '/generate/editing/', 'generate-form'],
  ['feed', '/posts/top/', 'feed-page'],
  ['profile', '/profile/', 'profile-page'],
  ['profile-edit', '/profile-edit/', 'profile-edit-page'],
  ['settings', '/settings/', 'settings-page'],
  ['settings-language', '/settings/language/', 'language-page'],
  ['settings-theme', '/settings/theme/', 'theme-page'],
  ['subscription', '/settings/subscription/', 'subscription-page'],
  ['partners', '/settings/mlm/', 'mlm-page'],
  ['wallet', '/wallet', 'wallet-page'],
  ['notifications', '/notifications', 'notifications-page'],
] as const;

/** Screenshots of every main screen, dark and light, phone and desktop (test-results/screens/). */
describe.each(VIEWPORT_NAMES)('main screens (%s)', (viewport) => {
  let user: TestUser;
  let resultPath: string;
  beforeAll(async () => {
    user = await createActiveUser({ firstName: 'Lena', lastName: 'Sokolova' });
    // A finished result for the result screen and the generations list on home.
    const generation = await apiGenerate(user, {
      mode: 'simple',
      prompt: 'A lighthouse on a cliff at sunset',
      // A fixed seed: the same picture each run (and the same answer from the result moderation).
      seed: 2,
    });
    await apiWaitForGeneration(user, generation.uuid);
    resultPath = `/generation/${generation.uuid}/`;
  });
  afterAll(() => undefined);

  for (const theme of ['dark', 'light'] as const) {
    it(`${theme} theme`, async () => {
      const s = await openBrowser(viewport, { theme });
      try {
        const { page } = s;
        for (const [name, path, testId] of GUEST_SCREENS) {
          await page.goto(url(path));
          await page.getByTestId(testId).waitFor();
          await page.waitForTimeout(350);
          await saveScreenshot(page, `${name}-${viewport}-${theme}`);
        }
        await signInWithTokens(page, user);
        for (const [name, path, testId] of MEMBER_SCREENS) {
          await page.goto(url(path));
          await page.getByTestId(testId).waitFor();
          await page.waitForTimeout(250);
          await saveScreenshot(page, `${name}-${viewport}-${theme}`);
        }
        await page.goto(url('/'));
        await page.getByTestId('generation-tile').first().locator('img').waitFor();
        await page.getByTestId('generations-grid').scrollIntoViewIfNeeded();
        await page.waitForTimeout(250);
        await saveScreenshot(page, `home-generations-${viewport}-${theme}`);
        await page.goto(url(resultPath));
        await page.getByTestId('result-image').waitFor();
        await page.waitForTimeout(350);
        await saveScreenshot(page, `result-${viewport}-${theme}`, true);
      } finally {
        await s.close();
      }
    });
  }
});
