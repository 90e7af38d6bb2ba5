import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, PASSWORD } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { e2eEnv } from '../lib/env.js';
import { apiGenerate, apiUpload, apiWaitForGeneration, makeTestPhoto } from '../lib/generations.js';
import { signInWithTokens, storedTokens } from '../lib/session.js';

/** Every file left under one person's storage prefixes (local disk: DATA_DIR/media). */
function filesOf(userId: number): string[] {
  const found: string[] = [];
  for (const prefix of ['uploads', 'models', 'results']) {
    const dir = path.join(e2eEnv.dataDir, 'media', prefix, String(userId));
    if (existsSync(dir)) found.push(...readdirSync(dir, { recursive: true }).map(String));
  }
  return found;
}

describe('deleting an account (phone)', () => {
  let s: Session;
  beforeEach(async () => {
    s = await openBrowser('phone');
  });
  afterEach(async () => {
    await s.close();
  });

  it('from settings, downloads the data first, then, with the password, keeps the published post without a name and leaves no file of the person in storage', async () => {
    const { page } = s;
    const user = await createActiveUser({ firstName: 'Grace' });
    const bearer = `Bearer ${user.access}`;
    await apiUpload(user, await makeTestPhoto());
    const generation = await apiGenerate(user, { mode: 'simple', prompt: 'a lighthouse at dawn' });
    await apiWaitForGeneration(user, generation.uuid);
    const published = await callApi<{ uuid: string }>('/api/posts/', {
      body: { generation_uuid: generation.uuid, title: 'Dawn', draft: false },
      authorization: bearer,
    });
    expect(published.status).toBe(201);
    expect(filesOf(user.id).length).toBeGreaterThan(1);

    await signInWithTokens(page, user);
    await page.goto(url('/settings/'));

    // First the person downloads their data: one ZIP with their profile and their files.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('settings-exportData').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^mirra-data-\d{4}-\d\d-\d\d\.zip$/);
    const zip = await readFile((await download.path())!);
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.includes(Buffer.from('account.json'))).toBe(true);
    expect(zip.includes(Buffer.from(`results/${generation.uuid}/`))).toBe(true);
    expect(zip.includes(Buffer.from(user.email))).toBe(true);

    await page.getByTestId('settings-deleteAccount').click();
    const form = page.getByTestId('delete-account-form');
    await form.waitFor();
    await saveScreenshot(page, 'account-deletion-sheet-phone');

    // A wrong password is refused in place, and nothing is lost.
    await page.getByTestId('delete-account-password').fill('not-my-password-1');
    await page.getByTestId('delete-account-submit').click();
    await form.locator('.field--invalid .field__error').waitFor();
    expect(filesOf(user.id).length).toBeGreaterThan(1);

    await page.getByTestId('delete-account-password').fill(PASSWORD);
    await page.getByTestId('delete-account-submit').click();
    await page.getByText('Your account was deleted').waitFor();
    await page.waitForURL(url('/'));
    expect((await storedTokens(page)).refresh).toBeNull();

    // The old session is refused; the files go in the background job.
    const me = await callApi('/api/users/me/', { authorization: bearer });
    expect(me.status).toBe(401);
    await expect.poll(() => filesOf(user.id), { timeout: 20_000 }).toEqual([]);

    // The anonymised post is still public, its picture still served, with no name on it.
    const post = await callApi<{ image: { url: string }; author?: { name?: string } }>(
      `/api/posts/${published.body.uuid}/`,
    );
    expect(post.status).toBe(200);
    expect(JSON.stringify(post.body)).not.toContain('Grace');
    const picture = await fetch(new URL(post.body.image.url, e2eEnv.baseUrl));
    expect(picture.status).toBe(200);
  });
});
