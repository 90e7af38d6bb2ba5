import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GenerationStatus } from '@mirra/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../shared/db/client.js';
import { bearer, createActiveUser, login, uniqueEmail } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { createEngineRegistry, createLocalEngine } from '../../engines/index.js';
import { paymentOrders } from '../../shared/db/schema.js';
import { startComfyUiFake } from '../../fakes/comfyui.fake.js';
import { startReplicateFake } from '../../fakes/replicate.fake.js';
import { testProviderOf } from '../payments/index.js';
import { TEST_SIGNATURE_HEADER } from '../payments/providers/test.provider.js';

/** The probes and metrics beside the API: /healthz, /readyz, /metrics. */
let t: TestApp;
let webDir: string;
const engine = createScriptedEngine('test');
beforeAll(async () => {
  // A built web app is present, so the SPA fallback would answer any path nobody else serves.
  webDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-ops-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Mirra</title>');
  t = await createTestApp({
    env: { ENGINE_SIMPLE: 'test', FREE_DAILY_PHOTOS: '100', WEB_DIST_DIR: webDir },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine, createLocalEngine()]);
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

const get = (app: TestApp, url: string, options: { headers?: Record<string, string>; from?: string } = {}) =>
  app.app.inject({ method: 'GET', url, headers: options.headers, remoteAddress: options.from });

/** A metric's value from the text format, by name and exact labels ({} for none). */
function metricValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '')
      .split(/,(?=[a-z_]+=)/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (have === wanted) return Number(match[3]);
  }
  return undefined;
}

const scrape = async () => {
  const response = await get(t, '/metrics');
  expect(response.statusCode).toBe(200);
  return response.body;
};

describe('GET /healthz', () => {
  it('answers 200 {status:"ok"} to anyone, without credentials, never the web app', async () => {
    const response = await get(t, '/healthz', { headers: { authorization: 'Bearer not-a-token' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({ status: 'ok' });
    // The web app is there: an unknown path gets its index.html, the probes do not.
    expect((await get(t, '/healthy')).body).toContain('<title>Mirra</title>');
  });
});

describe('GET /readyz', () => {
  it('answers 200 when the database, the job queue, storage and the engines are all there', async () => {
    const response = await get(t, '/readyz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', queue: 'ok', storage: 'ok', engines: 'ok' },
      failed: [],
      providers: {},
    });
  });

  it('answers 503 naming the database and the queue when PostgreSQL cannot be reached', async () => {
    const unreachable = connectDatabase('postgres://nobody:nothing@127.0.0.1:1/none', 1);
    const broken = await createTestApp({
      shareDatabaseWith: t,
      overrides: { database: unreachable },
    });
    try {
      const response = await get(broken, '/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        status: 'unavailable',
        checks: { database: 'failed', queue: 'failed', storage: 'ok', engines: 'ok' },
        failed: ['database', 'queue'],
      });
    } finally {
      await broken.close();
      await unreachable.close();
    }
  });

  it('answers 503 naming storage when files cannot be written, and engines when one is unknown', async () => {
    const broken = await createTestApp({
      shareDatabaseWith: t,
      env: { ENGINE_EDITING: 'no-such-engine' },
      overrides: {
        storage: {
          put: () => Promise.reject(new Error('read-only file system')),
          get: () => Promise.resolve(null),
          open: () => Promise.resolve(null),
          delete: () => Promise.resolve(),
          deletePrefix: () => Promise.resolve(),
        },
      },
    });
    try {
      const response = await get(broken, '/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        checks: { database: 'ok', queue: 'ok', storage: 'failed', engines: 'failed' },
        failed: ['storage', 'engines'],
      });
    } finally {
      await broken.close();
    }
  });

  it('does not write to the store on every probe: a passing storage check is reused for a while', async () => {
    let puts = 0;
    const storage = t.deps.storage;
    const counting = await createTestApp({
      shareDatabaseWith: t,
      overrides: {
        storage: {
          ...storage,
          put: (key, data, contentType) => {
            puts += 1;
            return storage.put(key, data, contentType);
          },
          get: (key) => storage.get(key),
          open: (key) => storage.open(key),
          delete: (key) => storage.delete(key),
          deletePrefix: (prefix) => storage.deletePrefix(prefix),
        },
      },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await get(counting, '/readyz');
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ checks: { storage: 'ok' } });
      }
      expect(puts).toBe(1);
    } finally {
      await counting.close();
    }
  });

  it('answers 503 naming the queue when the job queue schema is missing', async () => {
    const broken = await createTestApp();
    try {
      await broken.deps.database.pool.query('DROP SCHEMA graphile_worker CASCADE');
      const response = await get(broken, '/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ failed: ['queue'] });
    } finally {
      await broken.close();
    }
  });
});

