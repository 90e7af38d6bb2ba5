import type { GenerationsDeps } from './generations.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { toTask } from '../../shared/jobs.js';
import { generationsRepository } from './generations.repository.js';
import { reconcileStuckGenerations } from './generation-finish.usecases.js';
import { runGeneration } from './generation-run.usecases.js';
import { runGenerationJob } from './generations.jobs.definitions.js';

/**
 * The run of a `generations:run` job died with its worker and the job is about to run again: the
 * generation goes back to the queue so the rerun claims it (a claim takes only NEW/IN_QUEUE).
 */
export async function requeueGenerationOfDeadRun(tx: DbOrTx, payload: unknown, at: Date): Promise<void> {
  const parsed = runGenerationJob.payload.safeParse(payload);
  if (parsed.success) await generationsRepository.requeueInProgress(tx, parsed.data.generationId, at);
}

export function generationsJobHandlers(deps: GenerationsDeps) {
  return {
    [runGenerationJob.name]: toTask(runGenerationJob, ({ generationId }, run) =>
      runGeneration(deps, generationId, run),
    ),
    'generations:reconcile': async () => {
      await reconcileStuckGenerations(deps);
    },
  };
}
