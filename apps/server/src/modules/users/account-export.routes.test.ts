import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipStored } from '../../engines/zip.js';
import { bearer, createActiveUser, createUploadFor, DEFAULT_PASSWORD, login } from '../../test/factories.js';
import { completedGeneration } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function personWithData() {
  const user = await createActiveUser(t, { firstName: 'Ada' });
  const { access } = await login(t, user.email!, user.password);
  const person = { user, headers: bearer(access) };
  await grantWelcomeCredits(t.deps.db, user.id, 100);
  const upload = await createUploadFor(t, user.id);
  const generation = await completedGeneration(t, person as never, { mode: 'simple', prompt: 'a red kite' });
  return { person, upload, generation };
}

const exportLink = async (headers: Record<string, string>) => {
  const response = await t.app.inject({ method: 'POST', url: '/api/users/me/export/', headers });
  expect(response.statusCode).toBe(200);
  return response.json() as { url: string; expires_at: string };
};

describe('downloading my data', () => {
  it('gives a short-lived link to one ZIP with my profile, my records and my files', async () => {
    const { person, upload, generation } = await personWithData();
    const link = await exportLink(person.headers);
    expect(new Date(link.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000 + 1000);

    // The link works without a session header: a plain browser download.
    const response = await t.app.inject({ method: 'GET', url: link.url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="mirra-data-\d{4}-\d\d-\d\d\.zip"$/,
    );
    const files = new Map(unzipStored(response.rawPayload).map((file) => [file.name, file.data]));

    const account = JSON.parse(files.get('account.json')!.toString());
    expect(account.email).toBe(person.user.email);
    expect(account.first_name).toBe('Ada');
    expect(account).not.toHaveProperty('password_hash');
    const generations = JSON.parse(files.get('generations.json')!.toString());
    expect(generations.map((g: { uuid: string }) => g.uuid)).toEqual([generation.uuid]);
    expect(JSON.parse(files.get('credit_entries.json')!.toString()).length).toBeGreaterThan(0);

    const stored = await t.deps.storage.get(upload.key);
    const uploaded = [...files].find(([name]) => name.startsWith(`uploads/${upload.uuid}/`));
    expect(uploaded?.[1].equals(stored!.data)).toBe(true);
    const result = [...files].find(([name]) => name.startsWith(`results/${generation.uuid}/`));
    expect(result?.[1].length).toBeGreaterThan(1000);
  });

  it('works once: whoever gets hold of the link after the download finds nothing; a HEAD does not use it up', async () => {
    const { person } = await personWithData();
    const link = await exportLink(person.headers);
    expect((await t.app.inject({ method: 'HEAD', url: link.url })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: link.url })).statusCode).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: link.url });
    expect(again.statusCode).toBe(404);
    expect(again.headers['content-type']).not.toBe('application/zip');
    // Two at once: one gets the ZIP, the other nothing.
    const next = await exportLink(person.headers);
    const both = await Promise.all([
      t.app.inject({ method: 'GET', url: next.url }),
      t.app.inject({ method: 'GET', url: next.url }),
    ]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 404]);
    // A new link works: the person is never stuck.
    expect(
      (await t.app.inject({ method: 'GET', url: (await exportLink(person.headers)).url })).statusCode,
    ).toBe(200);
  });

  it('refuses a forged, altered or expired key, and the key of a deleted account', async () => {
    const { person } = await personWithData();
    const link = await exportLink(person.headers);
    const key = new URL(link.url, 'http://x').searchParams.get('key')!;
    const [id, expiry, nonce, signature] = key.split('.');
    for (const bad of [
      `${id}.${expiry}.${nonce}.${'A'.repeat(43)}`,
      `${Number(id) + 1}.${key.slice(id!.length + 1)}`,
      `${id}.${Number(expiry) + 3600}.${nonce}.${signature}`,
      `${id}.${expiry}.${'B'.repeat(22)}.${signature}`,
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/users/me/export/download/?key=${encodeURIComponent(bad)}`,
      });
      expect(response.statusCode, bad).toBe(404);
    }

    t.setNow(new Date(Date.now() + 16 * 60 * 1000));
    try {
      const expired = await t.app.inject({ method: 'GET', url: link.url });
      expect(expired.statusCode).toBe(404);
    } finally {
      t.setNow(undefined);
    }

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/',
      headers: person.headers,
      payload: { posts: 'delete', current_password: DEFAULT_PASSWORD },
    });
    expect(deleted.statusCode).toBe(204);
    const afterDeletion = await t.app.inject({ method: 'GET', url: link.url });
    expect(afterDeletion.statusCode).toBe(404);
  });
});
