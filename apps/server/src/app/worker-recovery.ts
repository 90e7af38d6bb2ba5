import {
  failOrphanedGenerations,
  requeueGenerationOfDeadRun,
  runGenerationJob,
} from '../modules/generations/index.js';
import { failOrphanedTraining, requeueTrainingOfDeadRun, trainModelJob } from '../modules/models/index.js';
import type { DbOrTx } from '../shared/db/client.js';
import {
  claimDeadWorkerPools,
  releaseDeadWorkerPools,
  type DeadPoolJob,
} from '../shared/job-worker-pools.js';
import type { AppDeps } from './deps.js';

/** How each job's state is put back before its unlocked job runs again; jobs without state need nothing. */
const requeueStateOfDeadRun: Record<string, (tx: DbOrTx, payload: unknown, at: Date) => Promise<void>> = {
  [runGenerationJob.name]: requeueGenerationOfDeadRun,
  [trainModelJob.name]: requeueTrainingOfDeadRun,
};

/** A job whose run died still runs again if it has attempts left (graphile counts a run when it starts). */
export const canRunAgain = (job: Pick<DeadPoolJob, 'attempts' | 'maxAttempts'>) =>
  job.attempts < job.maxAttempts;

/**
 * Work in progress on a worker that died (kill -9, out of memory, a lost machine) runs again at
 * once instead of waiting for the stale-work reconcilers: each dead pool's locked jobs are unlocked,
 * the generations and trainings they were running go back to the queue in the same transaction,
 * and then whatever is IN_PROGRESS with no job left to run it is failed and refunded, once.
 * Runs when a worker starts and every minute.
 */
export async function recoverWorkOfDeadWorkers(
  deps: AppDeps,
): Promise<{ deadPools: number; unlockedJobs: number; failed: number }> {
  const released = await deps.db.transaction(async (tx) => {
    const { poolIds, lockedJobs } = await claimDeadWorkerPools(tx);
    for (const job of lockedJobs) {
      // On its last attempt the job will not run again: its work is settled below as orphaned.
      if (canRunAgain(job)) await requeueStateOfDeadRun[job.taskIdentifier]?.(tx, job.payload, deps.now());
    }
    await releaseDeadWorkerPools(tx, poolIds);
    return { deadPools: poolIds.length, unlockedJobs: lockedJobs.length };
  });
  const failed = (await failOrphanedGenerations(deps)) + (await failOrphanedTraining(deps));
  if (released.deadPools) {
    deps.logger.warn(released, 'released the jobs of job workers that died');
  }
  return { ...released, failed };
}
