import { sql } from 'drizzle-orm';
import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCreditChange, grantWelcomeCredits } from '../modules/credits/credits.usecases.js';
import { createEngineRegistry } from '../engines/index.js';
import { trainModelJob } from '../modules/models/models.jobs.definitions.js';
import { models } from '../shared/db/schema.js';
import { registerWorkerPool, WORKER_POOL_LOCK_NAMESPACE } from '../shared/job-worker-pools.js';
import { addJob } from '../shared/jobs.js';
import { bearer, createActiveUser, login } from '../test/factories.js';
import { createScriptedEngine } from '../test/fake-engines.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { canRunAgain, recoverWorkOfDeadWorkers } from './worker-recovery.js';

/**
 * Recovering the work of job workers that died, against the real database: a worker's death is a
 * registered pool whose advisory lock nobody holds; a live one holds it on a session of its own.
 * (worker-recovery.process.test.ts kills a real worker process.)
 */
const engine = createScriptedEngine('test');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'test',
      MODERATION_IMAGES: 'false',
      PRICE_SIMPLE: '2',
      FREE_DAILY_PHOTOS: '1000',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
    },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
});
afterAll(() => t.close());

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await t.deps.db.execute(query)).rows as T[];
}

/** A generation whose job `poolId` took on attempt `attempts` and which it was running. */
async function generationRunningOn(poolId: string, attempts = 1) {
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 10);
  const headers = bearer((await login(t, user.email!, user.password)).access);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/generations/',
    headers,
    payload: { mode: 'simple', prompt: 'a lighthouse at dusk' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const uuid: string = created.json().uuid;
  await t.deps.db.execute(
    sql`UPDATE generations SET status = ${GenerationStatus.IN_PROGRESS} WHERE uuid = ${uuid}`,
  );
  await t.deps.db.execute(
    sql`UPDATE graphile_worker._private_jobs SET locked_by = ${poolId}, locked_at = now(), attempts = ${attempts}
        WHERE payload->>'generationId' = (SELECT id::text FROM generations WHERE uuid = ${uuid})`,
  );
  return { userId: user.id, uuid };
}

/** A model in its first training attempt (5 credits charged), whose job `poolId` took on attempt `attempts`. */
async function trainingRunningOn(poolId: string, attempts: number) {
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 10);
  const [model] = await t.deps.db
    .insert(models)
    .values({
      userId: user.id,
      name: 'Me',
      category: 'female',
      status: GenerationStatus.IN_PROGRESS,
      trainingAttempt: 1,
      cost: 5,
    })
    .returning();
  await applyCreditChange(t.deps.db, {
    userId: user.id,
    delta: -5,
    kind: 'model_training_charge',
    ref: model!.uuid,
    idempotencyKey: `model:${model!.uuid}:train:1:charge`,
  });
  await addJob(t.deps.db, trainModelJob, { modelId: model!.id, attempt: 1 });
  await t.deps.db.execute(
    sql`UPDATE graphile_worker._private_jobs SET locked_by = ${poolId}, locked_at = now(), attempts = ${attempts}
        WHERE payload->>'modelId' = ${String(model!.id)}`,
  );
  return { userId: user.id, uuid: model!.uuid };
}

/** A pool that started and registered, and whose process is gone: nobody holds its lock. */
async function deadPool(poolId: string) {
  await t.deps.db.execute(sql`INSERT INTO job_worker_pools (pool_id) VALUES (${poolId})`);
  return poolId;
}

const statusOf = async (uuid: string) =>
  (await rows<{ status: number }>(sql`SELECT status FROM generations WHERE uuid = ${uuid}`))[0]!.status;
