/**
 * Server-sent-event streams one API process holds: the built server (apps/server/dist, `npm run
 * build` first) with one process (WEB_CONCURRENCY=1) and no worker, and BENCH_STREAMS (0, 250,
 * 1000, 2000) open streams of a queued generation. For each level: the process's resident memory,
 * `/api/config/` p50/p99 over 300 sequential requests (ratio p99 / p99 with no streams), and the
 * fan-out: from one database change of the generation (its trigger NOTIFYs the node's one LISTEN
 * connection) until every stream has the event. Run: `node --import tsx bench/sse-streams.ts`.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { callApi, createActiveUser } from '../e2e/lib/accounts.js';
import { startBuiltServer, type BuiltServer } from '../e2e/lib/server.js';
import { startBenchPostgres } from './lib/postgres.js';
import { createLogger } from '../apps/server/src/shared/logger.js';

const LEVELS = (process.env.BENCH_STREAMS ?? '0,250,1000,2000').split(',').map(Number);
const SAMPLES = 300;

const { url: databaseUrl, stop: stopPostgres } = await startBenchPostgres(
  'sse',
  createLogger('error', 'bench'),
);
const settings = {
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  WEB_CONCURRENCY: '1',
  FREE_DAILY_PHOTOS: '10',
  LOG_LEVEL: 'error',
};

// A person and a generation that stays queued: the worker that sent the activation email is gone.
let server: BuiltServer = await startBuiltServer({
  dataDirPrefix: 'mirra-bench-sse-',
  settings: { ...settings, RUN_WORKER: 'inline' },
});
process.env.E2E_BASE_URL = server.baseUrl;
process.env.E2E_DATA_DIR = server.dataDir;
const user = await createActiveUser();
await server.stop();
server = await startBuiltServer({
  dataDirPrefix: 'mirra-bench-sse-',
  settings: { ...settings, RUN_WORKER: 'false' },
});
process.env.E2E_BASE_URL = server.baseUrl;
const created = await callApi<{ uuid: string }>('/api/generations/', {
  body: { mode: 'simple', prompt: 'a quiet harbour at night', seed: 1 },
  authorization: `Bearer ${user.access}`,
});
if (created.status !== 201) throw new Error(`generate: ${created.status} ${JSON.stringify(created.body)}`);
const uuid = created.body.uuid;
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
interface Stream {
  events: number;
  request: http.ClientRequest;
  onEvent?: () => void;
}
function openStream(): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const stream = {} as Stream;
    stream.events = 0;
    stream.request = http.get(
      `${server.baseUrl}/api/generations/${uuid}/events/`,
      { agent, headers: { authorization: `Bearer ${user.access}`, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream: ${response.statusCode}`));
        response.setEncoding('utf8');
        let first = true;
        response.on('data', (chunk: string) => {
          const count = chunk.split('event: status').length - 1;
          if (!count) return;
          stream.events += count;
          if (first) {
            first = false;
            resolve(stream);
          } else stream.onEvent?.();
        });
      },
    );
    stream.request.on('error', reject);
  });
}

async function latency(): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await (await fetch(`${server.baseUrl}/api/config/`)).arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(SAMPLES * 0.5)]!, p99: times[Math.floor(SAMPLES * 0.99)]! };
}

async function residentMb(): Promise<number> {
  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  const value = /^mirra_process_resident_memory_bytes (\d+)/m.exec(text)?.[1];
  return Math.round(Number(value) / 1024 / 1024);
}

const streams: Stream[] = [];
let baseline = 0;
let progress = 0;
console.log('streams  rss MB  config p50 ms  p99 ms  p99 ratio  fan-out ms (all streams got one change)');
for (const level of LEVELS) {
  while (streams.length < level) {
    const batch = Math.min(100, level - streams.length);
    streams.push(...(await Promise.all(Array.from({ length: batch }, openStream))));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const { p50, p99 } = await latency();
  if (!baseline) baseline = p99;
  let fanOut = '—';
  if (streams.length) {
    const before = streams.map((s) => s.events);
    const all = Promise.all(
      streams.map(
        (s, i) =>
          new Promise<void>((resolve) => {
            if (s.events > before[i]!) return resolve();
            s.onEvent = () => resolve();
          }),
      ),
    );
    const started = performance.now();
    progress += 1;
    await db.query('UPDATE generations SET progress = $1 WHERE uuid = $2', [progress, uuid]);
    await all;
    fanOut = (performance.now() - started).toFixed(0);
  }
  console.log(
    `${String(level).padStart(7)}  ${String(await residentMb()).padStart(6)}  ${p50.toFixed(2).padStart(13)}  ${p99
      .toFixed(2)
      .padStart(6)}  ${(p99 / baseline).toFixed(2).padStart(9)}  ${fanOut.padStart(10)}`,
  );
}

for (const s of streams) s.request.destroy();
await db.end();
await server.stop();
await stopPostgres();
