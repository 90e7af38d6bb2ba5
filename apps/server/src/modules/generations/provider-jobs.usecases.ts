import { GenerationStatus, isTerminalStatus } from '@mirra/contracts';
import {
  EngineError,
  type GenerationStore,
  type ProviderJobEnding,
  type ProviderJobOutcome,
} from '../../engines/index.js';
import type { GenerationsDeps } from './generations.deps.js';
import { engineFailureOutcome, finishGeneration } from './generation-finish.usecases.js';
import { generationsRepository } from './generations.repository.js';
import { failGeneration } from './generations.usecases.js';

/**
 * A provider's webhook finishes the generation whose stored job it names, as the polling worker
 * would: done → the result is fetched and stored (moderation, variants); failed → failed and
 * refunded (a safety refusal as moderated). Duplicates and late deliveries after the end change
 * nothing: completing and failing are conditional, and the refund has its idempotency key.
 */
export async function finishProviderJob(
  deps: GenerationsDeps,
  job: { provider: string; providerJobIdPrefix: string },
  ending: ProviderJobEnding,
): Promise<ProviderJobOutcome> {
  const generation = await generationsRepository.findByProviderJob(
    deps.db,
    job.provider,
    job.providerJobIdPrefix,
  );
  if (!generation) return 'unknown request';
  if (isTerminalStatus(generation.status)) return 'already finished';
  if (ending.kind === 'failed') {
    await failGeneration(deps, generation, engineFailureOutcome(ending.error));
    return 'finished';
  }
  const engine = deps.engines.byName(job.provider);
  if (!engine?.fetchResult) throw new Error(`The ${job.provider} engine is not configured.`);
  // Completing takes a generation in progress: one whose worker run died (back in the queue) is
  // claimed first, and handed back to the queue if this delivery cannot finish it.
  const claimed =
    generation.status === GenerationStatus.IN_PROGRESS
      ? generation
      : await generationsRepository.transition(
          deps.db,
          generation.id,
          deps.now(),
          GenerationStatus.IN_PROGRESS,
        );
  if (!claimed) return 'already finished';
  try {
    const output = await engine.fetchResult(claimed.providerJobId!, {
      signal: AbortSignal.timeout(deps.config.generationTimeoutSeconds * 1000),
      onProgress: () => undefined,
    });
    await finishGeneration(deps, claimed, output, 'webhook');
  } catch (error) {
    if (error instanceof EngineError && !error.retryable) {
      await failGeneration(deps, claimed, engineFailureOutcome(error));
      return 'finished';
    }
    if (claimed !== generation) {
      await generationsRepository.transition(deps.db, generation.id, deps.now(), GenerationStatus.IN_QUEUE);
    }
    throw error; // the provider delivers the webhook again; the polling worker may finish it first
  }
  return 'finished';
}

/** The generations an engine's webhook finishes (the engines' port onto this module). */
export function createGenerationStore(deps: GenerationsDeps): GenerationStore {
  return { finishProviderJob: (job, ending) => finishProviderJob(deps, job, ending) };
}
