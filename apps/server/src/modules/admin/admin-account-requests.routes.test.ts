import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAuditLog, users } from '../../shared/db/schema.js';
import { signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
});
afterAll(() => t?.close());

const post = (url: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });

async function auditOf(action: string, uuid: string) {
  return t.deps.db
    .select()
    .from(staffAuditLog)
    .where(and(eq(staffAuditLog.action, action), eq(staffAuditLog.targetId, uuid)));
}

describe("staff carrying out a person's request", () => {
  it('hands over the person’s data as the ZIP their own export gives, with a reason, audited', async () => {
    const person = await signedInPerson(t, { credits: 3 });
    const url = `/api/admin/users/${person.user.uuid}/export/`;
    expect((await post(url, admin.headers, {})).statusCode).toBe(400);
    const response = await post(url, admin.headers, { reason: 'Asked by e-mail for a copy of their data' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(response.rawPayload.includes(Buffer.from('account.json'))).toBe(true);
    expect(response.rawPayload.includes(Buffer.from(person.user.email!))).toBe(true);
    const [entry] = await auditOf('user.export', person.user.uuid);
    expect(entry).toMatchObject({
      staffUserId: admin.user.id,
      reason: 'Asked by e-mail for a copy of their data',
    });
  });

  it('deletes the account as the person’s own deletion does: sessions end, the audit says why, once', async () => {
    const person = await signedInPerson(t, { credits: 3 });
    const url = `/api/admin/users/${person.user.uuid}/delete/`;
    expect((await post(url, admin.headers, { reason: 'Asked to be deleted' })).statusCode).toBe(400);
    const response = await post(url, admin.headers, { reason: 'Asked to be deleted', posts: 'anonymise' });
    expect(response.statusCode, response.body).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: person.headers });
    expect(me.statusCode).toBe(401);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, person.user.id));
    expect(row?.deletedAt).not.toBeNull();
    expect(row?.email).not.toBe(person.user.email);
    const entries = await auditOf('user.delete', person.user.uuid);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ staffUserId: admin.user.id, reason: 'Asked to be deleted' });
    // Deleted: nothing left to delete or export.
    expect((await post(url, admin.headers, { reason: 'Again', posts: 'delete' })).statusCode).toBe(404);
    const again = await post(`/api/admin/users/${person.user.uuid}/export/`, admin.headers, {
      reason: 'Again',
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses to delete a staff account, and answers 404 to anyone below admin', async () => {
    const moderator = await signedInPerson(t, { credits: 0 });
    await grantStaffRole(t.deps, moderator.user.email!, 'moderator');
    const refused = await post(`/api/admin/users/${moderator.user.uuid}/delete/`, admin.headers, {
      reason: 'Asked to be deleted',
      posts: 'delete',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth.permission_denied');
    const person = await signedInPerson(t, { credits: 0 });
    for (const headers of [moderator.headers, person.headers, {}]) {
      for (const action of ['export', 'delete']) {
        const response = await post(`/api/admin/users/${person.user.uuid}/${action}/`, headers, {
          reason: 'x',
          posts: 'delete',
        });
        expect(response.statusCode).toBe(404);
      }
    }
  });
});
