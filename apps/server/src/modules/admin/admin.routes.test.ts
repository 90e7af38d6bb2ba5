import { randomUUID } from 'node:crypto';
import {
  adminRoutes,
  GenerationStatus,
  routes,
  type RouteSpec,
  type TAdminReportedPost,
} from '@mirra/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generations,
  modelPhotos,
  models,
  notifications,
  posts,
  staffAuditLog,
  users,
} from '../../shared/db/schema.js';
import { createActiveUser, login } from '../../test/factories.js';
import { astronautPhotos, uploadModelPhotos } from '../../test/models.js';
import { balanceOf, insertPost, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, mediaUrlPattern, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let admin: Person;
let moderator: Person;
let someone: Person;

async function staff(role: 'moderator' | 'admin'): Promise<Person> {
  const person = await signedInPerson(t, { credits: 0 });
  const outcome = await grantStaffRole(t.deps, person.user.email!, role);
  expect(outcome).toMatchObject({ found: true, changed: true });
  return person;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await staff('admin');
  moderator = await staff('moderator');
  someone = await signedInPerson(t);
});
afterAll(() => t?.close());

const staffRoutes: Array<[string, RouteSpec]> = Object.entries({ ...routes, admin: adminRoutes }).flatMap(
  ([feature, group]) =>
    Object.entries(group as Record<string, RouteSpec>)
      .filter(([, route]) => route.path.startsWith('/api/admin/') || route.tags.includes('admin'))
      .map(([name, route]): [string, RouteSpec] => [`routes.${feature}.${name}`, route]),
);

const urlOf = (route: RouteSpec) => route.path.replace(/:[a-z_]+/g, randomUUID());
const call = (route: RouteSpec, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({
    method: route.method,
    url: urlOf(route) + (route.query ? '?q=someone' : ''),
    headers,
    ...(route.method === 'GET'
      ? {}
      : { payload: payload ?? { reason: 'test', delta: 1, idempotency_key: 'k'.repeat(10) } }),
  });

describe('staff routes are invisible below their level', () => {
  it('there are staff routes, each under /api/admin/ with a staff level', () => {
    expect(staffRoutes.length).toBeGreaterThanOrEqual(12);
    for (const [name, route] of staffRoutes) {
      expect(route.path.startsWith('/api/admin/'), name).toBe(true);
      expect(route.staff, name).toMatch(/^(moderator|admin)$/);
    }
  });

  it.each(staffRoutes)('%s answers 404 to a guest, a bad token and a normal user', async (_name, route) => {
    for (const headers of [{}, { authorization: 'Bearer nonsense' }, someone.headers]) {
      const response = await call(route, headers);
      expect(response.statusCode, `${route.method} ${route.path}`).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found.', code: 'common.not_found' });
    }
    // Even a body that would fail validation reveals nothing.
    if (route.method !== 'GET') {
      const response = await call(route, someone.headers, { nonsense: true });
      expect(response.statusCode).toBe(404);
    }
  });

  it.each(staffRoutes.filter(([, route]) => route.staff === 'admin'))(
    '%s answers 404 to a moderator',
    async (_name, route) => {
      expect((await call(route, moderator.headers)).statusCode).toBe(404);
    },
  );

  it('staff see their level', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/api/admin/me/', headers: moderator.headers });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ role: 'moderator' });
    const adminMe = await t.app.inject({ method: 'GET', url: '/api/admin/me/', headers: admin.headers });
    expect(adminMe.json()).toEqual({ role: 'admin' });
  });
});

