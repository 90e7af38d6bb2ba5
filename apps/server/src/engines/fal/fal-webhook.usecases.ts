import { and, eq, like } from 'drizzle-orm';
import type { AppDeps } from '../../app/deps.js';
import { generations, models } from '../../shared/db/schema.js';
import { EngineError } from '../../modules/generations/engines/engine.types.js';
import { finishProviderJob, type ProviderWebhookOutcome } from '../provider-webhook.usecases.js';
import { refusedBySafety } from './fal.models.js';

/** fal's webhook body (`WebHookResponse`): the result's payload, or an error and its details. */
export interface FalWebhookBody {
  request_id?: string;
  status?: string;
  error?: string;
  payload?: unknown;
  payload_error?: string;
}

export type FalWebhookOutcome = ProviderWebhookOutcome;

/** A verified fal webhook finishes the generation whose stored fal job it names (finishProviderJob). */
export async function handleFalWebhook(
  deps: AppDeps,
  requestId: string,
  body: FalWebhookBody,
): Promise<FalWebhookOutcome> {
  const generation = await deps.db.query.generations.findFirst({
    where: and(eq(generations.provider, 'fal'), like(generations.providerJobId, `${requestId} %`)),
  });
  if (!generation) {
    // A digital model's training: its worker polls fal until the LoRA is there; acknowledged.
    const training = await deps.db.query.models.findFirst({
      where: and(eq(models.trainingProvider, 'fal'), like(models.trainingJobId, `${requestId} %`)),
    });
    if (training) return 'already finished';
  }
  if (body.status === 'OK') return finishProviderJob(deps, 'fal', generation, { ok: true });
  const error = refusedBySafety(body.payload)
    ? new EngineError('engine.refused', body.error ?? 'refused', false)
    : new EngineError('engine.failed', body.error ?? body.payload_error ?? 'fal failed', true);
  return finishProviderJob(deps, 'fal', generation, { ok: false, error });
}
