/**
 * API latency while local jobs run: the built server (apps/server/dist, `npm run build` first) is
 * started twice in one run, with the job worker inside the API process (RUN_WORKER=inline) and
 * in a process of its own (RUN_WORKER=true, the default of `npm start`). For each: one signed-up
 * person, `/api/config/` latency idle (paced sequential requests for BENCH_IDLE_SECONDS), then the same
 * while BENCH_JOBS (20) local-engine generations run, until the last has ended. Prints p50/p99
 * idle and during, and the ratio p99 during / p99 idle (goal with the separate process: ≤ 1.5).
 * Run: `npm run bench:api-jobs`. BENCH_LAYOUTS=true runs one layout only; BENCH_CONNECTIONS sets
 * the concurrent requests of the sampler (1); WORKER_CONCURRENCY passes through to the server.
 */
import { performance } from 'node:perf_hooks';
import { callApi, createActiveUser, type TestUser } from '../e2e/lib/accounts.js';
import { startBuiltServer } from '../e2e/lib/server.js';
import { runLoad, stopSignal, type LoadResult } from './load.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 20);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
/**
 * The sampler's pause between requests: a paced client like real traffic (a few hundred requests
 * a second), not a closed loop that would keep the API's core busy and starve the niced worker.
 */
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 2);
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'inline,true').split(',');
/** The longest the jobs may take before the run is called stuck. */
const JOBS_TIMEOUT_MS = 10 * 60_000;
const TARGET_RATIO = 1.5;

const ENDED = new Set([100, -100, -200]);

interface LayoutResult {
  layout: string;
  idle: LoadResult;
  during: LoadResult;
  jobsSeconds: number;
  failed: number;
}

async function measureLayout(layout: string): Promise<LayoutResult> {
  const server = await startBuiltServer({
    dataDirPrefix: 'mirra-bench-api-jobs-',
    settings: {
      NODE_ENV: 'production',
      RUN_WORKER: layout,
      WEB_CONCURRENCY: '1',
      WELCOME_CREDITS: '100000',
      FREE_DAILY_PHOTOS: '100000',
      FREE_DELAY_SECONDS: '0',
      LOG_LEVEL: 'warn',
      ...(process.env.WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY } : {}),
    },
  });
  // The e2e account helpers reach the server through these.
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATA_DIR = server.dataDir;
  try {
    const user = await createActiveUser({ firstName: 'Bench' });
    const url = `${server.baseUrl}/api/config/`;
    // A job first, so the worker's code paths and models are loaded before anything is timed.
    await waitForAll(user, [await generate(user, 0)]);
    await runLoad({ url, connections: CONNECTIONS, seconds: 1 }); // warm-up
    const idle = await runLoad({ url, connections: CONNECTIONS, seconds: IDLE_SECONDS, pauseMs: PAUSE_MS });

    const started = performance.now();
    const uuids: string[] = [];
    for (let i = 1; i <= JOBS; i++) uuids.push(await generate(user, i));
    const signal = stopSignal();
    const duringLoad = runLoad({
      url,
      connections: CONNECTIONS,
      seconds: JOBS_TIMEOUT_MS / 1000,
      stopFlag: signal.flag,
      pauseMs: PAUSE_MS,
    });
    let failed = 0;
    try {
      failed = await waitForAll(user, uuids);
    } finally {
      signal.stop();
    }
    const during = await duringLoad;
    return { layout, idle, during, jobsSeconds: (performance.now() - started) / 1000, failed };
  } catch (error) {
    console.error(server.output().slice(-4000));
    throw error;
  } finally {
    await server.stop();
  }
}

async function generate(user: TestUser, seed: number): Promise<string> {
  const created = await callApi<{ uuid: string }>('/api/generations/', {
    body: { mode: 'simple', prompt: 'A lighthouse on a cliff at dusk, oil painting', seed },
    authorization: `Bearer ${user.access}`,
  });
  if (created.status !== 201) throw new Error(`generate: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.uuid;
}

/** Waits until every generation has ended; resolves to how many did not succeed. */
async function waitForAll(user: TestUser, uuids: string[]): Promise<number> {
  const deadline = Date.now() + JOBS_TIMEOUT_MS;
  const pending = new Set(uuids);
  let failed = 0;
  while (pending.size > 0) {
    if (Date.now() > deadline) throw new Error(`${pending.size} generations did not end in time`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const uuid of [...pending]) {
      const { body } = await callApi<{ status: number }>(`/api/generations/${uuid}/`, {
        authorization: `Bearer ${user.access}`,
      });
      if (!ENDED.has(body.status)) continue;
      pending.delete(uuid);
      if (body.status !== 100) failed++;
    }
  }
  return failed;
}

const results: LayoutResult[] = [];
for (const layout of LAYOUTS) {
  console.log(`RUN_WORKER=${layout}: starting…`);
  results.push(await measureLayout(layout));
}

const ms = (value: number) => value.toFixed(2).padStart(7);
console.log(
  `\nAPI latency (/api/config/, ${CONNECTIONS} connection${CONNECTIONS === 1 ? '' : 's'}) idle vs during ${JOBS} local generations`,
);
console.log(
  `${'layout'.padEnd(22)}${'idle p50'.padStart(9)}${'idle p99'.padStart(9)}${'jobs p50'.padStart(9)}${'jobs p99'.padStart(9)}${'p99 ratio'.padStart(10)}${'requests'.padStart(16)}${'jobs s'.padStart(8)}`,
);
for (const r of results) {
  const ratio = r.during.p99Ms / r.idle.p99Ms;
  const name =
    r.layout === 'inline' ? 'worker inline' : r.layout === 'true' ? 'worker in own process' : r.layout;
  console.log(
    `${name.padEnd(22)}${ms(r.idle.p50Ms)}  ${ms(r.idle.p99Ms)}  ${ms(r.during.p50Ms)}  ${ms(r.during.p99Ms)}${ratio.toFixed(2).padStart(10)}${`${r.idle.requests}/${r.during.requests}`.padStart(16)}${r.jobsSeconds.toFixed(1).padStart(8)}` +
      (r.layout === 'true'
        ? `   ${ratio <= TARGET_RATIO ? 'OK' : 'ABOVE GOAL'} (goal ≤ ${TARGET_RATIO})`
        : '') +
      (r.failed > 0 ? `   ${r.failed} generations failed` : '') +
      (r.idle.errors + r.during.errors > 0 ? `   ${r.idle.errors + r.during.errors} request errors` : ''),
  );
}
