import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Tx } from './db/client.js';
import { jobsWithPayload } from './jobs.js';

/**
 * Which job worker pools are alive. graphile-worker writes its pool id into the locked_by of
 * every job the pool takes, and after a `kill -9` those jobs stay locked until graphile's own
 * 4-hour unlock. Each pool therefore registers a row here and holds, on a session of its own, a
 * session advisory lock on (WORKER_POOL_LOCK_NAMESPACE, row id). PostgreSQL ends a session, and
 * its locks, as soon as the client process dies, so a registered pool whose lock can be taken is
 * certainly dead: nothing of it is still running.
 *
 * Jobs locked by a pool that never registered (it died in the milliseconds between starting and
 * registering) are not touched here: graphile's unlock and the stale-work reconcilers cover them.
 */
export const WORKER_POOL_LOCK_NAMESPACE = 0x4d697272; // "Mirr", apart from the migration lock

export interface WorkerPoolRegistration {
  /** Deregisters and closes the liveness session (a clean stop). */
  release(): Promise<void>;
}

/**
 * Registers a live pool and holds its lock until `release()` or the process's end. `onLost` is
 * told when the liveness session ends by itself: from then on the pool looks dead to the others,
 * who may run its jobs again.
 */
export async function registerWorkerPool(
  connectionString: string,
  poolId: string,
  onLost: (error: Error) => void,
): Promise<WorkerPoolRegistration> {
  // Keep-alive: an idle-connection reaper between here and PostgreSQL must not end the session.
  const client = new pg.Client({ connectionString, keepAlive: true });
  let isReleasing = false;
  const lost = (error: Error) => {
    if (isReleasing) return;
    isReleasing = true;
    onLost(error);
  };
  client.on('error', lost);
  client.on('end', () => lost(new Error('the worker pool liveness session closed')));
  await client.connect();
  try {
    // The row becomes visible to others only with the lock already held: never a live pool that
    // looks dead.
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: number }>(
      'INSERT INTO job_worker_pools (pool_id) VALUES ($1) RETURNING id',
      [poolId],
    );
    const id = rows[0]!.id;
    await client.query('SELECT pg_advisory_lock($1, $2)', [WORKER_POOL_LOCK_NAMESPACE, id]);
    await client.query('COMMIT');
    return {
      async release() {
        if (isReleasing) return;
        isReleasing = true;
        await client.query('DELETE FROM job_worker_pools WHERE id = $1', [id]).catch(() => {});
        await client.end().catch(() => {});
      },
    };
  } catch (error) {
    isReleasing = true;
    await client.end().catch(() => {});
    throw error;
  }
}

export interface DeadPoolJob {
  id: number;
  taskIdentifier: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

/**
 * Takes the registered pools that are dead, with the jobs they still had locked. Each dead pool's
 * advisory lock is held by this transaction until it ends, so two workers recovering at once
 * never handle the same pool twice.
 */
export async function claimDeadWorkerPools(
  tx: Tx,
): Promise<{ poolIds: string[]; lockedJobs: DeadPoolJob[] }> {
  const pools = await tx.execute<{ pool_id: string }>(
    sql`SELECT pool_id FROM job_worker_pools
        WHERE pg_try_advisory_xact_lock(${WORKER_POOL_LOCK_NAMESPACE}::int, id)
        FOR UPDATE SKIP LOCKED`,
  );
  const poolIds = pools.rows.map((row) => row.pool_id);
  if (poolIds.length === 0) return { poolIds, lockedJobs: [] };
  const jobs = await tx.execute<{
    id: string;
    task_identifier: string;
    payload: unknown;
    attempts: number;
    max_attempts: number;
  }>(
    sql`SELECT id, task_identifier, payload, attempts, max_attempts FROM ${jobsWithPayload} AS job
        WHERE locked_by = ANY(${sql.param(poolIds)}::text[])`,
  );
  return {
    poolIds,
    lockedJobs: jobs.rows.map((row) => ({
      id: Number(row.id),
      taskIdentifier: row.task_identifier,
      payload: row.payload,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
    })),
  };
}

/**
 * Unlocks the dead pools' jobs so any worker takes them at once (each keeps its attempt count, so
 * a job that kills its worker every time still ends after its last attempt) and forgets the pools.
 */
export async function releaseDeadWorkerPools(tx: Tx, poolIds: string[]): Promise<void> {
  if (poolIds.length === 0) return;
  await tx.execute(sql`SELECT graphile_worker.force_unlock_workers(${sql.param(poolIds)}::text[])`);
  await tx.execute(sql`DELETE FROM job_worker_pools WHERE pool_id = ANY(${sql.param(poolIds)}::text[])`);
}
