/**
 * The partner programme at scale: seeds BENCH_USERS people (1,000,000) in a referral tree (each
 * joined through someone before them, skewed so early partners have big teams) and
 * BENCH_ENTRIES commission rows (5,000,000: purchases of random people, one row per level up to
 * three) with their monthly aggregates and their wallet ledger (each paid commission's
 * referral_bonus entry, a clawback for each refunded one, and top-ups and purchases of the buyers
 * until the ledger holds BENCH_LEDGER_ENTRIES rows, 5,000,000), in SQL; then runs the tops job and
 * times, through the real server (auth, query, serialisation), GET /api/linear/top/ (cached, and
 * from the table with the cache dropped before each request), GET /api/partners/statistics/, the
 * wallet's balance and its referral transactions (summed from the entries), and GET /api/linear/
 * (first page, a name search, the paid filter) for the biggest partner and for ordinary ones,
 * against a bare route. Prints p50/p95 per call (target:
 * p95 < 30 ms), the tops job's duration, and the EXPLAIN ANALYZE plans of the queries behind them;
 * a sequential scan of a big table is flagged.
 * Run: `npm run bench:partners` (DATABASE_URL if set — an empty database — else an embedded
 * PostgreSQL). BENCH_USERS / BENCH_ENTRIES / BENCH_LEDGER_ENTRIES scale it down; BENCH_SAMPLES
 * (100) samples per call.
 */
