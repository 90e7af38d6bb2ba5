import { sql } from 'drizzle-orm';
import type { TAdminHealth } from '@mirra/contracts';
import { readWebhookErrors } from '../../shared/metrics.js';
import type { OpsDeps } from './ops.deps.js';
import { summarizeReadiness } from './ops.models.js';
import { createProviderProbe } from './provider-probes.js';
import { checkReadiness, createStorageProbe } from './readiness.js';

/** The job queue as a worker sees it: jobs waiting for a worker, and how long the oldest has been due. */
export async function readJobQueue(
  deps: Pick<OpsDeps, 'db'>,
): Promise<{ depth: number; oldest_seconds: number | null }> {
  const { rows } = await deps.db.execute<{ depth: number; oldest: number | null }>(
    sql`SELECT count(*)::int AS depth,
               extract(epoch FROM now() - min(run_at) FILTER (WHERE run_at <= now()))::float8 AS oldest
          FROM graphile_worker._private_jobs WHERE locked_at IS NULL`,
  );
  const row = rows[0];
  return { depth: row?.depth ?? 0, oldest_seconds: row?.oldest ?? null };
}

export type HealthReader = ReturnType<typeof createHealthReader>;

/**
 * One process's probes, shared by `/readyz` and the console's health page so both say the same:
 * readiness (database, queue schema, storage write and read back, engines), the providers'
 * state, and for the console the queue, the engines per mode, webhook errors and the store.
 */
export function createHealthReader(
  deps: Pick<OpsDeps, 'database' | 'db' | 'storage' | 'config' | 'engines' | 'logger'>,
) {
  const storageProbe = createStorageProbe(deps);
  const probeProviders = createProviderProbe(deps.config);
  async function readiness() {
    const [checks, providers] = await Promise.all([checkReadiness(deps, storageProbe), probeProviders()]);
    const { isReady, failed } = summarizeReadiness(checks);
    return { status: isReady ? ('ok' as const) : ('unavailable' as const), checks, failed, providers };
  }
  async function health(now: Date): Promise<TAdminHealth> {
    const [ready, queue, webhookErrors] = await Promise.all([
      readiness(),
      // The queue's own table may be what is down: readiness already says so.
      readJobQueue(deps).catch(() => ({ depth: 0, oldest_seconds: null })),
      readWebhookErrors(),
    ]);
    return {
      ...ready,
      engines: Object.fromEntries(
        Object.entries(deps.config.engines).map(([mode, list]) => [mode, [...list]]),
      ),
      queue,
      webhook_errors: webhookErrors,
      storage: { kind: deps.config.storage.kind },
      checked_at: now.toISOString(),
    };
  }
  return { readiness, health };
}
