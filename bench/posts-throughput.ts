/**
 * Throughput of the built server (apps/server/dist, `npm run build` first) over real HTTP:
 * BENCH_POSTS posts (200,000) seeded in SQL into the server's database after it migrated, then
 * `GET /api/posts/?type=new` and a bare route (`/api/config/`: routing, serialisation, no query)
 * under the same closed-loop load with WEB_CONCURRENCY=1 and 2 API processes, in BENCH_FEED_ROUNDS
 * (3) alternating rounds; prints req/s and the ratios of the medians (feed/bare; 2 processes/1).
 * Then `GET /api/users/me/` against the bare route, BENCH_ROUNDS (5) times with one API process
 * (target: me/bare ≥ 0.5 in 4 of 5). Run: `npm run bench:posts`. BENCH_SECONDS (5) per
 * measurement, BENCH_CONNECTIONS (16).
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createActiveUser } from '../e2e/lib/accounts.js';
import { startBuiltServer, type BuiltServer } from '../e2e/lib/server.js';
import { startBenchPostgres } from './lib/postgres.js';
import { createLogger } from '../apps/server/src/shared/logger.js';
import { runLoad, type LoadResult } from './load.js';

const POSTS = Number(process.env.BENCH_POSTS ?? 200_000);
const USERS = Math.max(1, Math.round(POSTS / 10));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FEED_ROUNDS = Number(process.env.BENCH_FEED_ROUNDS ?? 3);
const TARGET_ME_RATIO = 0.5;

const logger = createLogger('error', 'bench');
const { url: databaseUrl, stop: stopPostgres } = await startBenchPostgres('posts', logger);
const JWT_SECRET = randomBytes(32).toString('hex');

/** The built server on the bench's database; the job worker in its own process sends the emails. */
async function startServer(webConcurrency: number, runWorker = true): Promise<BuiltServer> {
  const server = await startBuiltServer({
    dataDirPrefix: 'mirra-bench-posts-server-',
    settings: {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      WEB_CONCURRENCY: String(webConcurrency),
      RUN_WORKER: runWorker ? 'true' : 'false',
      // One secret for every server of the run: an access token from one is good on the others.
      JWT_SECRET: JWT_SECRET,
      LOG_LEVEL: 'warn',
    },
  });
  // The e2e account helpers reach the server through these.
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATA_DIR = server.dataDir;
  return server;
}

/**
 * BENCH_POSTS published posts (one generation behind each) by USERS people, in SQL with triggers
 * and foreign-key checks off (replica role): rows are consistent by construction, and the score
 * and search buckets come from the same SQL functions the trigger uses.
 */
async function seed() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query('SELECT setseed(0.42)');
    await client.query(
      `INSERT INTO users (email, is_active, first_name, referral_code)
       SELECT 'bench' || i || '@example.com', true, 'Person ' || i, 'bench' || i FROM generate_series(1, $1) i`,
      [USERS],
    );
    const { rows } = await client.query<{ first: number }>(
      `SELECT min(id)::int AS first FROM users WHERE email LIKE 'bench%@example.com'`,
    );
    await client.query(
      `INSERT INTO generations (user_id, mode, status, prompt, guidance, seed, cost, engine, progress)
       SELECT $2::int + floor(random() * $3)::int, 'simple', 100,
              (ARRAY['misty lighthouse at dusk','red fox in the snow','castle by the sea','neon city at night'])[1 + floor(random() * 4)::int],
              7, i, 1, 'bench', 100
       FROM generate_series(1, $1) i`,
      [POSTS, rows[0]!.first, USERS],
    );
    await client.query(
      `INSERT INTO posts (user_id, generation_id, generation_uuid, status, title, prompt, mode, guidance, seed,
                          image, saves_count, views_count, repeats_count, remixes_count, published_at, created_at,
                          score, search_buckets)
       SELECT user_id, id, uuid, 'published', '', prompt, 'simple', 7, seed,
              jsonb_build_object('original', jsonb_build_object('key', 'b/' || id || '/o.png', 'width', 1024, 'height', 1024, 'contentType', 'image/png'),
                                 'variants', jsonb_build_array(jsonb_build_object('key', 'b/' || id || '/w256.webp', 'width', 256, 'height', 256),
                                                               jsonb_build_object('key', 'b/' || id || '/w512.webp', 'width', 512, 'height', 512))),
              saves, views, 0, 0, published_at, published_at,
              mirra_post_score(saves, 0, 0, views, published_at), mirra_post_search_buckets(published_at)
       FROM (SELECT g.*, floor(power(random(), 8) * 500)::int AS saves, floor(power(random(), 4) * 5000)::int AS views,
                    date_trunc('milliseconds', now() - random() * interval '365 days') AS published_at
             FROM generations g WHERE g.engine = 'bench') s`,
    );
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

const row = (name: string, r: LoadResult) =>
  `  ${name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50Ms.toFixed(2).padStart(6)} ms   p99 ${r.p99Ms.toFixed(2).padStart(7)} ms${r.errors ? `   errors ${r.errors}` : ''}`;

interface FeedTarget {
  webConcurrency: number;
  server: BuiltServer;
  headers: Record<string, string>;
}

