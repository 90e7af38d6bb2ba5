import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantWelcomeCredits } from '../modules/credits/credits.usecases.js';
import { bearer, createActiveUser, login } from '../test/factories.js';
import { astronautPhotos, passLiveCheck, uploadModelPhotos } from '../test/models.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * A job worker killed with `kill -9` in the middle of generations and a training: the next worker
 * to start finishes that work (or fails and refunds it, once) within a minute, instead of it
 * waiting IN_PROGRESS with the credits held for the reconcilers' 10 and 30 minutes.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const env = {
  WELCOME_CREDITS: '0',
  PRICE_SIMPLE: '2',
  PRICE_MODEL_TRAINING: '5',
  FREE_DAILY_PHOTOS: '1000',
  MODEL_MIN_PHOTOS: '3',
  MODERATION_IMAGES: 'false',
  RATE_LIMIT_LOGIN_PER_IP: '1000',
};

interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

let t: TestApp;
const started: WorkerProcess[] = [];
beforeAll(async () => {
  t = await createTestApp({ env });
});
afterAll(async () => {
  for (const worker of started) {
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  }
  await t.close();
});

/** A worker process on the test app's database and data folder, ready once it says so. */
async function startWorker(entry: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: serverDir,
    env: {
      ...process.env,
      ...env,
      ...t.storageEnv,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: t.connectionString,
      DATA_DIR: t.deps.config.dataDir,
      WORKER_CONCURRENCY: '4',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const worker = { child, exited, output: () => output };
  started.push(worker);
  await waitFor(`the worker to start (${entry})`, () => {
    if (child.exitCode !== null) throw new Error(`the worker exited early:\n${output}`);
    return output.includes('Mirra worker is running');
  });
  return worker;
}

/** Polls until `isDone` holds; after 60 s fails with what it was waiting for and `explain()`. */
async function waitFor(
  what: string,
  isDone: () => boolean | Promise<boolean>,
  explain: () => string | Promise<string> = () => '',
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await isDone())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}\n${await explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function query<T>(text: ReturnType<typeof sql>): Promise<T[]> {
  return (await t.deps.db.execute(text)).rows as T[];
}

const statusesOf = (uuids: string[]) =>
  query<{ uuid: string; status: number }>(
    sql`SELECT uuid::text, status FROM generations WHERE uuid::text = ANY(${sql.param(uuids)}::text[])
        UNION ALL SELECT uuid::text, status FROM models WHERE uuid::text = ANY(${sql.param(uuids)}::text[])`,
  );

const isTerminal = (status: number) =>
  status === GenerationStatus.COMPLETED ||
  status === GenerationStatus.ERROR ||
  status === GenerationStatus.FAILED;

describe('a job worker killed mid-job', () => {
  it('leaves its generations and training to the next worker at once: each completes or is refunded once, and the ledger adds up', async () => {
    const user = await createActiveUser(t);
    await grantWelcomeCredits(t.deps.db, user.id, 20);
    const headers = bearer((await login(t, user.email!, user.password)).access);

    const generationUuids: string[] = [];
    for (const prompt of ['a lighthouse at dusk', 'a fox in the snow']) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/generations/',
        headers,
        payload: { mode: 'simple', prompt, seed: 7 },
      });
      expect(created.statusCode, created.body).toBe(201);
      generationUuids.push(created.json().uuid);
    }
    const model = await t.app.inject({
      method: 'POST',
      url: '/api/models/',
      headers,
      payload: { name: 'Me', category: 'female' },
    });
    expect(model.statusCode, model.body).toBe(201);
    const modelUuid: string = model.json().uuid;
    const photos = (await astronautPhotos()).slice(0, 3).map((data) => ({ data }));
    const uploaded = await uploadModelPhotos(t, headers, modelUuid, photos);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    await passLiveCheck(t, modelUuid);
    const train = await t.app.inject({ method: 'POST', url: `/api/models/${modelUuid}/train/`, headers });
    expect(train.statusCode, train.body).toBe(202);
    const uuids = [...generationUuids, modelUuid];

    // A worker whose engine and training never finish takes all three jobs, then dies.
    const first = await startWorker('src/test/stalling-worker.ts');
    await waitFor(
      'all work to be IN_PROGRESS on the first worker',
      async () => {
        const rows = await statusesOf(uuids);
        return rows.length === 3 && rows.every((row) => row.status === GenerationStatus.IN_PROGRESS);
      },
      async () => JSON.stringify(await statusesOf(uuids)) + first.output(),
    );
    first.child.kill('SIGKILL');
    await first.exited;

    // The next worker starts; nothing else (no reconciler, no 4-hour unlock) could act within a minute.
    const second = await startWorker('src/main.worker.ts');
    // Released while starting, not by a later cron run.
    expect(second.output()).toMatch(
      /"deadPools":1,"unlockedJobs":\d+[^\n]*released the jobs of job workers that died[\s\S]*Mirra worker is running/,
    );
    await waitFor(
      'all work to end on the second worker',
      async () => (await statusesOf(uuids)).every((row) => isTerminal(row.status)),
      async () => JSON.stringify(await statusesOf(uuids)) + second.output(),
    );

    const refunds = await query<{ ref: string; n: number }>(
      sql`SELECT ref, count(*)::int AS n FROM credit_entries
          WHERE user_id = ${user.id} AND kind LIKE '%refund' GROUP BY ref`,
    );
    const refundsOf = (uuid: string) => refunds.find((row) => row.ref === uuid)?.n ?? 0;
    for (const row of await statusesOf(uuids)) {
      expect(refundsOf(row.uuid), `refund entries of ${row.uuid} (status ${row.status})`).toBe(
        row.status === GenerationStatus.COMPLETED ? 0 : 1,
      );
    }
    // The rerun had attempts left, so it did the work rather than giving up on it.
    expect((await statusesOf(uuids)).map((row) => row.status)).toEqual([
      GenerationStatus.COMPLETED,
      GenerationStatus.COMPLETED,
      GenerationStatus.COMPLETED,
    ]);

    const mismatches = await query<{ user_id: number }>(
      sql`SELECT account.user_id FROM credit_accounts AS account
          LEFT JOIN (SELECT user_id, sum(delta)::int AS total FROM credit_entries GROUP BY user_id) AS ledger
            ON ledger.user_id = account.user_id
          WHERE account.balance <> coalesce(ledger.total, 0)`,
    );
    expect(mismatches).toEqual([]);
    // 20 granted, 2 + 2 + 5 spent on work that completed.
    const [account] = await query<{ balance: number }>(
      sql`SELECT balance FROM credit_accounts WHERE user_id = ${user.id}`,
    );
    expect(account!.balance).toBe(11);

    // Only the live worker is registered; nothing is left locked by the dead one.
    const pools = await query<{ pool_id: string }>(sql`SELECT pool_id FROM job_worker_pools`);
    expect(pools).toHaveLength(1);
    const locked = await query<{ locked_by: string }>(
      sql`SELECT locked_by FROM graphile_worker.jobs WHERE locked_by IS NOT NULL AND locked_by <> ${pools[0]!.pool_id}`,
    );
    expect(locked).toEqual([]);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(await query(sql`SELECT pool_id FROM job_worker_pools`)).toEqual([]);
  }, 150_000);
});