describe('GET /metrics', () => {
  it('without METRICS_TOKEN answers this machine only', async () => {
    expect((await get(t, '/metrics', { from: '127.0.0.1' })).statusCode).toBe(200);
    const remote = await get(t, '/metrics', {
      from: '203.0.113.9',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toMatchObject({ code: 'common.not_found' });
  });

  it('with METRICS_TOKEN asks everyone for it as a Bearer token', async () => {
    const guarded = await createTestApp({ shareDatabaseWith: t, env: { METRICS_TOKEN: 'scrape-me-42' } });
    try {
      const missing = await get(guarded, '/metrics');
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toMatchObject({ code: 'auth.not_authenticated' });
      expect((await get(guarded, '/metrics', { headers: bearer('scrape-me-43') })).statusCode).toBe(401);
      const ok = await get(guarded, '/metrics', { from: '203.0.113.9', headers: bearer('scrape-me-42') });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toContain('text/plain');
    } finally {
      await guarded.close();
    }
  });

  it('times requests by route pattern and status class, never by their path', async () => {
    const uuid = '0b7c4a52-1d9e-4f3a-9a51-2f3c4d5e6f70';
    const user = await createActiveUser(t);
    const { access } = await login(t, user.email!, user.password);
    const before = metricValue(await scrape(), 'mirra_http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/generations/:uuid/',
      status_class: '4xx',
    });
    await get(t, `/api/generations/${uuid}/`, { headers: bearer(access) });
    await get(t, `/api/generations/${uuid}/`, { headers: bearer(access) });
    await get(t, `/no/such/${uuid}/`, { headers: { accept: 'application/json' } });
    const text = await scrape();
    expect(
      metricValue(text, 'mirra_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/generations/:uuid/',
        status_class: '4xx',
      }),
    ).toBe((before ?? 0) + 2);
    expect(text).not.toContain(uuid);
    expect(text).toMatch(/mirra_http_request_duration_seconds_bucket\{[^}]*route="unmatched"/);
  });

  it('counts jobs waiting in the queue and the PostgreSQL pool, and process metrics', async () => {
    const before = metricValue(await scrape(), 'mirra_job_queue_depth');
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      payload: { email: uniqueEmail('queue'), password: 'Correct-Horse-42', re_password: 'Correct-Horse-42' },
    });
    expect(signUp.statusCode).toBe(201);
    const text = await scrape();
    expect(metricValue(text, 'mirra_job_queue_depth')).toBe((before ?? 0) + 1);
    expect(metricValue(text, 'mirra_pg_pool_connections')).toBeGreaterThan(0);
    expect(metricValue(text, 'mirra_pg_pool_idle_connections')).toBeGreaterThanOrEqual(0);
    expect(metricValue(text, 'mirra_pg_pool_waiting_requests')).toBe(0);
    expect(metricValue(text, 'mirra_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('mirra_nodejs_eventloop_lag_seconds');
    await t.runJobs();
  });

  it('counts open event streams and times generations by mode and engine, failures by reason', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    await t.deps.notifications!.isListening();
    const user = await createActiveUser(t);
    await grantWelcomeCredits(t.deps.db, user.id, 50);
    const { access } = await login(t, user.email!, user.password);
    const create = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/generations/',
          headers: bearer(access),
          payload: { mode: 'simple', prompt: 'a kite' },
        })
      ).json() as { uuid: string };
    const labels = { mode: 'simple', engine: 'test' };
    const initial = await scrape();
    const completedBefore = metricValue(initial, 'mirra_generation_duration_seconds_count', {
      ...labels,
      outcome: 'completed',
    });
    const failedBefore = metricValue(initial, 'mirra_generation_failures_total', {
      ...labels,
      reason: 'generations.engine_failed',
    });
    const streamsBefore = metricValue(initial, 'mirra_sse_connections') ?? 0;

    const generation = await create();
    const stream = await fetch(`${base}/api/generations/${generation.uuid}/events/`, {
      headers: bearer(access),
    });
    expect(stream.status).toBe(200);
    expect(metricValue(await scrape(), 'mirra_sse_connections')).toBe(streamsBefore + 1);
    await t.runJobs();
    // The stream ends with the generation's final status.
    await stream.text();
    engine.script({ kind: 'throw', code: 'engine.failed', retryable: false });
    const failing = await create();
    await t.runJobs();
    const status = (
      await t.app.inject({ method: 'GET', url: `/api/generations/${failing.uuid}/`, headers: bearer(access) })
    ).json().status;
    expect(status).toBe(GenerationStatus.ERROR);

    const text = await scrape();
    expect(metricValue(text, 'mirra_sse_connections')).toBe(streamsBefore);
    expect(
      metricValue(text, 'mirra_generation_duration_seconds_count', { ...labels, outcome: 'completed' }),
    ).toBe((completedBefore ?? 0) + 1);
    expect(
      metricValue(text, 'mirra_generation_duration_seconds_count', { ...labels, outcome: 'failed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(text, 'mirra_generation_failures_total', {
        ...labels,
        reason: 'generations.engine_failed',
      }),
    ).toBe((failedBefore ?? 0) + 1);
  });
});

