import { GenerationStatus } from '@mirra/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineRegistry } from '../../engines/index.js';
import { creditEntries, generations, staffAuditLog } from '../../shared/db/schema.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { balanceOf, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from './index.js';

// The mode's list is `alpha` only; `beta` is configured too, for a retry pinned to it.
const alpha = createScriptedEngine('alpha');
const beta = createScriptedEngine('beta');
let t: TestApp;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp({
    env: { ENGINE_SIMPLE: 'alpha', FREE_DAILY_PHOTOS: '0', MODERATION_IMAGES: 'false' },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [alpha, beta]);
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
});
afterAll(() => t?.close());

const rowOf = async (uuid: string) =>
  (await t.deps.db.select().from(generations).where(eq(generations.uuid, uuid)))[0]!;

const ledgerOf = async (userId: number) =>
  (
    await t.deps.db
      .select()
      .from(creditEntries)
      .where(eq(creditEntries.userId, userId))
      .orderBy(asc(creditEntries.id))
  ).map((entry) => [entry.kind, entry.delta]);

/** A generation the person paid for that failed on alpha and was refunded. */
async function failedGeneration(person: Person): Promise<string> {
  alpha.script({ kind: 'throw', code: 'engine.failed', retryable: false, message: 'alpha broke' });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/generations/',
    headers: person.headers,
    payload: { mode: 'simple', prompt: 'a lighthouse at dusk', guidance: 7 },
  });
  expect(created.statusCode, created.body).toBe(201);
  const uuid = created.json().uuid as string;
  await t.runJobs();
  const row = await rowOf(uuid);
  expect(row.refunded).toBe(true);
  expect([GenerationStatus.ERROR, GenerationStatus.FAILED]).toContain(row.status);
  return uuid;
}

const retry = (uuid: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/generations/${uuid}/retry/`,
    headers: admin.headers,
    payload,
  });

describe('staff retry of a failed generation', () => {
  it('lists the engines each mode can be retried on', async () => {
    const failed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/generations/failed/',
      headers: admin.headers,
    });
    expect(failed.json().engines).toContainEqual({ mode: 'simple', engines: ['alpha', 'beta'] });
  });

  it('runs it again on the chosen engine only, charging nothing, audited; a finished one cannot be retried', async () => {
    const person = await signedInPerson(t, { credits: 20 });
    const uuid = await failedGeneration(person);
    expect(await balanceOf(t, person.user.id)).toBe(20);
    const ledger = await ledgerOf(person.user.id);

    const response = await retry(uuid, { reason: 'alpha outage', engine: 'beta' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      uuid,
      user_uuid: person.user.uuid,
      status: GenerationStatus.NEW,
      engine: 'beta',
      error_code: null,
      refunded: true,
    });
    alpha.calls.length = 0;
    await t.runJobs();
    const row = await rowOf(uuid);
    expect(row).toMatchObject({ status: GenerationStatus.COMPLETED, engine: 'beta' });
    expect(alpha.calls).toHaveLength(0);
    expect(beta.calls.map((call) => call.generationUuid)).toContain(uuid);
    // Nothing new on the ledger: the result is on the house.
    expect(await balanceOf(t, person.user.id)).toBe(20);
    expect(await ledgerOf(person.user.id)).toEqual(ledger);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/generations/${uuid}/`,
      headers: person.headers,
    });
    expect(shown.json()).toMatchObject({ status: GenerationStatus.COMPLETED });

    const audit = await t.deps.db.select().from(staffAuditLog).where(eq(staffAuditLog.targetId, uuid));
    expect(audit).toEqual([
      expect.objectContaining({
        staffUserId: admin.user.id,
        action: 'generation.retry',
        reason: 'alpha outage',
        before: expect.objectContaining({ engine: 'alpha', error_code: expect.any(String), refunded: true }),
        after: expect.objectContaining({ status: GenerationStatus.NEW, engine: 'beta', charged: 0 }),
      }),
    ]);

    const again = await retry(uuid, { reason: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'generations.not_retryable' });
  });

  it("without an engine runs the mode's list; failing again refunds nothing more", async () => {
    const person = await signedInPerson(t, { credits: 20 });
    const uuid = await failedGeneration(person);
    const ledger = await ledgerOf(person.user.id);
    expect((await retry(uuid, { reason: 'try again' })).json()).toMatchObject({ engine: 'alpha' });
    alpha.script({ kind: 'throw', code: 'engine.failed', retryable: false, message: 'still broken' });
    await t.runJobs();
    const row = await rowOf(uuid);
    expect(row.refunded).toBe(true);
    expect(row.status).toBeLessThan(0);
    expect(await balanceOf(t, person.user.id)).toBe(20);
    expect(await ledgerOf(person.user.id)).toEqual(ledger);
  });

  it('refuses an engine that cannot run the mode, and needs a reason', async () => {
    const person = await signedInPerson(t, { credits: 20 });
    const uuid = await failedGeneration(person);
    const unknown = await retry(uuid, { reason: 'x', engine: 'nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: 'generations.mode_unavailable',
      engine: [expect.any(String)],
    });
    expect((await retry(uuid, { reason: ' ', engine: 'beta' })).statusCode).toBe(400);
    expect((await rowOf(uuid)).status).toBeLessThan(0);
  });
});
