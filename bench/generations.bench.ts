/**
 * The generation pipeline with a no-op engine, so only our own machinery is measured:
 * 1. submit → worker pickup latency (POST 201 until the job claims it), target p50 < 50 ms;
 * 2. accepted generations per second over real HTTP, against a bare JSON POST in the same server.
 * Run: `npm run bench:generations` (DATABASE_URL if set, else an embedded PostgreSQL).
 */
import { run } from 'graphile-worker';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { buildServer } from '../apps/server/src/app/build-server.js';
import { parseConfig } from '../apps/server/src/shared/config.js';
import { createDeps } from '../apps/server/src/app/deps.js';
import { buildTaskList } from '../apps/server/src/app/jobs.registry.js';
import { connectDatabase } from '../apps/server/src/shared/db/client.js';
import { migrateDatabase } from '../apps/server/src/shared/db/migrate.js';
import { createNotificationHub } from '../apps/server/src/shared/db/notifications.js';
import { createLogger } from '../apps/server/src/shared/logger.js';
import { hashPassword } from '../apps/server/src/modules/auth/password-hashing.js';
import { issueSession } from '../apps/server/src/modules/auth/sessions.usecases.js';
import { applyCreditChange } from '../apps/server/src/modules/credits/credits.usecases.js';
import { createEngineRegistry } from '../apps/server/src/engines/engine-registry.js';
import type { GenerationEngine } from '../apps/server/src/engines/engine.types.js';
import { createUser } from '../apps/server/src/modules/users/users.usecases.js';
import { runLoad } from './load.js';
import { startBenchPostgres } from './lib/postgres.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PICKUPS = Number(process.env.BENCH_PICKUPS ?? 100);

const logger = createLogger('warn', 'bench');
const { url, dir, stop: stopPostgres } = await startBenchPostgres('gen', logger);
const database = connectDatabase(url, 20);
await migrateDatabase(database);
const notifications = createNotificationHub(url, logger);
const config = parseConfig({
  NODE_ENV: 'production',
  DATA_DIR: dir,
  LOG_LEVEL: 'warn',
  ENGINE_SIMPLE: 'noop',
  FREE_DAILY_PHOTOS: '1000000',
  PRICE_SIMPLE: '1',
});
const deps = createDeps({
  config,
  database,
  logger,
  notifications,
  jwtSecret: 'bench-secret-bench-secret-bench-secret',
});
const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#345' } })
  .png()
  .toBuffer();
const noop: GenerationEngine = {
  name: 'noop',
  supports: () => true,
  start: async () => ({
    kind: 'done',
    output: { data: tiny, contentType: 'image/png', width: 8, height: 8, notes: [] },
  }),
};
deps.engines = createEngineRegistry(config, [noop]);
const app = await buildServer(deps);
app.post('/bench/bare/', { logLevel: 'warn' }, async (_request, reply) =>
  reply.status(201).send({ ok: true }),
);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const user = await createUser(database.db, {
  email: `bench-${Date.now()}@example.com`,
  passwordHash: await hashPassword('Bench-Pass-123'),
  isActive: true,
});
await database.db.transaction((tx) =>
  applyCreditChange(tx, {
    userId: user.id,
    delta: 10_000_000,
    kind: 'adjustment',
    idempotencyKey: `bench-${user.id}`,
  }),
);
const auth = { authorization: `Bearer ${(await issueSession(deps, database.db, user.id)).access}` };
const body = JSON.stringify({ mode: 'simple', prompt: 'a lighthouse at dusk' });

// 1. Pickup latency with a running worker (LISTEN/NOTIFY wakes it).
const worker = await run({
  pgPool: database.pool,
  taskList: buildTaskList(deps),
  concurrency: 4,
  noHandleSignals: true,
  pollInterval: 2000,
  logger: undefined,
});
const pickups: number[] = [];
for (let i = 0; i < PICKUPS; i++) {
  const response = await fetch(`${base}/api/generations/`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body,
  });
  const { uuid } = (await response.json()) as { uuid: string };
  for (;;) {
    const { rows } = await database.pool.query(
      'SELECT created_at, started_at FROM generations WHERE uuid = $1',
      [uuid],
    );
    if (rows[0]?.started_at) {
      pickups.push(rows[0].started_at.getTime() - rows[0].created_at.getTime());
      break;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}
await worker.stop();
pickups.sort((a, b) => a - b);
const pct = (q: number) => pickups[Math.min(pickups.length - 1, Math.floor(q * pickups.length))]!;

// 2. Throughput of accepting generations (the worker is stopped: only the create path is measured).
await runLoad({
  url: `${base}/bench/bare/`,
  method: 'POST',
  body,
  okStatus: 201,
  connections: 8,
  seconds: 1,
});
const bare = await runLoad({
  url: `${base}/bench/bare/`,
  method: 'POST',
  body,
  okStatus: 201,
  connections: 8,
  seconds: SECONDS,
});
// Many people at once: each connection is another user (one user's requests queue on their balance lock by design).
const people = [];
for (let i = 0; i < 8; i++) {
  const person = await createUser(database.db, {
    email: `bench-${Date.now()}-${i}@example.com`,
    isActive: true,
  });
  await database.db.transaction((tx) =>
    applyCreditChange(tx, {
      userId: person.id,
      delta: 10_000_000,
      kind: 'adjustment',
      idempotencyKey: `bench-${person.id}`,
    }),
  );
  people.push({ authorization: `Bearer ${(await issueSession(deps, database.db, person.id)).access}` });
}
const accepted = await runLoad({
  url: `${base}/api/generations/`,
  method: 'POST',
  headersPerConnection: people,
  body,
  okStatus: 201,
  connections: 8,
  seconds: SECONDS,
});
const oneUser = await runLoad({
  url: `${base}/api/generations/`,
  method: 'POST',
  headers: auth,
  body,
  okStatus: 201,
  connections: 8,
  seconds: SECONDS,
});
const stored = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM generations`);

console.log(`generations benchmark (no-op engine)`);
console.log(
  `submit → pickup over ${PICKUPS}: p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${pickups.at(-1)} ms (target p50 < 50 ms) ${pct(0.5) < 50 ? 'OK' : 'ABOVE TARGET'}`,
);
console.log(
  `bare JSON POST (baseline)  ${bare.rps.toFixed(0).padStart(6)} req/s   p50 ${bare.p50Ms.toFixed(2)} ms`,
);
console.log(
  `POST /api/generations/     ${accepted.rps.toFixed(0).padStart(6)} req/s   p50 ${accepted.p50Ms.toFixed(2)} ms   errors ${accepted.errors}   (8 users)`,
);
console.log(
  `  …all from one user       ${oneUser.rps.toFixed(0).padStart(6)} req/s   p50 ${oneUser.p50Ms.toFixed(2)} ms   (serialised by the balance lock)`,
);
console.log(
  `ratio accepted/bare: ${(accepted.rps / bare.rps).toFixed(3)}   (rows stored: ${stored.rows[0]!.n})`,
);

await app.close();
await notifications.close();
await database.close();
await stopPostgres();
