import type { TAdminAuditEntry } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let ann: Person;
let bob: Person;
let target: Person;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signedInPerson(t, { credits: 0 });
  bob = await signedInPerson(t, { credits: 0 });
  target = await signedInPerson(t, { credits: 100 });
  await grantStaffRole(t.deps, ann.user.email!, 'admin');
  await grantStaffRole(t.deps, bob.user.email!, 'admin');
  const change = (who: Person, delta: number, key: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${target.user.uuid}/credits/`,
      headers: who.headers,
      payload: { delta, reason: `${key} reason`, idempotency_key: `${key}-0000000` },
    });
  for (const [who, delta, key] of [
    [ann, 5, 'a1'],
    [bob, -3, 'b1'],
    [ann, 7, 'a2'],
  ] as const) {
    expect((await change(who, delta, key)).statusCode).toBe(200);
  }
  const ban = await t.app.inject({
    method: 'POST',
    url: `/api/admin/users/${target.user.uuid}/ban/`,
    headers: bob.headers,
    payload: { reason: 'spam' },
  });
  expect(ban.statusCode).toBe(200);
});
afterAll(() => t?.close());

async function audit(query: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/admin/audit/?${query}`,
    headers: ann.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { results: TAdminAuditEntry[]; next: string | null };
}
const actions = (page: { results: TAdminAuditEntry[] }) => page.results.map((entry) => entry.action);

describe('the audit log', () => {
  it('lists every staff action newest first, including the command-line grants', async () => {
    const all = await audit('');
    expect(actions(all)).toEqual([
      'user.ban',
      'credits.grant',
      'credits.take',
      'credits.grant',
      'staff.grant',
      'staff.grant',
    ]);
    expect(all.results[0]).toMatchObject({
      staff_uuid: bob.user.uuid,
      target_id: target.user.uuid,
      reason: 'spam',
    });
    expect(all.next).toBeNull();
  });

  it('filters by staff member, action (or its start), target and days', async () => {
    expect(actions(await audit(`staff=${ann.user.uuid}`))).toEqual(['credits.grant', 'credits.grant']);
    expect(actions(await audit('action=credits.'))).toEqual([
      'credits.grant',
      'credits.take',
      'credits.grant',
    ]);
    expect(actions(await audit('action=credits.take'))).toEqual(['credits.take']);
    // `_` and `%` are letters here, not patterns.
    expect(actions(await audit('action=%25'))).toEqual([]);
    expect((await audit(`target=${ann.user.uuid}`)).results).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await audit(`from=${today}&to=${today}`)).results).toHaveLength(6);
    expect((await audit('to=2020-01-01')).results).toEqual([]);
    expect((await audit('from=2999-01-01')).results).toEqual([]);
    expect((await audit(`staff=${target.user.uuid}`)).results).toEqual([]);
  });

  it('pages with a cursor', async () => {
    const first = await audit('limit=4');
    expect(first.results).toHaveLength(4);
    expect(first.next).not.toBeNull();
    const second = await audit(`limit=4&cursor=${first.next}`);
    expect(actions(second)).toEqual(['staff.grant', 'staff.grant']);
    expect(second.next).toBeNull();
  });

  it('says which filter is wrong', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit/?from=yesterday&staff=someone',
      headers: ann.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ from: ['Enter a date.'], staff: [expect.any(String)] });
  });
});
