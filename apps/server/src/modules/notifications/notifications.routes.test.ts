import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { createEngineRegistry } from '../../engines/index.js';
import { notifyUser } from './notifications.usecases.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_SIMPLE: 'test', FREE_DAILY_PHOTOS: '1000' } });
  t.deps.engines = createEngineRegistry(t.deps.config, [createScriptedEngine('test')]);
});
afterAll(() => t.close());

async function signedInUser() {
  const user = await createActiveUser(t);
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: bearer(access) };
}

const list = async (headers: Record<string, string>, query = '') =>
  (await t.app.inject({ method: 'GET', url: `/api/notifications/${query}`, headers })).json();

describe('notifications', () => {
  it('tells the owner a generation finished, once, even when its completion is retried', async () => {
    const { user, headers } = await signedInUser();
    await grantWelcomeCredits(t.deps.db, user.id, 5);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers,
      payload: { mode: 'simple', prompt: 'a quiet harbour' },
    });
    expect(created.statusCode).toBe(201);
    await t.runJobs();
    await t.runJobs();
    const page = await list(headers);
    expect(page.unread).toBe(1);
    expect(page.results).toEqual([
      expect.objectContaining({
        kind: 'generation_finished',
        read: false,
        data: { generation_uuid: created.json().uuid, mode: 'simple' },
      }),
    ]);
  });

  it('lists newest first with a cursor, counts unread, and marks some or all read', async () => {
    const { user, headers } = await signedInUser();
    for (let i = 0; i < 5; i++) {
      await notifyUser(t.deps.db, {
        userId: user.id,
        kind: 'royalty',
        data: { amount: i + 1 },
        dedupeKey: `test-royalty:${user.id}:${i}`,
      });
    }
    // The same event again adds nothing.
    expect(
      await notifyUser(t.deps.db, {
        userId: user.id,
        kind: 'royalty',
        data: { amount: 1 },
        dedupeKey: `test-royalty:${user.id}:0`,
      }),
    ).toBe(false);

    const first = await list(headers, '?limit=3');
    expect(first.results.map((n: { data: { amount: number } }) => n.data.amount)).toEqual([5, 4, 3]);
    expect(first.unread).toBe(5);
    const second = await list(headers, `?limit=3&cursor=${first.next}`);
    expect(second.results.map((n: { data: { amount: number } }) => n.data.amount)).toEqual([2, 1]);
    expect(second.next).toBeNull();

    const some = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read/',
      headers,
      payload: { ids: [first.results[0].id] },
    });
    expect(some.json()).toEqual({ unread: 4 });
    const all = await t.app.inject({ method: 'POST', url: '/api/notifications/read/', headers });
    expect(all.json()).toEqual({ unread: 0 });
    const count = await t.app.inject({ method: 'GET', url: '/api/notifications/unread/', headers });
    expect(count.json()).toEqual({ unread: 0 });
  });

  it("never shows or touches another user's notifications", async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    await notifyUser(t.deps.db, {
      userId: owner.user.id,
      kind: 'new_subscriber',
      data: { user_name: 'Somebody' },
      dedupeKey: `test-sub:${owner.user.id}`,
    });
    const ownerPage = await list(owner.headers);
    expect((await list(stranger.headers)).results).toEqual([]);
    await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read/',
      headers: stranger.headers,
      payload: { ids: [ownerPage.results[0].id] },
    });
    expect((await list(owner.headers)).unread).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications/' })).statusCode).toBe(401);
  });
});