async function reportedPost(reasons: string[]) {
  const author = await signedInPerson(t, { credits: 0 });
  const post = await insertPost(t, author.user.id, { title: 'reported' });
  for (const reason of reasons) {
    const reporter = await signedInPerson(t, { credits: 0 });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post.uuid}/report/`,
      headers: reporter.headers,
      payload: { reason },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }
  return { author, post };
}

const auditOf = (targetId: string) =>
  t.deps.db.select().from(staffAuditLog).where(eq(staffAuditLog.targetId, targetId));
const notificationsOf = (userId: number) =>
  t.deps.db.select().from(notifications).where(eq(notifications.userId, userId));

describe('reports queue', () => {
  it('lists hidden and reported posts, "not consented" first, with picture, prompt, author and reasons', async () => {
    const older = await reportedPost(['spam', 'spam', 'nudity']);
    const consent = await reportedPost(['not_consented']);
    const queue = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/',
      headers: moderator.headers,
    });
    expect(queue.statusCode).toBe(200);
    const results = (queue.json() as { results: TAdminReportedPost[] }).results;
    const uuids = results.map((entry) => entry.post.uuid);
    expect(uuids.indexOf(consent.post.uuid)).toBe(0);
    const hidden = results.find((entry) => entry.post.uuid === older.post.uuid)!;
    expect(hidden.post.status).toBe('hidden');
    expect(hidden.post.prompt).toBe('a quiet harbour');
    expect(hidden.post.image.url).toMatch(mediaUrlPattern('png'));
    expect(hidden.post.author.uuid).toBe(older.author.user.uuid);
    expect(hidden.author_email).toBe(older.author.user.email);
    expect(hidden.reports.map((report) => report.reason)).toEqual(['spam', 'spam', 'nudity']);
    expect(results[0]!.not_consented).toBe(true);
  });

  it('a moderator restores a hidden post: published again, reports closed, author told, audited', async () => {
    const { author, post } = await reportedPost(['spam', 'hate', 'other']);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${post.uuid}/restore/`,
      headers: moderator.headers,
      payload: { reason: 'satire, allowed' },
    });
    expect(response.statusCode, response.body).toBe(204);
    const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, post.id));
    expect(row).toMatchObject({ status: 'published', reportsCount: 0 });
    const queue = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/',
      headers: moderator.headers,
    });
    expect(queue.json().results.map((entry: { post: { uuid: string } }) => entry.post.uuid)).not.toContain(
      post.uuid,
    );
    expect((await notificationsOf(author.user.id)).map((n) => n.kind)).toContain('post_restored');
    const [audit] = await auditOf(post.uuid);
    expect(audit).toMatchObject({
      staffUserId: moderator.user.id,
      action: 'post.restore',
      targetKind: 'post',
      reason: 'satire, allowed',
      before: expect.objectContaining({ status: 'hidden', reports_count: 3 }),
      after: expect.objectContaining({ status: 'published', reports_count: 0 }),
    });
    const visible = await t.app.inject({
      method: 'GET',
      url: `/api/posts/${post.uuid}/`,
      headers: someone.headers,
    });
    expect(visible.statusCode).toBe(200);
  });

  it('a moderator removes a post: gone, author told why, audited; a second removal is 404', async () => {
    const { author, post } = await reportedPost(['violence']);
    const remove = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/reports/${post.uuid}/remove/`,
        headers: moderator.headers,
        payload: { reason: 'graphic violence' },
      });
    expect((await remove()).statusCode).toBe(204);
    expect(await t.deps.db.select().from(posts).where(eq(posts.id, post.id))).toEqual([]);
    const told = (await notificationsOf(author.user.id)).find((n) => n.kind === 'post_removed');
    expect(told?.data).toEqual({ post_uuid: post.uuid, reason: 'moderator' });
    expect(await auditOf(post.uuid)).toHaveLength(1);
    expect((await remove()).json()).toMatchObject({ code: 'posts.not_found' });
  });

  it('a reason is required', async () => {
    const { post } = await reportedPost(['spam']);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${post.uuid}/remove/`,
      headers: moderator.headers,
      payload: { reason: '  ' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().reason).toEqual(['Say why.']);
  });

  it('an admin removes and bans: the author is banned in the same step', async () => {
    const { author, post } = await reportedPost(['not_consented']);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${post.uuid}/remove-and-ban/`,
      headers: admin.headers,
      payload: { reason: 'repeated deepfakes' },
    });
    expect(response.statusCode, response.body).toBe(204);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, author.user.id));
    expect(row!.bannedAt).not.toBeNull();
    expect((await auditOf(author.user.uuid)).map((entry) => entry.action)).toEqual(['user.ban']);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: author.headers });
    expect(me.statusCode).toBe(401);
  });
});

describe('people', () => {
  it('finds people by email prefix, Telegram id and uuid', async () => {
    const person = await signedInPerson(t);
    await t.deps.db.update(users).set({ telegramId: 777000123 }).where(eq(users.id, person.user.id));
    for (const q of [person.user.email!.slice(0, 12).toUpperCase(), '777000123', person.user.uuid]) {
      const found = await t.app.inject({
        method: 'GET',
        url: `/api/admin/users/?q=${encodeURIComponent(q)}`,
        headers: admin.headers,
      });
      expect(found.statusCode).toBe(200);
      expect(
        found.json().results.map((u: { uuid: string }) => u.uuid),
        q,
      ).toContain(person.user.uuid);
    }
  });

  it('a banned person loses every session and cannot sign in; unbanned, they can again', async () => {
    const person = await createActiveUser(t);
    const pair = await login(t, person.email!);
    const ban = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.uuid}/ban/`,
      headers: admin.headers,
      payload: { reason: 'fraud' },
    });
    expect(ban.statusCode, ban.body).toBe(200);
    expect(ban.json()).toMatchObject({ uuid: person.uuid, banned: true });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `Bearer ${pair.access}` },
    });
    expect(me.statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: pair.refresh },
    });
    expect(refreshed.statusCode).toBeGreaterThanOrEqual(400);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email: person.email, password: person.password },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ detail: 'This account has been banned.', code: 'auth.account_banned' });

    const unban = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.uuid}/unban/`,
      headers: admin.headers,
      payload: { reason: 'appeal accepted' },
    });
    expect(unban.json()).toMatchObject({ banned: false });
    expect((await login(t, person.email!)).access).toBeTruthy();
    expect((await auditOf(person.uuid)).map((entry) => entry.action)).toEqual(['user.ban', 'user.unban']);
  });

  it('staff cannot be banned', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${moderator.user.uuid}/ban/`,
      headers: admin.headers,
      payload: { reason: 'no' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('grants and takes credits as ledger entries, once per key, never below zero', async () => {
    const person = await signedInPerson(t, { credits: 10 });
    const change = (delta: number, key: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${person.user.uuid}/credits/`,
        headers: admin.headers,
        payload: { delta, reason: 'goodwill', idempotency_key: key },
      });
    const grant = await change(50, 'grant-key-0001');
    expect(grant.json()).toEqual({ applied: true, balance: 60 });
    expect((await change(50, 'grant-key-0001')).json()).toEqual({ applied: false, balance: 60 });
    expect((await change(-20, 'take-key-00001')).json()).toEqual({ applied: true, balance: 40 });
    const tooMuch = await change(-41, 'take-key-00002');
    expect(tooMuch.json()).toMatchObject({ code: 'credits.insufficient' });
    expect(await balanceOf(t, person.user.id)).toBe(40);
    const own = await t.app.inject({ method: 'GET', url: '/api/credits/', headers: person.headers });
    expect(own.json()).toMatchObject({ balance: 40 });

    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${person.user.uuid}/`,
      headers: admin.headers,
    });
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body.balance).toBe(40);
    expect(
      body.credit_entries.slice(0, 2).map((e: { kind: string; delta: number }) => [e.kind, e.delta]),
    ).toEqual([
      ['adjustment', -20],
      ['adjustment', 50],
    ]);
    expect(body.audit.map((entry: { action: string }) => entry.action)).toEqual([
      'credits.take',
      'credits.grant',
    ]);
    expect(body.audit[1]).toMatchObject({
      staff_uuid: admin.user.uuid,
      reason: 'goodwill',
      before: { balance: 10 },
    });
  });

  it("deletes a person's digital model with its photos", async () => {
    const person = await signedInPerson(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/models/',
      headers: person.headers,
      payload: { name: 'Me', category: 'female' },
    });
    const modelUuid = created.json().uuid as string;
    const photo = (await astronautPhotos())[0]!;
    const uploaded = await uploadModelPhotos(t, person.headers, modelUuid, [{ data: photo }]);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${person.user.uuid}/`,
      headers: admin.headers,
    });
    expect(detail.json().models).toEqual([expect.objectContaining({ uuid: modelUuid, photos: 1 })]);

    const removed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/models/${modelUuid}/delete/`,
      headers: admin.headers,
      payload: { reason: 'photos of someone else' },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await t.deps.db.select().from(models).where(eq(models.uuid, modelUuid))).toEqual([]);
    expect(await t.deps.db.select().from(modelPhotos)).toEqual([]);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/models/${modelUuid}/`,
      headers: person.headers,
    });
    expect(own.statusCode).toBe(404);
    expect(await auditOf(modelUuid)).toHaveLength(1);
  });
});

describe('generations', () => {
  it('lists failed generations with what went wrong, and refunds one by hand exactly once', async () => {
    const person = await signedInPerson(t, { credits: 5 });
    const uuid = randomUUID();
    await t.deps.db.insert(generations).values({
      uuid,
      userId: person.user.id,
      mode: 'simple',
      status: GenerationStatus.FAILED,
      prompt: 'a lighthouse',
      guidance: 7,
      seed: 1,
      cost: 3,
      engine: 'fal',
      provider: 'fal',
      providerJobId: 'req-123',
      errorCode: 'engine.unavailable',
      errorDetail: 'provider answered 503',
    });
    const failed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/generations/failed/',
      headers: admin.headers,
    });
    expect(failed.json().results[0]).toMatchObject({
      uuid,
      user_uuid: person.user.uuid,
      engine: 'fal',
      provider_job_id: 'req-123',
      error_code: 'engine.unavailable',
      error_detail: 'provider answered 503',
      refunded: false,
    });
    const refund = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/generations/${uuid}/refund/`,
        headers: admin.headers,
        payload: { reason: 'provider outage' },
      });
    expect((await refund()).json()).toEqual({ refunded: true, balance: 8 });
    expect((await refund()).json()).toEqual({ refunded: false, balance: 8 });
    expect(await balanceOf(t, person.user.id)).toBe(8);
    expect(await auditOf(uuid)).toHaveLength(1);
  });
});

describe('audit log', () => {
  it('is append-only in the database', async () => {
    await expect(t.deps.db.execute(sql`UPDATE staff_audit_log SET reason = 'x'`)).rejects.toThrow();
    await expect(t.deps.db.execute(sql`DELETE FROM staff_audit_log`)).rejects.toThrow();
    expect((await t.deps.db.select().from(staffAuditLog)).length).toBeGreaterThan(0);
  });
});