import { performance } from 'node:perf_hooks';
import { buildServer } from '../apps/server/src/app/build-server.js';
import { createDeps } from '../apps/server/src/app/deps.js';
import { parseConfig } from '../apps/server/src/shared/config.js';
import { connectDatabase } from '../apps/server/src/shared/db/client.js';
import { migrateDatabase } from '../apps/server/src/shared/db/migrate.js';
import { createLogger } from '../apps/server/src/shared/logger.js';
import { issueSession } from '../apps/server/src/modules/auth/index.js';
import { computeTops, forgetCachedTops } from '../apps/server/src/modules/partners/index.js';
import { startBenchPostgres } from './lib/postgres.js';

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 5_000_000);
const LEDGER_ENTRIES = Number(process.env.BENCH_LEDGER_ENTRIES ?? 5_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const TARGET_P95_MS = 30;

const logger = createLogger('warn', 'bench');
const { url, dir, stop: stopPostgres } = await startBenchPostgres('partners', logger);
const database = connectDatabase(url, 10);
await migrateDatabase(database);
const { pool } = database;
const config = parseConfig({ NODE_ENV: 'production', DATA_DIR: dir, LOG_LEVEL: 'warn' });
const deps = createDeps({
  config,
  database,
  logger,
  notifications: null,
  jwtSecret: 'bench-secret-bench-secret-bench',
});

// ── Seed ────────────────────────────────────────────────────────────────────────────────────
const seedStarted = performance.now();
const seeder = await pool.connect();
// Replica role: no triggers or foreign-key checks during the load; the rows are consistent by construction.
await seeder.query(`SET session_replication_role = replica`);
const step = async (label: string, text: string, values: unknown[] = []) => {
  const started = performance.now();
  await seeder.query(text, values);
  console.log(`  ${label.padEnd(52)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
};
console.log(
  `seeding ${USERS.toLocaleString('en')} people and ${ENTRIES.toLocaleString('en')} commission rows…`,
);
await seeder.query('SELECT setseed(0.17)');
await step(
  'users (a referral tree)',
  `INSERT INTO users (email, is_active, first_name, referral_code, date_joined)
   SELECT 'p' || i || '@example.com', true, 'Partner ' || i, 'bp' || i, now() - (($1 - i) * interval '20 seconds')
   FROM generate_series(1, $1) i`,
  [USERS],
);
const { rows: range } = await pool.query<{ first: number }>('SELECT min(id)::int AS first FROM users');
const first = range[0]!.first;
await step(
  'referers (each joined through someone before them)',
  `UPDATE users SET referer_id = $1::int + floor(power(random(), 3) * (id - $1::int))::int WHERE id > $1::int`,
  [first],
);
await step('users_referer_idx rebuilt', 'REINDEX INDEX users_referer_idx');
const orders = Math.ceil(ENTRIES / 3);
await step(
  'purchases (temporary)',
  `CREATE TEMP TABLE bench_orders AS
   SELECT gen_random_uuid() AS uuid, $1::int + 1 + floor(random() * ($2::int - 1))::int AS buyer,
          (ARRAY[19900, 59900, 149000])[1 + floor(random() * 3)::int] AS amount,
          now() - random() * interval '365 days' AS paid_at
   FROM generate_series(1, $3) i`,
  [first, USERS, orders],
);
await step(
  'partner_commissions (three levels up)',
  `INSERT INTO partner_commissions (order_uuid, buyer_id, beneficiary_id, level, basis_points, base_amount, amount,
                                    currency, status, frozen_until, paid_at, refunded_amount)
   SELECT o.uuid, o.buyer, chain.beneficiary, chain.level, chain.bp, o.amount, o.amount * chain.bp / 10000, 643,
          CASE WHEN o.paid_at < now() - interval '14 days' THEN 'available' ELSE 'frozen' END,
          o.paid_at + interval '14 days', o.paid_at, CASE WHEN random() < 0.03 THEN o.amount ELSE 0 END
   FROM bench_orders o
   JOIN users u1 ON u1.id = o.buyer
   LEFT JOIN users u2 ON u2.id = u1.referer_id
   LEFT JOIN users u3 ON u3.id = u2.referer_id
   CROSS JOIN LATERAL (VALUES (1, u1.referer_id, 1000), (2, u2.referer_id, 500), (3, u3.referer_id, 200)) chain(level, beneficiary, bp)
   WHERE chain.beneficiary IS NOT NULL`,
);
await step(
  'partner_monthly (from the commissions)',
  `INSERT INTO partner_monthly (user_id, month, currency, income, turnover, first_line_turnover)
   SELECT beneficiary_id, date_trunc('month', paid_at)::date, currency,
          sum(CASE WHEN refunded_amount > 0 THEN 0 ELSE amount END),
          sum(base_amount - refunded_amount),
          sum(CASE WHEN level = 1 THEN base_amount - refunded_amount ELSE 0 END)
   FROM partner_commissions GROUP BY 1, 2, 3`,
);
await step(
  'partner_level_counts: members per level',
  `INSERT INTO partner_level_counts (user_id, level, members)
   WITH RECURSIVE up(member_id, ancestor_id, level) AS (
     SELECT id, referer_id, 1 FROM users WHERE referer_id IS NOT NULL
     UNION ALL
     SELECT up.member_id, u.referer_id, up.level + 1 FROM up JOIN users u ON u.id = up.ancestor_id
     WHERE u.referer_id IS NOT NULL AND up.level < 3
   )
   SELECT ancestor_id, level, count(*)::int FROM up GROUP BY ancestor_id, level`,
);
await step(
  'partner_level_counts: paying members per level',
  `UPDATE partner_level_counts c SET paying = p.paying
   FROM (SELECT beneficiary_id, level, count(DISTINCT buyer_id)::int AS paying FROM partner_commissions
         WHERE refunded_amount < base_amount GROUP BY beneficiary_id, level) p
   WHERE c.user_id = p.beneficiary_id AND c.level = p.level`,
);
await step(
  'wallet_accounts (partners and buyers)',
  `INSERT INTO wallet_accounts (user_id, currency)
   SELECT beneficiary_id, 643 FROM partner_commissions WHERE amount > 0
   UNION SELECT buyer, 643 FROM bench_orders`,
);
await step(
  'wallet_entries: a referral bonus per paid commission',
  `INSERT INTO wallet_entries (user_id, currency, amount, status, kind, frozen_until, ref, counterparty_user_id,
                               idempotency_key, created_at, updated_at)
   SELECT beneficiary_id, currency, amount, 'in', 'referral_bonus', frozen_until, order_uuid::text, buyer_id,
          'referral:' || order_uuid || ':' || level, paid_at, paid_at
   FROM partner_commissions WHERE amount > 0`,
);
await step(
  'wallet_entries: a clawback per refunded commission',
  `INSERT INTO wallet_entries (user_id, currency, amount, status, kind, ref, counterparty_user_id,
                               idempotency_key, created_at, updated_at)
   SELECT beneficiary_id, currency, -amount, 'out', 'clawback', order_uuid::text, buyer_id,
          'referral:' || order_uuid || ':' || level || ':clawback:' || base_amount,
          paid_at + interval '3 days', paid_at + interval '3 days'
   FROM partner_commissions WHERE amount > 0 AND refunded_amount > 0`,
);
await step(
  'wallet_entries: top-ups and purchases up to the ledger size',
  `WITH o AS (SELECT row_number() OVER () - 1 AS n, * FROM bench_orders),
        total AS (SELECT count(*) AS orders FROM bench_orders)
   INSERT INTO wallet_entries (user_id, currency, amount, status, kind, ref, idempotency_key, created_at, updated_at)
   SELECT o.buyer, 643, CASE WHEN i % 2 = 0 THEN o.amount ELSE -o.amount END,
          CASE WHEN i % 2 = 0 THEN 'in' ELSE 'out' END, CASE WHEN i % 2 = 0 THEN 'pay_in' ELSE 'purchase' END,
          o.uuid::text, 'bench:' || o.uuid || ':' || i, o.paid_at, o.paid_at
   FROM generate_series(0, greatest(0, $1::bigint - (SELECT count(*) FROM wallet_entries)) - 1) i
   CROSS JOIN total JOIN o ON o.n = (i / 2) % total.orders`,
  [LEDGER_ENTRIES],
);
await step('vacuum analyze', 'VACUUM ANALYZE');
seeder.release();
const { rows: counts } = await pool.query<{ commissions: string; months: string; entries: string }>(
  `SELECT (SELECT count(*) FROM partner_commissions) AS commissions, (SELECT count(*) FROM partner_monthly) AS months,
          (SELECT count(*) FROM wallet_entries) AS entries`,
);
console.log(
  `seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s: ${Number(counts[0]!.commissions).toLocaleString('en')} commissions, ${Number(counts[0]!.months).toLocaleString('en')} partner-months, ${Number(counts[0]!.entries).toLocaleString('en')} wallet entries`,
);

const topsStarted = performance.now();
await computeTops(deps);
const topsSeconds = (performance.now() - topsStarted) / 1000;
console.log(`tops job (every list recomputed): ${topsSeconds.toFixed(2)} s`);

// ── Measure ─────────────────────────────────────────────────────────────────────────────────
const app = await buildServer(deps);
let barePage = '';
app.get('/bench/bare/', { logLevel: 'warn' }, async (_request, reply) =>
  reply.header('content-type', 'application/json').send(barePage),
);
await app.ready();

const { rows: big } = await pool.query<{ id: number }>(
  `SELECT referer_id::int AS id FROM users WHERE referer_id IS NOT NULL GROUP BY referer_id ORDER BY count(*) DESC LIMIT 1`,
);
const biggest = big[0]!.id;
const ordinary = Array.from({ length: 20 }, (_, i) => first + Math.floor(((i + 1) * USERS) / 22));
const headersOf = async (id: number) => ({
  authorization: `Bearer ${(await issueSession(deps, database.db, id)).access}`,
});
const bigHeaders = await headersOf(biggest);
const ordinaryHeaders = await Promise.all(ordinary.map(headersOf));

async function time(label: string, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await run(i); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  samples.sort((x, y) => x - y);
  const p = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { label, p50: p(0.5), p95: p(0.95) };
}
async function get(path: string, headers: Record<string, string>) {
  const response = await app.inject({ method: 'GET', url: path, headers });
  if (response.statusCode !== 200)
    throw new Error(`${path} answered ${response.statusCode}: ${response.body}`);
  return response.body;
}

barePage = await get('/api/linear/top/?period=all&by=income', bigHeaders);
const results = [
  await time('bare route (same body as the tops)', () => get('/bench/bare/', bigHeaders)),
  await time('GET /api/linear/top/ (cached)', () =>
    get('/api/linear/top/?period=month&by=income', bigHeaders),
  ),
  await time('GET /api/linear/top/ (from partner_tops)', () => {
    forgetCachedTops();
    return get('/api/linear/top/?period=all&by=team', bigHeaders);
  }),
  await time('GET /api/partners/statistics/ (biggest partner)', () =>
    get('/api/partners/statistics/', bigHeaders),
  ),
  await time('GET /api/partners/statistics/ (ordinary partners)', (i) =>
    get('/api/partners/statistics/', ordinaryHeaders[i % ordinaryHeaders.length]!),
  ),
  await time('GET /api/linear/ (biggest partner, first page)', () => get('/api/linear/?level=1', bigHeaders)),
  await time('GET /api/linear/?search= (biggest partner)', (i) =>
    get(`/api/linear/?search=Partner%20${(i % 9) + 1}`, bigHeaders),
  ),
  await time('GET /api/linear/?paid=true (biggest partner)', () => get('/api/linear/?paid=true', bigHeaders)),
  await time('GET /api/linear/?paid=false (biggest partner)', () =>
    get('/api/linear/?paid=false', bigHeaders),
  ),
  await time('GET /api/wallet/ (biggest partner: balances)', () => get('/api/wallet/', bigHeaders)),
  await time('GET /api/wallet/ (ordinary partners)', (i) =>
    get('/api/wallet/', ordinaryHeaders[i % ordinaryHeaders.length]!),
  ),
  await time('GET /api/wallet/transactions/643/?filter=referral (biggest)', () =>
    get('/api/wallet/transactions/643/?filter=referral', bigHeaders),
  ),
  await time('GET /api/partners/me/ (biggest partner)', () => get('/api/partners/me/', bigHeaders)),
];

const bare = results[0]!;
console.log(
  `\n${'call'.padEnd(52)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p95/bare'.padStart(9)}`,
);
for (const r of results) {
  const flag = r.p95 > TARGET_P95_MS && r !== bare ? '  ← over target' : '';
  console.log(
    `${r.label.padEnd(52)} ${r.p50.toFixed(2).padStart(8)} ${r.p95.toFixed(2).padStart(8)} ${(r.p95 / bare.p95).toFixed(1).padStart(9)}${flag}`,
  );
}

// ── Plans ───────────────────────────────────────────────────────────────────────────────────
const month = new Date().toISOString().slice(0, 7) + '-01';
const plans: Array<[string, string, unknown[]]> = [
  [
    'tops read',
    `SELECT t.rank, t.value, u.uuid FROM partner_tops t JOIN users u ON u.id = t.user_id
     WHERE t.period = 'all' AND t.metric = 'income' AND t.currency = 643 ORDER BY t.rank LIMIT 100`,
    [],
  ],
  [
    'statistics: months',
    `SELECT * FROM partner_monthly WHERE user_id = $1 AND currency = 643 ORDER BY month`,
    [biggest],
  ],
  [
    'statistics: level counts',
    `SELECT * FROM partner_level_counts WHERE user_id = $1 AND level = 1`,
    [biggest],
  ],
  [
    'team: first page of level 1',
    `WITH RECURSIVE team(id, level) AS (
       SELECT id, 1 FROM users WHERE referer_id = $1
       UNION ALL
       SELECT u.id, t.level + 1 FROM team t JOIN users u ON u.referer_id = t.id WHERE t.level < 1)
     SELECT m.level, m.id, s.turnover
     FROM (SELECT t.level, u.id FROM team t JOIN users u ON u.id = t.id ORDER BY t.level, t.id LIMIT 31) m
     LEFT JOIN LATERAL (SELECT sum(base_amount - refunded_amount) AS turnover FROM partner_commissions pc
                        WHERE pc.beneficiary_id = $1 AND pc.buyer_id = m.id) s ON true
     ORDER BY m.level, m.id`,
    [biggest],
  ],
  [
    'team: paid filter (level 1..3, turnover per member)',
    `WITH RECURSIVE team(id, level) AS (
       SELECT id, 1 FROM users WHERE referer_id = $1
       UNION ALL
       SELECT u.id, t.level + 1 FROM team t JOIN users u ON u.referer_id = t.id WHERE t.level < 3)
     SELECT m.level, m.id, s.turnover
     FROM team m
     LEFT JOIN LATERAL (SELECT sum(base_amount - refunded_amount) AS turnover,
                               bool_or(refunded_amount < base_amount) AS paid
                        FROM partner_commissions pc WHERE pc.beneficiary_id = $1 AND pc.buyer_id = m.id) s ON true
     WHERE coalesce(s.paid, false) = true
     ORDER BY m.level, m.id LIMIT 31`,
    [biggest],
  ],
  [
    'wallet: balances summed from the entries',
    `SELECT currency,
       coalesce(sum(amount) FILTER (WHERE status = 'out' OR (status = 'in' AND (frozen_until IS NULL OR frozen_until <= now()))
                                     OR (status = 'pending' AND amount < 0)), 0) AS available,
       coalesce(sum(amount) FILTER (WHERE status = 'in' AND frozen_until > now()), 0) AS frozen
     FROM wallet_entries WHERE user_id = $1 GROUP BY currency`,
    [biggest],
  ],
  [
    'wallet: referral transactions, newest first',
    `SELECT * FROM wallet_entries WHERE user_id = $1 AND currency = 643 AND kind IN ('referral_bonus', 'clawback')
     ORDER BY id DESC LIMIT 31`,
    [biggest],
  ],
  [
    'tops job: income this month',
    `SELECT user_id, income FROM partner_monthly WHERE month = $1 AND currency = 643 ORDER BY income DESC LIMIT 100`,
    [month],
  ],
];
for (const [label, text, values] of plans) {
  const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
  const lines = rows.map((r) => r['QUERY PLAN']);
  const seq = lines.some(
    (line) =>
      /Seq Scan on (users|partner_commissions|partner_monthly|wallet_entries)\b/.test(line) &&
      !line.includes('never executed'),
  );
  console.log(`\n${label}${seq ? '  ← sequential scan of a big table' : ''}`);
  for (const line of lines) console.log(`  ${line}`);
}

await app.close();
await database.close();
await stopPostgres();
