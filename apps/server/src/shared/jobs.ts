import { sql } from 'drizzle-orm';
import type { Task } from 'graphile-worker';
import type { z } from 'zod';
import type { DbOrTx } from './db/client.js';

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
      payload => ${JSON.stringify(checked)}::json,
      run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
      max_attempts => ${options.maxAttempts ?? job.maxAttempts},
      job_key => ${options.jobKey ?? null}
    )`,
  );
}

export interface JobRun {
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
}

export type JobHandler<TPayload> = (payload: TPayload, run: JobRun) => Promise<void>;

/** Pairs a definition with its handler into a graphile-worker task that validates its payload. */
export function toTask<TPayload>(job: JobDefinition<TPayload>, handler: JobHandler<TPayload>): Task {
  return async (rawPayload, helpers) => {
    await handler(job.payload.parse(rawPayload), {
      attempt: helpers.job.attempts,
      maxAttempts: helpers.job.max_attempts,
    });
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
