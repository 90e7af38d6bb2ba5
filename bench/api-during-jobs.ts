/**
 * API latency while local jobs run: the built server (apps/server/dist, `npm run build` first)
 * in layouts `RUN_WORKER[:IMAGING_THREADS]`: the job worker inside the API process with its pixel
 * work on the event loop (`inline:0`) or on the imaging thread pool (`inline:1`), and in a process
 * of its own (`true:1`, the default of `npm start` on two cores; `true:2` for throughput with two
 * threads). For each: one signed-up person, `/api/config/` latency idle (paced sequential
 * requests, BENCH_IDLE_SECONDS in all: half before the jobs, half after) and while BENCH_JOBS (20)
 * local-engine generations run, until the last has ended. Prints p50/p99 idle and during, the
 * ratio p99 during / p99 idle (goal: ≤ 1.5 for every layout with the pool) and jobs per minute.
 * Run: `npm run bench:api-jobs`. BENCH_REPEATS (3) runs of each layout, judged on the median
 * ratio; BENCH_LAYOUTS=true:1 runs one layout only; BENCH_CONNECTIONS sets the sampler's
 * concurrent requests (1); WORKER_CONCURRENCY passes through to the server. BENCH_MODE picks the
 * jobs: `simple` (a drawn scene, the default), `background` (a 1024 px portrait's background
 * removed), `inpaint` (a 1024 px portrait with a painted square removed), `upscale` (a 512 px
 * portrait made 2048 px by the super-resolution network), `restore` (a 1024 px portrait aged like
 * an old print, repaired) or `talking_photo` (the portrait saying an English sentence of 5 s, eSpeak
 * NG and the face-mesh mouth, 720p) or `photo_pack` (a pack of ten face photos from a trained digital
 * model; BENCH_JOBS counts packs, and the seconds are per pack); each prints the seconds per job
 * beside jobs per minute.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import sharp from 'sharp';
import { ageLikeOldPrint, loadTestFaces, makePhotoSet } from '@mirra/imaging/testing';
import { callApi, createActiveUser, type TestUser } from '../e2e/lib/accounts.js';
import { apiPassLiveCheck } from '../e2e/lib/live-check.js';
import { startBuiltServer } from '../e2e/lib/server.js';
import { startBenchPostgres } from './lib/postgres.js';
import { createLogger } from '../apps/server/src/shared/logger.js';
import { runLoad, stopSignal, type LoadResult } from './load.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 20);
const MODES = [
  'simple',
  'background',
  'inpaint',
  'upscale',
  'restore',
  'talking_photo',
  'photo_pack',
] as const;
/** A pack every installation starts with: ten face photos from the person's digital model. */
const PHOTO_PACK = '5a170000-0000-4000-8000-000000000001';
/** What the talking photo says: five seconds in English (speechSecondsOf). */
const TALKING_TEXT = 'Hello! This is a short message recorded for you, enjoy it.';
const MODE = (process.env.BENCH_MODE ?? 'simple') as (typeof MODES)[number];
if (!MODES.includes(MODE)) throw new Error(`BENCH_MODE: ${MODE}?`);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
/**
 * The sampler's pause between requests: a paced client like real traffic (a few hundred requests
 * a second), not a closed loop that would keep the API's core busy and starve the niced worker.
 */
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 2);
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'inline:0,inline:1,true:1,true:2').split(',');
/** Runs of each layout (a fresh server each): the verdict is on the median ratio (a shared machine is noisy). */
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
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

// The bench's own PostgreSQL (the server's database, DATABASE_URL): the bench watches the jobs
// end there, so that watching adds no requests to the API whose latency is measured.
const { url: databaseUrl, stop: stopPostgres } = await startBenchPostgres(
  'api-jobs',
  createLogger('error', 'bench'),
);
const watcher = new pg.Client({ connectionString: databaseUrl });
await watcher.connect();