const refundsOf = async (uuid: string) =>
  (
    await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM credit_entries WHERE ref = ${uuid} AND kind = 'generation_refund'`,
    )
  )[0]!.n;
const jobOf = async (uuid: string) =>
  (
    await rows<{ locked_by: string | null }>(
      sql`SELECT job.locked_by FROM graphile_worker._private_jobs AS job
          WHERE job.payload->>'generationId' = (SELECT id::text FROM generations WHERE uuid = ${uuid})`,
    )
  )[0];

describe('the work of a job worker that died', () => {
  it('is unlocked and back in the queue at once, and the rerun completes it, charged once', async () => {
    const pool = await deadPool('pool-dead-requeue');
    const generation = await generationRunningOn(pool);

    const recovered = await recoverWorkOfDeadWorkers(t.deps);
    expect(recovered).toMatchObject({ deadPools: 1, unlockedJobs: 1, failed: 0 });
    expect(await statusOf(generation.uuid)).toBe(GenerationStatus.IN_QUEUE);
    expect((await jobOf(generation.uuid))?.locked_by).toBeNull();
    expect(await rows(sql`SELECT 1 FROM job_worker_pools WHERE pool_id = ${pool}`)).toEqual([]);

    await t.runJobs();
    expect(await statusOf(generation.uuid)).toBe(GenerationStatus.COMPLETED);
    expect(await refundsOf(generation.uuid)).toBe(0);
  });

  it('on the job’s last attempt is failed and refunded exactly once, however often recovery runs', async () => {
    const pool = await deadPool('pool-dead-last-attempt');
    const generation = await generationRunningOn(pool, 3);

    expect(await recoverWorkOfDeadWorkers(t.deps)).toMatchObject({ deadPools: 1, failed: 1 });
    expect(await recoverWorkOfDeadWorkers(t.deps)).toMatchObject({ deadPools: 0, failed: 0 });
    expect(await statusOf(generation.uuid)).toBe(GenerationStatus.FAILED);
    expect(await refundsOf(generation.uuid)).toBe(1);
  });

  it('with its job gone, is failed and refunded exactly once', async () => {
    const generation = await generationRunningOn('pool-of-a-job-that-ended');
    await t.deps.db.execute(
      sql`DELETE FROM graphile_worker._private_jobs
          WHERE payload->>'generationId' = (SELECT id::text FROM generations WHERE uuid = ${generation.uuid})`,
    );

    await recoverWorkOfDeadWorkers(t.deps);
    await recoverWorkOfDeadWorkers(t.deps);
    expect(await statusOf(generation.uuid)).toBe(GenerationStatus.FAILED);
    expect(await refundsOf(generation.uuid)).toBe(1);
  });
});

describe('a training whose worker died', () => {
  it('goes back to the queue for its attempt while its job has attempts left; on the last it is failed and refunded once', async () => {
    const pool = await deadPool('pool-dead-training');
    const again = await trainingRunningOn(pool, 1);
    const last = await trainingRunningOn(pool, 3);

    expect(await recoverWorkOfDeadWorkers(t.deps)).toMatchObject({
      deadPools: 1,
      unlockedJobs: 2,
      failed: 1,
    });
    await recoverWorkOfDeadWorkers(t.deps);
    const modelStatus = async (uuid: string) =>
      (await rows<{ status: number }>(sql`SELECT status FROM models WHERE uuid = ${uuid}`))[0]!.status;
    expect(await modelStatus(again.uuid)).toBe(GenerationStatus.IN_QUEUE);
    expect(await modelStatus(last.uuid)).toBe(GenerationStatus.FAILED);
    const balances = await rows<{ ref: string; refunds: number; balance: number; ledger: number }>(
      sql`SELECT model.uuid::text AS ref,
            (SELECT count(*)::int FROM credit_entries AS entry
              WHERE entry.ref = model.uuid::text AND entry.kind = 'model_training_refund') AS refunds,
            account.balance,
            (SELECT sum(delta)::int FROM credit_entries AS entry WHERE entry.user_id = model.user_id) AS ledger
          FROM models AS model JOIN credit_accounts AS account ON account.user_id = model.user_id
          WHERE model.uuid IN (${again.uuid}, ${last.uuid})`,
    );
    expect(balances).toHaveLength(2);
    for (const row of balances) {
      expect(row.refunds).toBe(row.ref === last.uuid ? 1 : 0);
      expect(row.balance).toBe(row.ref === last.uuid ? 10 : 5);
      expect(row.ledger).toBe(row.balance);
    }
  });
});

describe('the work of a live job worker', () => {
  it('is left alone while its pool holds its lock, and recovered once the lock is gone', async () => {
    const lost: Error[] = [];
    const registration = await registerWorkerPool(t.connectionString, 'pool-live', (error) =>
      lost.push(error),
    );
    const generation = await generationRunningOn('pool-live');

    expect(await recoverWorkOfDeadWorkers(t.deps)).toMatchObject({ deadPools: 0, failed: 0 });
    expect(await statusOf(generation.uuid)).toBe(GenerationStatus.IN_PROGRESS);
    expect((await jobOf(generation.uuid))?.locked_by).toBe('pool-live');

    // Its session ends without deregistering (the process died): the lock goes with it.
    await t.deps.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_locks
          WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND classid = ${WORKER_POOL_LOCK_NAMESPACE} AND objid = (SELECT id FROM job_worker_pools WHERE pool_id = 'pool-live')`,
    );
    await expect.poll(() => lost.length).toBe(1);
    expect(await recoverWorkOfDeadWorkers(t.deps)).toMatchObject({ deadPools: 1, unlockedJobs: 1 });
    expect(await statusOf(generation.uuid)).toBe(GenerationStatus.IN_QUEUE);
    await registration.release();
  });
});

describe('a job whose run died', () => {
  it('runs again only with attempts left (graphile counts a run when it starts)', () => {
    expect(canRunAgain({ attempts: 1, maxAttempts: 3 })).toBe(true);
    expect(canRunAgain({ attempts: 3, maxAttempts: 3 })).toBe(false);
  });
});
