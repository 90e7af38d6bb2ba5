import { GenerationStatus, isTerminalStatus } from '@mirra/contracts';
import type { AppDeps } from '../app/deps.js';
import { EngineError } from '../modules/generations/engines/engine.types.js';
import { engineFailureOutcome, finishGeneration } from '../modules/generations/generations.jobs.js';
import { generationsRepository, type GenerationRow } from '../modules/generations/generations.repository.js';
import { failGeneration } from '../modules/generations/generations.usecases.js';

export type ProviderWebhookOutcome = 'finished' | 'already finished' | 'unknown request';

/**
 * A verified provider webhook finishes the generation whose stored job it names, as the polling
 * worker would: a success → the result is fetched from the provider's API (never taken from the
 * delivery) and stored (moderation, variants); a failure → failed and refunded (a safety refusal
 * as moderated). Duplicates and late deliveries after the end change nothing: completing and
 * failing are conditional, and the refund has its idempotency key.
 */
export async function finishProviderJob(
  deps: AppDeps,
  provider: string,
  generation: GenerationRow | undefined,
  outcome: { ok: true } | { ok: false; error: EngineError },
): Promise<ProviderWebhookOutcome> {
  if (!generation) return 'unknown request';
  if (isTerminalStatus(generation.status)) return 'already finished';
  if (!outcome.ok) {
    await failGeneration(deps, generation, engineFailureOutcome(outcome.error));
    return 'finished';
  }
  const engine = deps.engines.byName(provider);
  if (!engine?.fetchResult) throw new Error(`The ${provider} engine is not configured.`);
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