describe('GET /metrics: money and notifications', () => {
  it('counts payments by provider, currency and outcome, and refused notifications by source and reason', async () => {
    const user = await createActiveUser(t);
    const { access } = await login(t, user.email!, user.password);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/payments/orders/',
      headers: bearer(access),
      payload: { product: 'credits_100', method: 'test', agree_offer: true, agree_privacy: true },
    });
    expect(created.statusCode).toBe(201);
    const { uuid } = created.json() as { uuid: string };
    const [row] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid));
    const paidLabels = { provider: 'test', currency: String(row!.currency), outcome: 'paid' };
    const refusedLabels = { source: 'test', reason: 'bad_signature' };
    const before = await scrape();
    const paidBefore = metricValue(before, 'mirra_payments_total', paidLabels) ?? 0;
    const refusedBefore = metricValue(before, 'mirra_webhook_errors_total', refusedLabels) ?? 0;

    const event = {
      type: 'payment.succeeded' as const,
      orderUuid: uuid,
      providerPaymentId: `pay-${uuid}`,
      amount: row!.amount,
      currency: row!.currency,
    };
    const signed = testProviderOf(t.deps).signEvent(event);
    const deliver = (headers: Record<string, string>, body: string) =>
      t.app.inject({ method: 'POST', url: '/api/payments/webhooks/test/', headers, payload: body });
    // A forged notification: the same body under a signature that is not the provider's.
    const forged = await deliver(
      { ...signed.headers, [TEST_SIGNATURE_HEADER]: 'f'.repeat(64) },
      signed.body.replace(`"amount":${row!.amount}`, '"amount":1'),
    );
    expect(forged.statusCode).toBe(403);
    expect((await deliver(signed.headers, signed.body)).statusCode).toBe(200);
    // Delivered again: applied once, counted once.
    expect((await deliver(signed.headers, signed.body)).statusCode).toBe(200);

    const text = await scrape();
    expect(metricValue(text, 'mirra_payments_total', paidLabels)).toBe(paidBefore + 1);
    expect(metricValue(text, 'mirra_webhook_errors_total', refusedLabels)).toBe(refusedBefore + 1);
  });
});

describe('GET /readyz: remote engines', () => {
  it("reports each configured remote engine's provider without making the node unready when one is down", async () => {
    const comfy = await startComfyUiFake();
    const replicate = await startReplicateFake();
    const env = {
      ENGINE_SIMPLE: 'comfyui,local',
      ENGINE_EDITING: 'replicate,local',
      ENGINE_STYLING: 'fal,local',
      COMFYUI_URLS: comfy.url,
      REPLICATE_API_TOKEN: replicate.token,
      REPLICATE_BASE_URL: replicate.url,
      FAL_KEY: 'fal-key-for-readiness',
    };
    try {
      const up = await createTestApp({ shareDatabaseWith: t, env });
      try {
        const response = await get(up, '/readyz');
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          status: 'ok',
          failed: [],
          providers: { comfyui: 'ok', replicate: 'ok', fal: 'configured' },
        });
      } finally {
        await up.close();
      }

      comfy.down();
      // Replicate refuses a token that is not the account's: down for this node, as in an outage.
      const down = await createTestApp({
        shareDatabaseWith: t,
        env: { ...env, REPLICATE_API_TOKEN: 'r8_wrong' },
      });
      try {
        const response = await get(down, '/readyz');
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          status: 'ok',
          checks: { database: 'ok', queue: 'ok', storage: 'ok', engines: 'ok' },
          failed: [],
          providers: { comfyui: 'down', replicate: 'down', fal: 'configured' },
        });
      } finally {
        await down.close();
      }
    } finally {
      await comfy.close();
      await replicate.close();
    }
  });

  it('names no provider when only local engines are configured', async () => {
    expect((await get(t, '/readyz')).json().providers).toEqual({});
  });
});
