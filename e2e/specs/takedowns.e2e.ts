import { afterEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { e2eEnv } from '../lib/env.js';
import { apiGenerate, apiWaitForGeneration } from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';
import { grantStaff } from '../lib/staff.js';

/**
 * A takedown at 360 px, in Russian: a guest opens a post, asks for its removal from the post's
 * page (a missing choice is named in Russian), the post is hidden at once; a moderator finds it
 * first in the queue with its 48-hour deadline and removes it, and its page is gone.
 */
const PHONE_360 = { width: 360, height: 780 };
const bearer = (user: TestUser) => `Bearer ${user.access}`;

describe('takedowns (360 px, ru)', () => {
  let s: Session | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('a guest asks from a post, it is hidden at once, and staff see it first with its deadline and remove it', async () => {
    const author = await createActiveUser({ firstName: 'Ira', lastName: 'Author' });
    const generation = await apiGenerate(author, {
      mode: 'simple',
      prompt: 'A portrait by a window',
      seed: 5,
    });
    await apiWaitForGeneration(author, generation.uuid);
    const post = await callApi<{ uuid: string }>('/api/posts/', {
      body: { generation_uuid: generation.uuid, title: 'Окно', draft: false },
      authorization: bearer(author),
    });
    expect(post.status).toBe(201);
    const moderator = await createActiveUser({ firstName: 'Mo', lastName: 'Derator' });
    await grantStaff(moderator, 'moderator');

    s = await openBrowser('phone', { size: PHONE_360, locale: 'ru', theme: 'light', colorScheme: 'light' });
    const { page } = s;
    await page.goto(url(`/post/${post.body.uuid}/`));
    // A guest sees the post's teaser under the sign-in sheet; the removal link is beside it.
    await page.getByTestId('sign-in-panel').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('sign-in-panel').waitFor({ state: 'detached' });
    await page.getByTestId('post-takedown').click();
    await page.getByTestId('takedown-form').waitFor();
    // The post's link is filled in from the post.
    expect(await page.getByTestId('takedown-post-url').inputValue()).toContain(post.body.uuid);
    await page.getByTestId('takedown-email').fill('me@example.test');
    await page.getByTestId('takedown-submit').click();
    await page.getByTestId('takedown-category-error').getByText('Выберите, что на изображении.').waitFor();
    await page.getByTestId('takedown-category-intimate').click();
    await saveScreenshot(page, 'takedown-form-ru-light-360', true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE_360.width);
    // The dark theme fits too (the link comes from the page's address again).
    await page.context().addCookies([{ name: 'theme', value: 'dark', url: e2eEnv.baseUrl }]);
    await page.reload();
    await page.getByTestId('takedown-form').waitFor();
    await saveScreenshot(page, 'takedown-form-ru-dark-360', true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE_360.width,
    );
    await page.getByTestId('takedown-email').fill('me@example.test');
    await page.getByTestId('takedown-category-intimate').click();
    await page.getByTestId('takedown-submit').click();
    await page.getByTestId('takedown-done').getByText('Публикация скрыта').waitFor();
    await saveScreenshot(page, 'takedown-done-ru-light-360', true);

    // Hidden at once: nobody but its author sees the post.
    const seen = await callApi(`/api/posts/${post.body.uuid}/`, { authorization: bearer(moderator) });
    expect(seen.status).toBe(404);

    await signInWithTokens(page, moderator);
    await page.goto(url('/admin/reports/'));
    const first = page.getByTestId('admin-report').first();
    await first.waitFor({ timeout: 15_000 });
    expect(await first.getAttribute('data-post')).toBe(post.body.uuid);
    expect(await first.getAttribute('data-deadline')).toBe('on_time');
    await first.getByTestId('takedown-deadline').getByText('Решить до').waitFor();
    await saveScreenshot(page, 'takedown-queue-ru-dark-360', true);
    await first.getByTestId('report-actions-reason').fill('Интимное изображение, подтверждено');
    await first.getByTestId('report-actions-remove').click();
    await first.getByTestId('report-actions-remove').click();
    await page
      .locator(`[data-testid="admin-report"][data-post="${post.body.uuid}"]`)
      .waitFor({ state: 'detached' });
    const gone = await callApi(`/api/posts/${post.body.uuid}/`, { authorization: bearer(author) });
    expect(gone.status).toBe(404);
  });
});