/** A server with `webConcurrency` API processes, warmed up for `headers`' person. */
async function feedTarget(
  webConcurrency: number,
  runWorker: boolean,
  headers: () => Promise<Record<string, string>>,
): Promise<FeedTarget> {
  const server = await startServer(webConcurrency, runWorker);
  try {
    const target = { webConcurrency, server, headers: await headers() };
    await runLoad({ url: `${server.baseUrl}/api/config/`, connections: CONNECTIONS, seconds: 1 });
    await runLoad({
      url: `${server.baseUrl}/api/posts/?type=new`,
      headers: target.headers,
      connections: CONNECTIONS,
      seconds: 2,
    });
    return target;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Both layouts run side by side (one idles while the other is measured) and are measured in
 * alternating rounds, so a change of the machine's load weighs on both alike; medians of the rounds.
 */
async function measureFeed() {
  // One person, signed up on the first server (whose job worker sends the email; the second runs
  // none, so the email cannot land in the other server's outbox).
  const first = await feedTarget(1, true, async () => {
    const user = await createActiveUser({ firstName: 'Bench' });
    return { authorization: `Bearer ${user.access}` };
  });
  const targets = [first];
  try {
    targets.push(await feedTarget(2, false, async () => first.headers));
  } catch (error) {
    await first.server.stop();
    throw error;
  }
  const rounds = new Map<number, Array<{ bare: LoadResult; feed: LoadResult }>>(
    targets.map((t) => [t.webConcurrency, []]),
  );
  try {
    for (let round = 1; round <= FEED_ROUNDS; round++) {
      for (const { webConcurrency, server, headers } of targets) {
        const bare = await runLoad({
          url: `${server.baseUrl}/api/config/`,
          connections: CONNECTIONS,
          seconds: SECONDS,
        });
        const feed = await runLoad({
          url: `${server.baseUrl}/api/posts/?type=new`,
          headers,
          connections: CONNECTIONS,
          seconds: SECONDS,
        });
        rounds.get(webConcurrency)!.push({ bare, feed });
        console.log(`round ${round}, WEB_CONCURRENCY=${webConcurrency}`);
        console.log(row('bare (/api/config/)', bare));
        console.log(row('GET /api/posts/?type=new', feed));
      }
    }
  } finally {
    for (const { server } of targets) await server.stop();
  }
  const medians = new Map(
    [...rounds].map(([webConcurrency, results]) => [
      webConcurrency,
      { bare: median(results.map((r) => r.bare.rps)), feed: median(results.map((r) => r.feed.rps)) },
    ]),
  );
  console.log(`
medians of ${FEED_ROUNDS} rounds (${os.availableParallelism()} cores):`);
  for (const [webConcurrency, m] of medians) {
    console.log(
      `  WEB_CONCURRENCY=${webConcurrency}: feed ${m.feed.toFixed(0)} req/s, bare ${m.bare.toFixed(0)} req/s, feed/bare ${(m.feed / m.bare).toFixed(2)}`,
    );
  }
  const [one, two] = [medians.get(1)!, medians.get(2)!];
  console.log(
    `  2 processes / 1: feed ${(two.feed / one.feed).toFixed(2)}, bare ${(two.bare / one.bare).toFixed(2)}\n`,
  );
}

async function measureMe() {
  const server = await startServer(1);
  try {
    const user = await createActiveUser({ firstName: 'Bench' });
    const headers = { authorization: `Bearer ${user.access}` };
    const bareUrl = `${server.baseUrl}/api/config/`;
    const meUrl = `${server.baseUrl}/api/users/me/`;
    await runLoad({ url: bareUrl, connections: CONNECTIONS, seconds: 1 });
    await runLoad({ url: meUrl, headers, connections: CONNECTIONS, seconds: 1 });
    const ratios: number[] = [];
    console.log(`users/me vs bare, WEB_CONCURRENCY=1, ${ROUNDS} rounds`);
    for (let round = 1; round <= ROUNDS; round++) {
      // The bare route before and after, so a change of the machine's load during the round
      // weighs on both sides of the ratio.
      const before = await runLoad({ url: bareUrl, connections: CONNECTIONS, seconds: SECONDS / 2 });
      const me = await runLoad({ url: meUrl, headers, connections: CONNECTIONS, seconds: SECONDS });
      const after = await runLoad({ url: bareUrl, connections: CONNECTIONS, seconds: SECONDS / 2 });
      const bare = { rps: (before.rps + after.rps) / 2 };
      const ratio = me.rps / bare.rps;
      ratios.push(ratio);
      console.log(
        `  round ${round}: bare ${bare.rps.toFixed(0)} req/s, me ${me.rps.toFixed(0)} req/s (p99 ${me.p99Ms.toFixed(2)} ms), me/bare ${ratio.toFixed(2)}${me.errors ? `, errors ${me.errors}` : ''}`,
      );
    }
    return ratios;
  } finally {
    await server.stop();
  }
}

try {
  // The first start migrates the database; the seed goes in after.
  await (await startServer(1)).stop();
  const seedStarted = performance.now();
  await seed();
  console.log(
    `seeded ${POSTS.toLocaleString('en')} posts by ${USERS.toLocaleString('en')} people in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s; ${CONNECTIONS} connections, ${SECONDS} s per measurement (load from a thread of this process)\n`,
  );
  await measureFeed();
  const ratios = await measureMe();
  const met = ratios.filter((ratio) => ratio >= TARGET_ME_RATIO).length;
  console.log(
    `me/bare ≥ ${TARGET_ME_RATIO} in ${met} of ${ratios.length} rounds: ${met >= Math.min(4, ratios.length) ? 'OK' : 'BELOW TARGET'}`,
  );
} finally {
  await stopPostgres();
}
