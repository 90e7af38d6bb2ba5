import { randomUUID } from 'node:crypto';
import type { OpsDeps } from './ops.deps.js';
import { type CheckResult, type ReadinessCheck, unknownEngines } from './ops.models.js';

/** A probe waits this long for the database or storage before calling it down. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * How long a storage probe that passed is trusted. Load balancers probe every few seconds per
 * node; with S3 each probe is a PUT, a GET and a DELETE (billed requests, and slow), so a healthy
 * store is probed at most this often. A failed probe is not kept: the next call probes again, so a
 * store that comes back is seen at once.
 */
export const STORAGE_PROBE_TTL_MS = 15_000;

export interface StorageProbe {
  check(): Promise<void>;
}

/**
 * The storage part of readiness for one process: a passing probe is reused for `ttlMs`, and
 * probes asked for at the same time share one round trip.
 */
export function createStorageProbe(
  deps: Pick<OpsDeps, 'storage'>,
  options: { ttlMs?: number; now?: () => number } = {},
): StorageProbe {
  const ttlMs = options.ttlMs ?? STORAGE_PROBE_TTL_MS;
  const now = options.now ?? Date.now;
  let passedAt: number | null = null;
  let running: Promise<void> | null = null;
  return {
    check() {
      if (passedAt !== null && now() - passedAt < ttlMs) return Promise.resolve();
      running ??= withTimeout(checkStorage(deps.storage))
        .then(() => {
          passedAt = now();
        })
        .finally(() => {
          running = null;
        });
      return running;
    },
  };
}

/** Runs every readiness check at once, each bounded by a short timeout. */
export async function checkReadiness(
  deps: Pick<OpsDeps, 'database' | 'storage' | 'config' | 'engines' | 'logger'>,
  storageProbe: StorageProbe,
): Promise<Record<ReadinessCheck, CheckResult>> {
  const queueTable = withTimeout(
    deps.database.pool
      .query<{ jobs: string | null }>("SELECT to_regclass('graphile_worker._private_jobs')::text AS jobs")
      .then(({ rows }) => rows[0]?.jobs ?? null),
  );
  const [database, queue, storage, engines] = await Promise.all([
    outcome('database', queueTable, deps),
    outcome(
      'queue',
      queueTable.then((table) => {
        if (!table) throw new Error('the job queue schema is missing');
      }),
      deps,
    ),
    outcome('storage', storageProbe.check(), deps),
    outcome(
      'engines',
      (async () => {
        const unknown = unknownEngines(deps.config.engines, deps.engines.engineNames());
        if (unknown.length) throw new Error(`unknown engines configured: ${unknown.join(', ')}`);
      })(),
      deps,
    ),
  ]);
  return { database, queue, storage, engines };
}

/** Writes a small file, reads it back and deletes it. */
async function checkStorage(storage: OpsDeps['storage']): Promise<void> {
  const key = `readiness/${randomUUID()}.txt`;
  const content = Buffer.from(key);
  await storage.put(key, content, 'text/plain');
  try {
    const read = await storage.get(key);
    if (!read || !read.data.equals(content)) throw new Error('storage returned other bytes');
  } finally {
    await storage.delete(key);
  }
}

async function outcome(
  check: ReadinessCheck,
  work: Promise<unknown>,
  deps: Pick<OpsDeps, 'logger'>,
): Promise<CheckResult> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    deps.logger.warn({ err: error, check }, 'readiness check failed');
    return 'failed';
  }
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
