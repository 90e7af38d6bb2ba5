import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { recordGenerationEnded } from '../../shared/metrics.js';
import { createMetricsOf, startWorkerMetricsServer } from './index.js';

/** The job worker's own /metrics (METRICS_WORKER_PORT), where generations that end there show. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the job worker process /metrics', () => {
  it('serves the generations that ended in this process, the queue and the pool, to this machine', async () => {
    const server = await startWorkerMetricsServer({
      port: 0,
      host: '127.0.0.1',
      token: undefined,
      metrics: createMetricsOf(t.deps),
    });
    try {
      const createdAt = new Date('2026-01-01T10:00:00Z');
      recordGenerationEnded(
        { mode: 'styling', engine: 'worker-test', createdAt },
        { status: 'failed', reason: 'generations.timeout' },
        new Date('2026-01-01T10:00:04Z'),
      );
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain(
        'mirra_generation_failures_total{mode="styling",engine="worker-test",reason="generations.timeout"} 1',
      );
      expect(text).toContain(
        'mirra_generation_duration_seconds_sum{mode="styling",engine="worker-test",outcome="failed"} 4',
      );
      expect(text).toMatch(/^mirra_job_queue_depth \d+$/m);
      expect(text).toMatch(/^mirra_pg_pool_connections \d+$/m);
      expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('asks for METRICS_TOKEN when it is set', async () => {
    const server = await startWorkerMetricsServer({
      port: 0,
      host: '127.0.0.1',
      token: 'worker-scrape-1',
      metrics: createMetricsOf(t.deps),
    });
    try {
      const url = `http://127.0.0.1:${server.port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer worker-scrape-1' } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