async function measureLayout(layout: string): Promise<LayoutResult> {
  const [runWorker, threads] = layout.split(':');
  const server = await startBuiltServer({
    dataDirPrefix: 'mirra-bench-api-jobs-server-',
    settings: {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      RUN_WORKER: runWorker!,
      ...(threads === undefined ? {} : { IMAGING_THREADS: threads }),
      WEB_CONCURRENCY: '1',
      WELCOME_CREDITS: '100000',
      FREE_DAILY_PHOTOS: '1000000',
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
    await waitForAll(await generate(user, 0));
    await runLoad({ url, connections: CONNECTIONS, seconds: 1 }); // warm-up
    const idleLoad = () =>
      runLoad({ url, connections: CONNECTIONS, seconds: IDLE_SECONDS / 2, pauseMs: PAUSE_MS });
    const idleBefore = await idleLoad();

    const started = performance.now();
    const uuids: string[] = [];
    for (let i = 1; i <= JOBS; i++) uuids.push(...(await generate(user, i)));
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
      failed = await waitForAll(uuids);
    } finally {
      signal.stop();
    }
    const during = await duringLoad;
    const jobsSeconds = (performance.now() - started) / 1000;
    // Idle again after the jobs: the machine's own load drifts, and the idle side of the ratio
    // is the mean of before and after.
    const idle = meanOf(idleBefore, await idleLoad());
    return { layout, idle, during, jobsSeconds, failed };
  } catch (error) {
    console.error(server.output().slice(-4000));
    throw error;
  } finally {
    await server.stop();
  }
}

function meanOf(a: LoadResult, b: LoadResult): LoadResult {
  const mean = (x: number, y: number) => (x + y) / 2;
  return {
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
    seconds: a.seconds + b.seconds,
    rps: mean(a.rps, b.rps),
    p50Ms: mean(a.p50Ms, b.p50Ms),
    p99Ms: mean(a.p99Ms, b.p99Ms),
  };
}

/** The portrait (1024 px on the long side) and the painted square for the photo tools' jobs. */
const toolInputs =
  MODE === 'simple' || MODE === 'photo_pack'
    ? null
    : await (async () => {
        const faces = await loadTestFaces();
        const side = MODE === 'upscale' ? 512 : 1024;
        let photo = await sharp(faces.graceHopper).resize(side, side, { fit: 'inside' }).png().toBuffer();
        if (MODE === 'restore') {
          const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
          const aged = ageLikeOldPrint({ data, width: info.width, height: info.height });
          photo = await sharp(aged.image.data, {
            raw: { width: info.width, height: info.height, channels: 3 },
          })
            .png()
            .toBuffer();
        }
        const { width = 0, height = 0 } = await sharp(photo).metadata();
        const mask = await sharp({ create: { width, height, channels: 3, background: '#000000' } })
          .composite([
            {
              input: { create: { width: 100, height: 100, channels: 3, background: '#ffffff' } },
              left: 700,
              top: 170,
            },
          ])
          .png()
          .toBuffer();
        return { photo, mask };
      })();
/** Upload uuids of the portrait and the mask, per person (the bench signs up one per layout). */
const uploaded = new Map<string, { photo: string; mask: string }>();

async function upload(user: TestUser, data: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'photo.png');
  const response = await fetch(new URL('/api/uploads/', process.env.E2E_BASE_URL), {
    method: 'POST',
    headers: { authorization: `Bearer ${user.access}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { uuid: string }).uuid;
}

/** A trained digital model per person, for the photo packs (trained on the local engine). */
const trainedModels = new Map<string, string>();
async function trainedModel(user: TestUser): Promise<string> {
  const known = trainedModels.get(user.access);
  if (known) return known;
  const authorization = `Bearer ${user.access}`;
  const created = await callApi<{ uuid: string }>('/api/models/', {
    body: { name: 'Me', category: 'female' },
    authorization,
  });
  const uuid = created.body.uuid;
  const form = new FormData();
  for (const [index, photo] of (await makePhotoSet((await loadTestFaces()).astronaut, 15)).entries()) {
    form.append('files', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `me-${index}.jpg`);
  }
  const photos = await fetch(new URL(`/api/models/${uuid}/photos/`, process.env.E2E_BASE_URL), {
    method: 'POST',
    headers: { authorization },
    body: form,
  });
  if (photos.status !== 201) throw new Error(`model photos: ${photos.status} ${await photos.text()}`);
  await apiPassLiveCheck(user, uuid);
  const trained = await callApi(`/api/models/${uuid}/train/`, { body: {}, authorization });
  if (trained.status !== 202) throw new Error(`train: ${trained.status} ${JSON.stringify(trained.body)}`);
  for (let waited = 0; ; waited += 500) {
    const model = await callApi<{ status: number }>(`/api/models/${uuid}/`, { authorization });
    if (model.body.status === 100) break;
    if (waited > 180_000) throw new Error(`the model did not train: ${JSON.stringify(model.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  trainedModels.set(user.access, uuid);
  return uuid;
}

async function jobBody(user: TestUser, seed: number): Promise<Record<string, unknown>> {
  if (MODE === 'photo_pack') {
    return { mode: 'photo_pack', model_uuid: await trainedModel(user), settings: { pack: PHOTO_PACK }, seed };
  }
  if (!toolInputs) return { mode: 'simple', prompt: 'A lighthouse on a cliff at dusk, oil painting', seed };
  let uploads = uploaded.get(user.access);
  if (!uploads) {
    uploads = { photo: await upload(user, toolInputs.photo), mask: await upload(user, toolInputs.mask) };
    uploaded.set(user.access, uploads);
  }
  switch (MODE) {
    case 'background':
      return { mode: 'background', images: [uploads.photo], seed };
    case 'upscale':
      return { mode: 'upscale', images: [uploads.photo], settings: { scale: 4 }, seed };
    case 'restore':
      return { mode: 'restore', images: [uploads.photo], seed };
    case 'talking_photo':
      return {
        mode: 'talking_photo',
        images: [uploads.photo],
        prompt: TALKING_TEXT,
        settings: { language: 'en' },
        aspect: '9:16',
        seed,
      };
    default:
      return { mode: 'inpaint', images: [uploads.photo], settings: { mask: uploads.mask }, seed };
  }
}

/** Starts one job (a pack: all its pictures); the uuids of every generation it made. */
async function generate(user: TestUser, seed: number): Promise<string[]> {
  const created = await callApi<{ uuid: string; set: { uuid: string } | null }>('/api/generations/', {
    body: await jobBody(user, seed),
    authorization: `Bearer ${user.access}`,
  });
  if (created.status !== 201) throw new Error(`generate: ${created.status} ${JSON.stringify(created.body)}`);
  if (!created.body.set) return [created.body.uuid];
  const { rows } = await watcher.query<{ uuid: string }>('SELECT uuid FROM generations WHERE set_uuid = $1', [
    created.body.set.uuid,
  ]);
  return rows.map((row) => row.uuid);
}

/** Waits until every generation has ended (read from the database); resolves to how many failed. */
async function waitForAll(uuids: string[]): Promise<number> {
  const deadline = Date.now() + JOBS_TIMEOUT_MS;
  for (;;) {
    const { rows } = await watcher.query<{ status: number }>(
      'SELECT status FROM generations WHERE uuid = ANY($1::uuid[])',
      [uuids],
    );
    const ended = rows.filter((row) => ENDED.has(row.status));
    if (ended.length === uuids.length) return ended.filter((row) => row.status !== 100).length;
    if (Date.now() > deadline)
      throw new Error(`${uuids.length - ended.length} generations did not end in time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const results: LayoutResult[] = [];
try {
  for (let run = 1; run <= REPEATS; run++) {
    for (const layout of LAYOUTS) {
      console.log(`run ${run}/${REPEATS}, RUN_WORKER=${layout}…`);
      results.push(await measureLayout(layout));
    }
  }
} finally {
  await watcher.end();
  await stopPostgres();
}

const ms = (value: number) => value.toFixed(2).padStart(7);
console.log(
  `\nAPI latency (/api/config/, ${CONNECTIONS} connection${CONNECTIONS === 1 ? '' : 's'}) idle vs during ${JOBS} local generations (${MODE})`,
);
console.log(
  `${'layout'.padEnd(34)}${'idle p50'.padStart(9)}${'idle p99'.padStart(9)}${'jobs p50'.padStart(9)}${'jobs p99'.padStart(9)}${'p99 ratio'.padStart(10)}${'requests'.padStart(16)}${'jobs s'.padStart(8)}${'jobs/min'.padStart(9)}`,
);
const layoutName = (layout: string) => {
  const [runWorker, threads] = layout.split(':');
  const where =
    runWorker === 'inline' ? 'worker inline' : runWorker === 'true' ? 'worker own process' : runWorker!;
  const pool =
    threads === undefined
      ? 'pool default'
      : threads === '0'
        ? 'no pool'
        : `${threads} thread${threads === '1' ? '' : 's'}`;
  return `${where}, ${pool}`;
};
const ratioOf = (r: LayoutResult) => r.during.p99Ms / r.idle.p99Ms;
for (const r of results) {
  console.log(
    `${layoutName(r.layout).padEnd(34)}${ms(r.idle.p50Ms)}  ${ms(r.idle.p99Ms)}  ${ms(r.during.p50Ms)}  ${ms(r.during.p99Ms)}${ratioOf(r).toFixed(2).padStart(10)}${`${r.idle.requests}/${r.during.requests}`.padStart(16)}${r.jobsSeconds.toFixed(1).padStart(8)}${((JOBS / r.jobsSeconds) * 60).toFixed(1).padStart(9)}` +
      (r.failed > 0 ? `   ${r.failed} generations failed` : '') +
      (r.idle.errors + r.during.errors > 0 ? `   ${r.idle.errors + r.during.errors} request errors` : ''),
  );
}
console.log('');
for (const layout of LAYOUTS) {
  const ratios = results
    .filter((r) => r.layout === layout)
    .map(ratioOf)
    .sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)]!;
  const jobsPerMinute = results
    .filter((r) => r.layout === layout)
    .map((r) => (JOBS / r.jobsSeconds) * 60)
    .sort((a, b) => a - b);
  const withPool = !layout.endsWith(':0');
  const medianPerMinute = jobsPerMinute[Math.floor(jobsPerMinute.length / 2)]!;
  console.log(
    `${layoutName(layout).padEnd(34)} median p99 ratio ${median.toFixed(2)} of ${ratios.length} runs, median ${medianPerMinute.toFixed(1)} jobs/min (${(60 / medianPerMinute).toFixed(1)} s a job)` +
      (withPool ? `   ${median <= TARGET_RATIO ? 'OK' : 'ABOVE GOAL'} (goal ≤ ${TARGET_RATIO})` : ''),
  );
}
