import { routes } from '@mirra/contracts';
import type { FastifyInstance } from 'fastify';
import type { SharedDeps } from '../../shared/deps.js';
import { AppError } from '../../shared/errors.js';
import { countingWebhookErrors } from '../../shared/metrics.js';
import type { GenerationStore } from '../engine.types.js';
import type { ModelTrainingStore } from '../trainer.types.js';
import { serve } from '../../shared/http/serve-route.js';
import { createReplicateApi } from './replicate.api.js';
import { predictionFailure, verifyReplicateWebhook, type ReplicatePrediction } from './replicate.models.js';

export const REPLICATE_WEBHOOK_PATH = routes.engines.replicateWebhook.path;

/** What Replicate's webhook needs: its settings, the clock, and the generations and trainings it may finish. */
export interface ReplicateWebhookDeps extends Pick<SharedDeps, 'config' | 'now'> {
  generations: GenerationStore;
  trainings: ModelTrainingStore;
}

/**
 * Replicate's webhook: the raw body is kept to check its Standard Webhooks signature (HMAC-SHA256
 * with the account's secret, five minutes' tolerance) before anything is read from it. The secret
 * is REPLICATE_WEBHOOK_SECRET, or read once from `GET /v1/webhooks/default/secret`. A delivery
 * finishes the generation (prediction) or the digital model's training it names, once. Registered only
 * when the Replicate engine is configured.
 */
export async function registerReplicateWebhookRoutes(
  app: FastifyInstance,
  deps: ReplicateWebhookDeps,
): Promise<void> {
  const replicate = deps.config.replicate;
  if (!replicate) return;
  let secret: Promise<string> | null = replicate.webhookSecret
    ? Promise.resolve(replicate.webhookSecret)
    : null;
  const files = createReplicateApi(replicate);
  const webhookSecret = () => {
    secret ??= fetch(`${replicate.baseUrl}/webhooks/default/secret`, {
      headers: { authorization: `Bearer ${replicate.token}` },
      signal: AbortSignal.timeout(10_000),
    }).then(async (response) => {
      const body = (await response.json().catch(() => null)) as { key?: unknown } | null;
      if (!response.ok || typeof body?.key !== 'string')
        throw new Error(`Replicate's secret: ${response.status}`);
      return body.key;
    });
    // A failed read is tried again on the next delivery.
    secret.catch(() => {
      secret = null;
    });
    return secret;
  };
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    serve(scope, routes.engines.replicateWebhook, (request) =>
      countingWebhookErrors('replicate', async () => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const verdict = verifyReplicateWebhook({
          headers: request.headers,
          rawBody,
          secret: await webhookSecret(),
          nowSeconds: Math.floor(deps.now().getTime() / 1000),
        });
        if (!verdict.ok) {
          request.log.warn({ reason: verdict.reason }, 'replicate webhook refused');
          throw new AppError({ code: 'engines.webhook_forbidden', detail: 'Forbidden.' });
        }
        let prediction: ReplicatePrediction;
        try {
          prediction = JSON.parse(rawBody.toString('utf8')) as ReplicatePrediction;
        } catch {
          throw new AppError({ code: 'engines.webhook_forbidden', detail: 'Forbidden.' });
        }
        if (typeof prediction?.id !== 'string') {
          throw new AppError({ code: 'engines.webhook_forbidden', detail: 'Forbidden.' });
        }
        // Only a finished prediction ends anything; `start`, `output` and `logs` events are noted.
        if (prediction.status === 'starting' || prediction.status === 'processing') {
          return { detail: 'noted' };
        }
        // The body is a prediction (a generation's) or a training (a digital model's LoRA).
        let outcome = await deps.generations.finishProviderJob(
          { provider: 'replicate', providerJobIdPrefix: prediction.id },
          prediction.status === 'succeeded'
            ? { kind: 'done' }
            : { kind: 'failed', error: predictionFailure(prediction) },
        );
        // A failed prediction's uploaded inputs leave Replicate with the delivery that ended it (a
        // succeeded one's go when the engine fetches its result).
        if (outcome === 'finished' && prediction.status !== 'succeeded') {
          for (const url of files.uploadedFilesOf(prediction.input)) {
            await files.deleteFile(url);
          }
        }
        if (outcome === 'unknown request') {
          outcome = await deps.trainings.finishProviderTraining({
            provider: 'replicate',
            jobIdPrefix: prediction.id,
          });
        }
        if (outcome === 'unknown request') {
          throw new AppError({
            code: 'engines.webhook_unknown_request',
            detail: 'This engine job is not known yet. Try again later.',
          });
        }
        return { detail: outcome };
      }),
    );
  });
}
