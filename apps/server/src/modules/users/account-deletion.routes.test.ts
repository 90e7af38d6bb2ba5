import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creditEntries,
  generations,
  notifications,
  posts,
  uploads,
  userCounters,
  users,
} from '../../shared/db/schema.js';
import { bearer, createActiveUser, createUploadFor, DEFAULT_PASSWORD, login } from '../../test/factories.js';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { completedGeneration, publish, signedInPerson } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An email account with a password, an upload, a published post, a draft and a follower. */
async function personWithContent() {
  const created = await createActiveUser(t);
  const { access } = await login(t, created.email!, created.password);
  const person = { user: created, headers: bearer(access) };
  await grantWelcomeCredits(t.deps.db, created.id, 100);
  const upload = await createUploadFor(t, created.id);
  const published = await completedGeneration(t, person as never, { mode: 'simple', prompt: 'kept sky' });
  const draft = await completedGeneration(t, person as never, { mode: 'simple', prompt: 'a draft' });
  const post = await publish(t, person as never, published.uuid, { title: 'My sky' });
  await publish(t, person as never, draft.uuid, { draft: true });
  const follower = await signedInPerson(t);
  const followed = await t.app.inject({
    method: 'POST',
    url: `/api/users/${created.uuid}/subscribe/`,
    headers: follower.headers,
  });
  expect(followed.statusCode).toBeLessThan(300);
  // …and the person follows them back, so the follower holds a notice naming the person.
  const back = await t.app.inject({
    method: 'POST',
    url: `/api/users/${follower.user.uuid}/subscribe/`,
    headers: person.headers,
  });
  expect(back.statusCode).toBeLessThan(300);
  return { person, upload, published, draft, post, follower };
}

async function storedKeysOf(userId: number): Promise<string[]> {
  const [upload] = await t.deps.db.select().from(uploads).where(eq(uploads.userId, userId));
  const rows = await t.deps.db.select().from(generations).where(eq(generations.userId, userId));
  const keys = upload ? [upload.storageKey] : [];
  for (const row of rows) {
    if (!row.result) continue;
    keys.push(row.result.original.key, ...row.result.variants.map((variant) => variant.key));
  }
  return keys;
}

const remove = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'DELETE', url: '/api/users/me/', headers, payload });

describe('deleting my account', () => {
  it('refuses a wrong password and keeps everything', async () => {
    const { person } = await personWithContent();
    const keys = await storedKeysOf(person.user.id);
    const response = await remove(person.headers, { posts: 'delete', current_password: 'not-it-123' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('users.current_password_invalid');
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: person.headers });
    expect(me.statusCode).toBe(200);
    for (const key of keys) expect(await t.deps.storage.get(key)).not.toBeNull();
  });

  it('anonymises a kept post, ends sessions, empties personal data and leaves no file under my prefixes', async () => {
    const { person, post, follower } = await personWithContent();
    const keys = await storedKeysOf(person.user.id);
    expect(keys.length).toBeGreaterThan(2);
    const ledgerBefore = await t.deps.db
      .select()
      .from(creditEntries)
      .where(eq(creditEntries.userId, person.user.id));

    const response = await remove(person.headers, {
      posts: 'anonymise',
      current_password: DEFAULT_PASSWORD,
    });
    expect(response.statusCode).toBe(204);
    await t.runJobs();

    // Sessions end at once, and the old password no longer signs in.
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: person.headers });
    expect(me.statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email: person.user.email, password: DEFAULT_PASSWORD },
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('auth.invalid_credentials');

    const [row] = await t.deps.db.select().from(users).where(eq(users.id, person.user.id));
    expect(row).toMatchObject({
      email: null,
      passwordHash: null,
      firstName: '',
      lastName: '',
      username: '',
      isActive: false,
      telegramId: null,
      googleSub: null,
    });
    expect(row!.deletedAt).not.toBeNull();

    // Money stays: the ledger keeps every entry, detached from personal data by the emptied row.
    const ledgerAfter = await t.deps.db
      .select()
      .from(creditEntries)
      .where(eq(creditEntries.userId, person.user.id));
    expect(ledgerAfter.length).toBe(ledgerBefore.length);

    // No file of mine is left where it was.
    for (const key of keys) expect(await t.deps.storage.get(key), key).toBeNull();
    expect(await t.deps.db.select().from(uploads).where(eq(uploads.userId, person.user.id))).toEqual([]);

    // The published post stays, its picture copied apart from my prefixes; the draft is gone.
    const kept = await t.deps.db.select().from(posts).where(eq(posts.userId, person.user.id));
    expect(kept.map((p) => p.uuid)).toEqual([post.uuid]);
    expect(kept[0]!.image.original.key.startsWith(`posts/${post.uuid}/`)).toBe(true);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/posts/${post.uuid}/`,
      headers: follower.headers,
    });
    expect(shown.statusCode).toBe(200);
    const picture = await t.fetchMedia(shown.json().image.url);
    expect(picture.statusCode).toBe(200);

    // The follower's notice that the person subscribed stays, without the person's name.
    const notices = await t.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, follower.user.id));
    const notice = notices.find((n) => n.kind === 'new_subscriber')!;
    expect(notice.data.user_uuid).toBe(person.user.uuid);
    expect(notice.data).not.toHaveProperty('user_name');

    // The follower no longer follows anyone.
    const [counters] = await t.deps.db
      .select()
      .from(userCounters)
      .where(eq(userCounters.userId, follower.user.id));
    expect(counters?.subscriptionsCount ?? 0).toBe(0);

    // The same email can make a new account.
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      payload: { email: person.user.email, password: DEFAULT_PASSWORD, re_password: DEFAULT_PASSWORD },
    });
    expect(signUp.statusCode).toBe(201);
  });

  it('deletes my posts when I choose so, and a second request changes nothing', async () => {
    const { person, post } = await personWithContent();
    const response = await remove(person.headers, { posts: 'delete', current_password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(204);
    await t.runJobs();
    expect(await t.deps.db.select().from(posts).where(eq(posts.uuid, post.uuid))).toEqual([]);
    expect(await t.deps.db.select().from(generations).where(eq(generations.userId, person.user.id))).toEqual(
      [],
    );
  });

  it('needs no password for an account that has none (Telegram or Google sign-in)', async () => {
    const person = await signedInPerson(t);
    await t.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, person.user.id));
    const response = await remove(person.headers, { posts: 'anonymise' });
    expect(response.statusCode).toBe(204);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, person.user.id));
    expect(row!.deletedAt).not.toBeNull();
  });
});
