/**
 * Generation jobs one worker runs per minute on the local engine (the bundled CPU pipeline): BENCH_JOBS
 * (20) text-to-image generations are accepted first, then one graphile-worker pool with
 * WORKER_CONCURRENCY (4) runs them all; prints jobs/min and seconds per job, for BENCH_MODE (simple).
 * Run: `npm run bench:worker-jobs` (an embedded PostgreSQL of its own).
 */
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { run } from 'graphile-worker';
import { sql } from 'drizzle-orm';
import type { TGenerationMode } from '@mirra/contracts';
import { parseConfig } from '../apps/server/src/shared/config.js';
import { createDeps } from '../apps/server/src/app/deps.js';
import { buildTaskList } from '../apps/server/src/app/jobs.registry.js';
import { connectDatabase } from '../apps/server/src/shared/db/client.js';
import { migrateDatabase } from '../apps/server/src/shared/db/migrate.js';
import { createLogger } from '../apps/server/src/shared/logger.js';
import { applyCreditChange } from '../apps/server/src/modules/credits/credits.usecases.js';
import { createGeneration } from '../apps/server/src/modules/generations/generations.usecases.js';
import { createUser } from '../apps/server/src/modules/users/users.usecases.js';
import { startBenchPostgres } from './lib/postgres.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 20);
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 4);
const MODE = (process.env.BENCH_MODE ?? 'simple') as TGenerationMode;
const ENDED = [100, -100, -200];

const logger = createLogger('error', 'bench');
const { url, dir, stop: stopPostgres } = await startBenchPostgres('worker-jobs', logger);
const database = connectDatabase(url, 10);
await migrateDatabase(database);
const config = parseConfig({
  NODE_ENV: 'production',
  DATA_DIR: dir,
  LOG_LEVEL: 'error',
  FREE_DAILY_PHOTOS: '1000000',
  // The bundled image classifier judges the local engine's drawings at random: not measured here.
  MODERATION_IMAGES: 'false',
  WORKER_CONCURRENCY: String(CONCURRENCY),
});
const deps = createDeps({
  config,
  database,
  logger,
  notifications: null,
  jwtSecret: 'bench-secret-bench-secret-bench-secret',
});
const user = await createUser(database.db, { email: `jobs-${Date.now()}@example.com`, isActive: true });
await database.db.transaction((tx) =>
  applyCreditChange(tx, {
    userId: user.id,
    delta: 1_000_000,
    kind: 'adjustment',
    idempotencyKey: `b-${user.id}`,
  }),
);
for (let i = 0; i < JOBS; i++) {
  await createGeneration(
    deps,
    user,
    { mode: MODE, prompt: `a lighthouse at dusk, study ${i}`, guidance: 7.5, images: [] },
    { timezoneOffsetMinutes: 0 },
  );
}

const started = performance.now();
const worker = await run({
  pgPool: database.pool,
  taskList: buildTaskList(deps),
  concurrency: CONCURRENCY,
  noHandleSignals: true,
  pollInterval: 200,
  logger: undefined,
});
let ended: { done: number; failed: number } = { done: 0, failed: 0 };
for (;;) {
  const { rows } = await database.db.execute<{ done: number; failed: number }>(
    sql`SELECT count(*) FILTER (WHERE status = 100)::int AS done,
               count(*) FILTER (WHERE status IN (-100, -200))::int AS failed
        FROM generations WHERE status IN (${sql.join(ENDED, sql`, `)})`,
  );
  ended = rows[0]!;
  if (ended.done + ended.failed >= JOBS) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const seconds = (performance.now() - started) / 1000;
await worker.stop();

const load = os.loadavg().map((l) => l.toFixed(1));
console.log(`worker jobs benchmark: local engine, mode ${MODE}`);
console.log(
  `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'cpu'}), load average ${load.join(' / ')}`,
);
console.log(
  `${JOBS} jobs (${ended.done} completed, ${ended.failed} failed) with WORKER_CONCURRENCY=${CONCURRENCY}: ` +
    `${seconds.toFixed(1)} s → ${((JOBS / seconds) * 60).toFixed(1)} jobs/min, ${(seconds / JOBS).toFixed(2)} s per job`,
);

await database.close();
await stopPostgres();
