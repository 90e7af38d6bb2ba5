import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../shared/db/schema.js';
import { insertPost, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TELEGRAM_BOT_USERNAME: 'MirraBot', TELEGRAM_MINI_APP_NAME: 'app' } });
});
afterAll(() => t.close());

const profile = async (viewer: Person, uuid: string) =>
  t.app.inject({ method: 'GET', url: `/api/users/${uuid}/`, headers: viewer.headers });
const subscription = (viewer: Person, uuid: string, method: 'POST' | 'DELETE') =>
  t.app.inject({ method, url: `/api/users/${uuid}/subscribe/`, headers: viewer.headers });
const subscriberNotes = (userId: number) =>
  t.deps.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'new_subscriber')));

describe('profiles and subscriptions', () => {
  it('shows a profile with its counts, share links and nothing private', async () => {
    const ann = await signedInPerson(t, { firstName: 'Ann' });
    const viewer = await signedInPerson(t);
    await insertPost(t, ann.user.id, { title: 'one' });
    await insertPost(t, ann.user.id, { title: 'two' });
    await insertPost(t, ann.user.id, { title: 'draft', status: 'draft' });
    const response = await profile(viewer, ann.user.uuid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: ann.user.id,
      uuid: ann.user.uuid,
      firstName: 'Ann',
      lastName: '',
      username: '',
      date_joined: ann.user.dateJoined.toISOString(),
      avatar_url: null,
      subscribers_count: 0,
      subscriptions_count: 0,
      posts_count: 2,
      is_subscribed: false,
      is_me: false,
      share_url: `http://mirra.test/profile/${ann.user.uuid}/`,
      telegram_share_url: `https://t.me/MirraBot/app?startapp=p_${ann.user.uuid}`,
    });
    // Instagram and whether there is a digital model only on one's own profile.
    expect((await profile(ann, ann.user.uuid)).json()).toMatchObject({
      is_me: true,
      is_subscribed: false,
      instagram: '',
      lora: false,
    });
  });

  it('subscribes and unsubscribes idempotently, keeps both people’s counts, and notifies once', async () => {
    const ann = await signedInPerson(t);
    const fan = await signedInPerson(t, { firstName: 'Fan' });
    expect((await subscription(fan, ann.user.uuid, 'POST')).json()).toEqual({
      is_subscribed: true,
      subscribers_count: 1,
    });
    expect((await subscription(fan, ann.user.uuid, 'POST')).json()).toEqual({
      is_subscribed: true,
      subscribers_count: 1,
    });
    expect((await profile(fan, ann.user.uuid)).json()).toMatchObject({
      subscribers_count: 1,
      subscriptions_count: 0,
      is_subscribed: true,
    });
    expect((await profile(fan, fan.user.uuid)).json()).toMatchObject({ subscriptions_count: 1 });
    expect((await subscriberNotes(ann.user.id)).map((n) => n.data)).toEqual([
      { user_uuid: fan.user.uuid, user_name: 'Fan' },
    ]);

    expect((await subscription(fan, ann.user.uuid, 'DELETE')).json()).toEqual({
      is_subscribed: false,
      subscribers_count: 0,
    });
    expect((await subscription(fan, ann.user.uuid, 'DELETE')).json().subscribers_count).toBe(0);
    expect((await profile(fan, fan.user.uuid)).json().subscriptions_count).toBe(0);
    // Subscribing again does not notify again.
    await subscription(fan, ann.user.uuid, 'POST');
    expect(await subscriberNotes(ann.user.id)).toHaveLength(1);
  });

  it('keeps counts exact when two people subscribe to each other at the same moment', async () => {
    const [a, b] = [await signedInPerson(t), await signedInPerson(t)];
    const results = await Promise.all([
      subscription(a, b.user.uuid, 'POST'),
      subscription(b, a.user.uuid, 'POST'),
      subscription(a, b.user.uuid, 'POST'),
      subscription(b, a.user.uuid, 'POST'),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await profile(a, a.user.uuid)).json()).toMatchObject({
      subscribers_count: 1,
      subscriptions_count: 1,
    });
    expect((await profile(a, b.user.uuid)).json()).toMatchObject({
      subscribers_count: 1,
      subscriptions_count: 1,
    });
  });

  it('refuses subscribing to oneself and to people who do not exist', async () => {
    const me = await signedInPerson(t);
    const self = await subscription(me, me.user.uuid, 'POST');
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ code: 'users.cannot_subscribe_self' });
    const ghost = await subscription(me, crypto.randomUUID(), 'POST');
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json()).toMatchObject({ code: 'users.not_found' });
    expect((await profile(me, crypto.randomUUID())).statusCode).toBe(404);
    expect((await profile(me, 'not-a-uuid')).statusCode).toBe(400);
  });
});
