import { GenerationStatus } from '@mirra/contracts';
import type { ModelTrainingStore, ProviderTrainingOutcome } from '../../engines/index.js';
import type { ModelsDeps } from './models.deps.js';
import { isTraining } from './models.models.js';
import { modelsRepository } from './models.repository.js';
import { completeTraining, failTraining } from './model-training.usecases.js';
import {
  loraTriggerWord,
  providerTrainingFailure,
  storedLocalTraining,
} from './model-training-run.usecases.js';

/**
 * A provider's webhook says the training it names has ended: its trainer's own status read says
 * how, and the digital model is completed (the LoRA beside the local profile) or failed and
 * refunded, as the polling worker would. Completing and failing are conditional on the training
 * attempt, so whichever of the webhook and the worker comes second changes nothing: one
 * completion, one notification, at most one refund. A model whose worker died (back in the queue)
 * is claimed first, and handed back to the queue if this delivery cannot finish it.
 */
export async function finishProviderTraining(
  deps: ModelsDeps,
  job: { provider: string; jobIdPrefix: string },
): Promise<ProviderTrainingOutcome> {
  const found = await modelsRepository.findByTrainingJob(deps.db, job.provider, job.jobIdPrefix);
  if (!found?.trainingJobId) return 'unknown request';
  if (!isTraining(found.status)) return 'already finished';
  const trainer = deps.modelTrainers.find((one) => one.name === job.provider);
  if (!trainer) throw new Error(`The ${job.provider} trainer is not configured.`);
  const attempt = { attempt: found.trainingAttempt };
  const claimed =
    found.status === GenerationStatus.IN_PROGRESS
      ? found
      : await modelsRepository.transition(
          deps.db,
          found.id,
          deps.now(),
          GenerationStatus.IN_PROGRESS,
          {},
          attempt,
        );
  if (!claimed) return 'already finished';
  const model = { ...found, ...claimed };
  try {
    const signal = AbortSignal.timeout(60_000);
    const polled = await trainer.poll(model.trainingJobId!, signal);
    if (polled.kind === 'running') throw new Error(`The ${job.provider} training has not ended yet.`);
    if (polled.kind === 'failed') {
      const ended = await failTraining(deps, model, {
        status: GenerationStatus.ERROR,
        ...providerTrainingFailure(polled.refused),
      });
      return ended ? 'finished' : 'already finished';
    }
    const local = await storedLocalTraining(deps, model);
    const completed = await completeTraining(deps, model, {
      ...local,
      providerLoras: {
        [trainer.name]: {
          url: polled.loraUrl,
          triggerWord: loraTriggerWord(model.uuid),
          costUsd: polled.costUsd,
        },
      },
    });
    return completed ? 'finished' : 'already finished';
  } catch (error) {
    if (claimed !== found) {
      await modelsRepository.transition(
        deps.db,
        model.id,
        deps.now(),
        GenerationStatus.IN_QUEUE,
        {},
        attempt,
      );
    }
    throw error; // the provider delivers the webhook again; the polling worker may finish it first
  }
}

/** The digital models a trainer's webhook finishes (the engines' port onto this module). */
export function createModelTrainingStore(deps: ModelsDeps): ModelTrainingStore {
  return { finishProviderTraining: (job) => finishProviderTraining(deps, job) };
}
