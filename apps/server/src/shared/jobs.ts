import { sql } from 'drizzle-orm';
import type { Task } from 'graphile-worker';
import type { z } from 'zod';
import type { DbOrTx } from './db/client.js';
import { currentRequestContext, JOB_REQUEST_ID_FIELD, runWithRequestContext } from './request-context.js';

/**
 * A background job: its name, payload schema and retry policy, beside the handler that runs it.
 * Jobs are added with SQL inside the transaction that changed state, so a crash can never leave
 * state changed without its job, or a job without its state.
 */
export interface JobDefinition<TPayload> {
  name: string;
  payload: z.ZodType<TPayload>;
  maxAttempts: number;
}

export function defineJob<TPayload>(definition: JobDefinition<TPayload>): JobDefinition<TPayload> {
  return definition;
}

export interface AddJobOptions {
  /** Replaces a pending job with the same key instead of adding a second one. */
  jobKey?: string;
  runAt?: Date;
  /** Overrides the definition's attempts (e.g. from configuration). */
  maxAttempts?: number;
  /** Lower runs first (graphile-worker's order); 0 by default. */
  priority?: number;
}

export async function addJob<TPayload>(
  tx: DbOrTx,
  job: JobDefinition<TPayload>,
  payload: TPayload,
  options: AddJobOptions = {},
): Promise<void> {
  const checked = job.payload.parse(payload);
  await tx.execute(
    sql`SELECT graphile_worker.add_job(
      identifier => ${job.name},
      payload => ${JSON.stringify(withRequestId(checked))}::json,
      run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
      max_attempts => ${options.maxAttempts ?? job.maxAttempts},
      job_key => ${options.jobKey ?? null},
      priority => ${options.priority ?? null}::int
    )`,
  );
}

export interface JobRun {
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
}

export type JobHandler<TPayload> = (payload: TPayload, run: JobRun) => Promise<void>;

/**
 * The fields every job added now carries besides its own payload (the request's id), for jobs
 * added by SQL functions that complete the payload themselves.
 */
export function jobContextFields(): Record<string, string> {
  return withRequestId({}) as Record<string, string>;
}

/** A job added during a request carries the request's id, so its log lines can be found with it. */
function withRequestId(payload: unknown): unknown {
  const requestId = currentRequestContext()?.requestId;
  if (!requestId || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  return { ...payload, [JOB_REQUEST_ID_FIELD]: requestId };
}

/** The request id a job's payload carries (see withRequestId), if any. */
export function requestIdOfJob(rawPayload: unknown): string | undefined {
  const value = (rawPayload as Record<string, unknown> | null)?.[JOB_REQUEST_ID_FIELD];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Pairs a definition with its handler into a graphile-worker task that validates its payload. The
 * handler runs in the context of the request that added the job, so its log lines carry that id.
 */
export function toTask<TPayload>(job: JobDefinition<TPayload>, handler: JobHandler<TPayload>): Task {
  return async (rawPayload, helpers) => {
    const run = () =>
      handler(job.payload.parse(rawPayload), {
        attempt: helpers.job.attempts,
        maxAttempts: helpers.job.max_attempts,
      });
    const requestId = requestIdOfJob(rawPayload);
    await (requestId ? runWithRequestContext({ requestId, kind: 'job' }, run) : run());
  };
}

/**
 * graphile-worker's jobs with their payloads, as a subquery. Its public `jobs` view leaves the
 * payload out, and finding the job that is about a given generation or model needs it.
 */
export const jobsWithPayload = sql`(
  SELECT job.id, task.identifier AS task_identifier, job.payload, job.attempts, job.max_attempts,
         job.locked_at, job.locked_by
  FROM graphile_worker._private_jobs AS job
  JOIN graphile_worker._private_tasks AS task ON task.id = job.task_id
)`;
