/**
 * GET /api/users/me/ (JWT verify + one indexed query on real PostgreSQL) against a bare JSON route
 * in the same server process, under the same closed-loop load. Prints throughput, latency and
 * their ratio (target: me/bare ≥ 0.5). Run: `npm run bench` (uses DATABASE_URL if set, else an
 * embedded PostgreSQL in a temporary folder).
 */
import { buildServer } from '../apps/server/src/app/build-server.js';
import { parseConfig } from '../apps/server/src/shared/config.js';
import { createDeps } from '../apps/server/src/app/deps.js';
import { connectDatabase } from '../apps/server/src/shared/db/client.js';
import { migrateDatabase } from '../apps/server/src/shared/db/migrate.js';
import { createNotificationHub } from '../apps/server/src/shared/db/notifications.js';
import { createLogger } from '../apps/server/src/shared/logger.js';
import { hashPassword } from '../apps/server/src/modules/auth/password-hashing.js';
import { issueSession } from '../apps/server/src/modules/auth/sessions.usecases.js';
import { createUser } from '../apps/server/src/modules/users/users.usecases.js';
import { runLoad, type LoadResult } from './load.js';
import { startBenchPostgres } from './lib/postgres.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

const logger = createLogger('warn', 'bench');
const { url, dir, stop: stopPostgres } = await startBenchPostgres('users-me', logger);
const database = connectDatabase(url, 10);
await migrateDatabase(database);
const config = parseConfig({ NODE_ENV: 'production', DATA_DIR: dir, LOG_LEVEL: 'warn', PORT: '0' });
const notifications = createNotificationHub(url, logger);
const deps = createDeps({
  config,
  database,
  logger,
  notifications,
  jwtSecret: 'bench-secret-bench-secret-bench-secret',
});
const app = await buildServer(deps);
app.get('/bench/bare/', { logLevel: 'warn' }, async () => ({
  id: 1,
  uuid: '00000000-0000-0000-0000-000000000000',
  email: 'bench@example.com',
}));
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const user = await createUser(database.db, {
  email: `bench-${Date.now()}@example.com`,
  passwordHash: await hashPassword('Bench-Pass-123'),
  isActive: true,
});
const pair = await issueSession(deps, database.db, user.id);
const auth = { authorization: `Bearer ${pair.access}` };

const check = await fetch(`${base}/api/users/me/`, { headers: auth });
if (check.status !== 200) throw new Error(`users/me answered ${check.status}`);

await runLoad({ url: `${base}/bench/bare/`, connections: CONNECTIONS, seconds: 1 }); // warm-up
await runLoad({ url: `${base}/api/users/me/`, headers: auth, connections: CONNECTIONS, seconds: 1 });
const bare = await runLoad({ url: `${base}/bench/bare/`, connections: CONNECTIONS, seconds: SECONDS });
const me = await runLoad({
  url: `${base}/api/users/me/`,
  headers: auth,
  connections: CONNECTIONS,
  seconds: SECONDS,
});

const row = (name: string, r: LoadResult) =>
  `${name.padEnd(22)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50Ms.toFixed(2).padStart(6)} ms   p99 ${r.p99Ms.toFixed(2).padStart(6)} ms   errors ${r.errors}`;
console.log(`users/me benchmark: ${CONNECTIONS} connections, ${SECONDS} s each`);
console.log(row('bare JSON (baseline)', bare));
console.log(row('GET /api/users/me/', me));
const ratio = me.rps / bare.rps;
console.log(`ratio me/bare: ${ratio.toFixed(2)} (target ≥ 0.50) ${ratio >= 0.5 ? 'OK' : 'BELOW TARGET'}`);

await app.close();
await notifications.close();
await database.close();
await stopPostgres();
