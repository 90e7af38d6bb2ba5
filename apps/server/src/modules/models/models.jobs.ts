import type { ModelsDeps } from './models.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { toTask } from '../../shared/jobs.js';
import { modelsRepository } from './models.repository.js';
import { reconcileStuckTraining, runModelTraining } from './model-training-run.usecases.js';
import { trainModelJob } from './models.jobs.definitions.js';

/**
 * The run of a `models:train` job died with its worker and the job is about to run again: that
 * training attempt goes back to the queue so the rerun claims it (a claim takes only IN_QUEUE).
 */
export async function requeueTrainingOfDeadRun(tx: DbOrTx, payload: unknown, at: Date): Promise<void> {
  const parsed = trainModelJob.payload.safeParse(payload);
  if (parsed.success) {
    await modelsRepository.requeueInProgress(tx, parsed.data.modelId, parsed.data.attempt, at);
  }
}

export function modelsJobHandlers(deps: ModelsDeps) {
  return {
    [trainModelJob.name]: toTask(trainModelJob, ({ modelId, attempt }, run) =>
      runModelTraining(deps, modelId, attempt, run),
    ),
    'models:reconcile': async () => {
      await reconcileStuckTraining(deps);
    },
  };
}
