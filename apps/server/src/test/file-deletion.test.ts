import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { grantStaffRole } from '../modules/admin/index.js';
import type { Storage } from '../shared/storage/storage.js';
import { createUploadFor, DEFAULT_PASSWORD, createActiveUser, login, bearer } from './factories.js';
import { completedGeneration, publish, signedInPerson, type Person } from './posts-factories.js';
import { createTestApp, type TestApp } from './test-app.js';

// Deleting a row and its files: the row goes in a transaction that also adds a retried job for
// the files, so a store that fails after the commit cannot leave objects behind for ever. Runs on
// local disk and, under TEST_STORAGE=s3, against the S3-compatible test server.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_LOGIN_PER_IP: '1000' } });
});
afterAll(() => t?.close());

let restore: (() => void) | undefined;
afterEach(() => restore?.());

/** The store refuses the next `times` deletions (single keys and prefixes alike), then works again. */
function failNextDeletions(storage: Storage, times: number): void {
  let left = times;
  const { delete: deleteKey, deletePrefix } = storage;
  const refuse = () => {
    if (left <= 0) return false;
    left -= 1;
    return true;
  };
  storage.delete = async (key) => {
    if (refuse()) throw new Error('store unavailable');
    return deleteKey.call(storage, key);
  };
  storage.deletePrefix = async (prefix) => {
    if (refuse()) throw new Error('store unavailable');
    return deletePrefix.call(storage, prefix);
  };
  restore = () => {
    storage.delete = deleteKey;
    storage.deletePrefix = deletePrefix;
  };
}

/** Runs due jobs, then makes a failed job's retry due at once (instead of after its backoff) and runs again. */
async function runJobsAndRetry(): Promise<void> {
  await t.runJobs();
  await t.deps.db.execute(
    sql`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE locked_at IS NULL`,
  );
  await t.runJobs();
}

const exists = async (key: string) => (await t.deps.storage.get(key)) !== null;

describe('files of deleted rows are removed even when the store fails', () => {
  it('an upload: its file goes once the job is retried', async () => {
    const person = await signedInPerson(t);
    const upload = await createUploadFor(t, person.user.id);
    const key = upload.key;
    expect(await exists(key)).toBe(true);

    // The immediate deletion and the job's first run both fail.
    failNextDeletions(t.deps.storage, 2);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${upload.uuid}/`,
      headers: person.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await exists(key)).toBe(true);
    await t.runJobs();
    expect(await exists(key)).toBe(true);
    await runJobsAndRetry();
    expect(await exists(key)).toBe(false);
  });

  it('a model: every file under its prefix goes once the job is retried', async () => {
    const person = await signedInPerson(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/models/',
      headers: person.headers,
      payload: { name: 'Me' },
    });
    expect(created.statusCode).toBe(201);
    const model = created.json();
    const keys = [
      `models/${person.user.id}/${model.uuid}/photos/a.jpg`,
      `models/${person.user.id}/${model.uuid}/aligned/a.png`,
    ];
    for (const key of keys) await t.deps.storage.put(key, Buffer.from('x'), 'image/jpeg');

    failNextDeletions(t.deps.storage, 2);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/models/${model.uuid}/`,
      headers: person.headers,
    });
    expect(deleted.statusCode).toBe(204);
    for (const key of keys) expect(await exists(key)).toBe(true);
    await t.runJobs();
    for (const key of keys) expect(await exists(key)).toBe(true);
    await runJobsAndRetry();
    for (const key of keys) expect(await exists(key), key).toBe(false);
  });

  it('a deleted account’s kept post removed by staff: its own copies under posts/<uuid>/ go', async () => {
    const created = await createActiveUser(t);
    const author = {
      user: created,
      headers: bearer((await login(t, created.email!, created.password)).access),
    } as unknown as Person;
    const { grantWelcomeCredits } = await import('../modules/credits/credits.usecases.js');
    await grantWelcomeCredits(t.deps.db, created.id, 10);
    const generation = await completedGeneration(t, author, { mode: 'simple', prompt: 'a kept sky' });
    const post = await publish(t, author, generation.uuid, { title: 'Sky' });
    const left = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/',
      headers: author.headers,
      payload: { posts: 'anonymise', current_password: DEFAULT_PASSWORD },
    });
    expect(left.statusCode).toBe(204);
    await t.runJobs();
    const { rows } = await t.deps.db.execute<{ key: string }>(
      sql`SELECT image->'original'->>'key' AS key FROM posts WHERE uuid = ${post.uuid}`,
    );
    const copied = rows[0]!.key;
    expect(copied.startsWith(`posts/${post.uuid}/`)).toBe(true);
    expect(await exists(copied)).toBe(true);

    const moderator = await signedInPerson(t, { credits: 0 });
    await grantStaffRole(t.deps, moderator.user.email!, 'moderator');
    failNextDeletions(t.deps.storage, 1);
    const removed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${post.uuid}/remove/`,
      headers: moderator.headers,
      payload: { reason: 'graphic violence' },
    });
    expect(removed.statusCode).toBe(204);
    await t.runJobs();
    expect(await exists(copied)).toBe(true);
    await runJobsAndRetry();
    expect(await exists(copied)).toBe(false);
  });
});
