/**
 * The verify page's lookup at scale: seeds BENCH_HASHES perceptual hashes (1,000,000) of random
 * 64 bits in output_hashes (in SQL, bands computed there), plants BENCH_QUERIES (100) known ones,
 * then times finding each from a copy with 2 to 3 bits flipped (what re-encoding and resizing do)
 * by the band indexes (multi-index hashing, what the API runs) against a full scan computing the
 * Hamming distance of every row (the baseline without an index). Prints p50/p95 of each and the
 * ratio, and the plan of the indexed query. The generation each hash belongs to is not seeded
 * (the foreign key is dropped in this throwaway database): only the lookup is measured.
 * Run: `npm run bench:provenance` (DATABASE_URL if set — an empty database — else an embedded
 * PostgreSQL in a temporary folder).
 */
import { performance } from 'node:perf_hooks';
import { drizzle } from 'drizzle-orm/node-postgres';
import { connectDatabase } from '../apps/server/src/shared/db/client.js';
import * as schema from '../apps/server/src/shared/db/schema.js';
import { migrateDatabase } from '../apps/server/src/shared/db/migrate.js';
import { createLogger } from '../apps/server/src/shared/logger.js';
import { hashBands, toSigned } from '../apps/server/src/modules/provenance/perceptual-hash.js';
import { provenanceRepository } from '../apps/server/src/modules/provenance/provenance.repository.js';
import { startBenchPostgres } from './lib/postgres.js';

const HASHES = Number(process.env.BENCH_HASHES ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 100);
const MAX_DISTANCE = 8;

const logger = createLogger('warn', 'bench');
const { url, stop } = await startBenchPostgres('provenance', logger);
const database = connectDatabase(url, 4);
await migrateDatabase(database);
const { pool } = database;
const db = drizzle(pool, { schema });

const random64 = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return bytes.reduce((hash, byte) => (hash << 8n) | BigInt(byte), 0n);
};
const flip = (hash: bigint, bits: number) => {
  let copy = hash;
  const used = new Set<number>();
  while (used.size < bits) used.add(Math.floor(Math.random() * 64));
  for (const bit of used) copy ^= 1n << BigInt(bit);
  return copy;
};

// ── Seed ────────────────────────────────────────────────────────────────────────────────────
const seedStarted = performance.now();
await pool.query('ALTER TABLE output_hashes DROP CONSTRAINT output_hashes_generation_id_generations_id_fk');
await pool.query(
  `
  INSERT INTO output_hashes (generation_id, hash, band0, band1, band2, band3, mode)
  SELECT i, h, (h >> 48) & 65535, (h >> 32) & 65535, (h >> 16) & 65535, h & 65535, 'simple'
  FROM (
    SELECT i, ((floor(random() * 4294967296)::bigint) << 32) | floor(random() * 4294967296)::bigint AS h
    FROM generate_series(1, $1::int) AS i
  ) AS seeded`,
  [HASHES],
);
const planted = Array.from({ length: QUERIES }, random64);
for (const [index, hash] of planted.entries()) {
  const [band0, band1, band2, band3] = hashBands(hash);
  await pool.query(
    `INSERT INTO output_hashes (generation_id, hash, band0, band1, band2, band3, mode) VALUES ($1, $2, $3, $4, $5, $6, 'planted')`,
    [HASHES + index + 1, toSigned(hash).toString(), band0, band1, band2, band3],
  );
}
await pool.query('ANALYZE output_hashes');
console.log(
  `seeded ${HASHES.toLocaleString('en')} hashes in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

// ── Time ────────────────────────────────────────────────────────────────────────────────────
const queries = planted.map((hash, index) => flip(hash, 2 + (index % 2)));
async function time(run: (hash: bigint) => Promise<unknown>) {
  const samples: number[] = [];
  let found = 0;
  for (const hash of queries) {
    const started = performance.now();
    if (await run(hash)) found++;
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p95: at(0.95), found };
}

const indexed = await time((hash) => provenanceRepository.nearest(db, hash, MAX_DISTANCE));
const scanned = await time((hash) => provenanceRepository.nearestByScan(db, hash, MAX_DISTANCE));
const row = (name: string, r: { p50: number; p95: number; found: number }) =>
  `${name.padEnd(26)} p50 ${r.p50.toFixed(2).padStart(8)} ms   p95 ${r.p95.toFixed(2).padStart(8)} ms   found ${r.found}/${QUERIES}`;
console.log(row('band indexes (the API)', indexed));
console.log(row('full scan (baseline)', scanned));
console.log(
  `ratio: the indexed lookup is ${(scanned.p50 / indexed.p50).toFixed(0)}× faster at p50, ${(scanned.p95 / indexed.p95).toFixed(0)}× at p95`,
);
const [band0, band1, band2, band3] = hashBands(queries[0]!);
const plan = await pool.query(
  `EXPLAIN SELECT hash FROM output_hashes WHERE band0 = $1 OR band1 = $2 OR band2 = $3 OR band3 = $4 LIMIT 5000`,
  [band0, band1, band2, band3],
);
console.log(
  `\nplan of the indexed lookup:\n${plan.rows.map((r: { 'QUERY PLAN': string }) => `  ${r['QUERY PLAN']}`).join('\n')}`,
);

await database.close();
await stop();
