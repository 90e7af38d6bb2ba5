import type { TAdminHealth } from '@mirra/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let admin: Person;
let moderator: Person;

beforeAll(async () => {
  t = await createTestApp({ env: { PAYMENTS_TEST_PROVIDER: 'true' } });
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
  moderator = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, moderator.user.email!, 'moderator');
});
afterAll(() => t?.close());

async function health(): Promise<TAdminHealth> {
  const response = await t.app.inject({ method: 'GET', url: '/api/admin/health/', headers: admin.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** A metric's value from `/metrics` (asked from this machine), by name and exact labels. */
async function metric(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    if ((match[2] ?? '').split(',').filter(Boolean).sort().join(',') === wanted) return Number(match[3]);
  }
  return undefined;
}

describe('the console health page', () => {
  it('says what /readyz says: status, each check and the providers', async () => {
    const [page, ready] = await Promise.all([
      health(),
      t.app.inject({ method: 'GET', url: '/readyz' }).then((r) => r.json()),
    ]);
    expect(page).toMatchObject({
      status: ready.status,
      checks: ready.checks,
      failed: ready.failed,
      providers: ready.providers,
    });
    expect(page.engines).toEqual(
      Object.fromEntries(Object.entries(t.deps.config.engines).map(([mode, list]) => [mode, [...list]])),
    );
    expect(page.storage.kind).toBe(t.deps.config.storage.kind);
  });

  it('counts the waiting jobs as /metrics does, with the age of the oldest', async () => {
    await t.deps.db.execute(
      sql`SELECT graphile_worker.add_job('health_probe_test', '{}'::json, run_at := now() - interval '90 seconds')`,
    );
    const page = await health();
    expect(page.queue.depth).toBe(await metric('mirra_job_queue_depth'));
    expect(page.queue.depth).toBeGreaterThanOrEqual(1);
    expect(page.queue.oldest_seconds).toBeGreaterThanOrEqual(89);
  });

  it('lists webhook errors with the counts /metrics has', async () => {
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/test/',
      headers: { 'content-type': 'application/json', 'x-test-signature': 'forged' },
      payload: JSON.stringify({ type: 'payment.succeeded' }),
    });
    expect(forged.statusCode).toBeGreaterThanOrEqual(400);
    const page = await health();
    const counted = page.webhook_errors.find((e) => e.source === 'test' && e.reason === 'bad_signature');
    expect(counted?.count).toBeGreaterThanOrEqual(1);
    expect(counted?.count).toBe(
      await metric('mirra_webhook_errors_total', { source: 'test', reason: 'bad_signature' }),
    );
  });

  it('answers 404 to a moderator and to a person who is not staff, as a missing route does', async () => {
    const person = await signedInPerson(t, { credits: 0 });
    for (const headers of [moderator.headers, person.headers, {}]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/admin/health/', headers });
      expect(response.statusCode).toBe(404);
    }
  });
});
