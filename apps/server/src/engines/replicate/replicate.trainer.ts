import { providerCost, type ProviderPrice } from '../../shared/config.js';
import { EngineError } from '../engine.types.js';
import { sendWaitingOutRateLimit } from '../provider-calls.js';
import type { ModelTrainer, ModelTrainingPoll } from '../trainer.types.js';
import { zipStored } from '../zip.js';
import { createReplicateApi } from './replicate.api.js';
import {
  destinationModelName,
  parseModelRef,
  progressOfPrediction,
  trainingEnding,
  type ReplicateTraining,
} from './replicate.models.js';

export interface ReplicateTrainerConfig {
  token: string;
  baseUrl: string;
  /** The account (user or organisation) that owns the trained models: `{owner}/mirra-…`. */
  owner: string;
  /** The trainer: `owner/name:version`, or `owner/name` for its latest version. */
  model: string;
}

/**
 * Replicate's trainings API with the FLUX LoRA trainer. `submit` makes the digital model's
 * destination model if it is missing (`POST /v1/models`, private), uploads the aligned face crops
 * as one ZIP to Replicate's files API (files expire there; never a link to Mirra's storage), and
 * creates the training (`POST /v1/models/{owner}/{name}/versions/{version}/trainings`) once — a
 * 429 is waited out once, as its Retry-After asks. The training id is handed back and stored on
 * the model; `poll` (`GET /v1/trainings/{id}`) and the signed webhook both finish it. The result
 * is the version Replicate pushes to the destination (`owner/name:version`), which the face-photo
 * engine runs; the uploaded ZIP is deleted once the training has ended, or at once when creating
 * the training fails.
 */
export function createReplicateTrainer(
  config: ReplicateTrainerConfig,
  prices: Record<string, ProviderPrice>,
  webhookUrl: string | null,
): ModelTrainer & { name: 'replicate' } {
  const { api, find, upload, deleteFile } = createReplicateApi(config);
  const trainer = parseModelRef(config.model);

  /** The trainer's version: the one configured, else its latest (`GET /v1/models/{owner}/{name}`). */
  async function trainerVersion(signal: AbortSignal): Promise<string> {
    if ('version' in trainer) return trainer.version;
    const model = await api<{ latest_version?: { id?: string } | null }>(`/models/${trainer.model}`, {
      method: 'GET',
      signal,
    });
    const id = model.latest_version?.id;
    if (!id) throw new EngineError('engine.failed', `Replicate's ${trainer.model} has no version.`, false);
    return id;
  }

  /** The destination model, made private on first use (a 404 means it does not exist yet). */
  async function ensureDestination(name: string, signal: AbortSignal): Promise<void> {
    if (await find(`/models/${config.owner}/${name}`, signal)) return;
    await api('/models', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        owner: config.owner,
        name,
        visibility: 'private',
        // Required by the API; Replicate runs a trained FLUX LoRA version on its own hardware.
        hardware: 'gpu-t4',
        description: 'A Mirra digital model (FLUX LoRA).',
      }),
      signal,
    });
  }

  const get = (id: string, signal: AbortSignal) =>
    api<ReplicateTraining>(`/trainings/${encodeURIComponent(id)}`, { method: 'GET', signal });

  return {
    name: 'replicate',
    // A FLUX LoRA training on Replicate (about 1,000 steps on one GPU) usually takes about 20 minutes.
    typicalSeconds: 20 * 60,

    async submit(request, signal) {
      const name = destinationModelName(request.modelUuid);
      const version = await trainerVersion(signal);
      await ensureDestination(name, signal);
      const zip = zipStored(request.photos.map((photo) => ({ name: photo.name, data: photo.data })));
      const zipUrl = await upload({ data: zip, contentType: 'application/zip', name: 'photos.zip' }, signal);
      const body = JSON.stringify({
        destination: `${config.owner}/${name}`,
        input: {
          input_images: zipUrl,
          trigger_word: request.triggerWord,
          autocaption: true,
          steps: 1000,
        },
        ...(webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ['completed'] } : {}),
      });
      let training: ReplicateTraining;
      try {
        training = await sendWaitingOutRateLimit(
          () =>
            api<ReplicateTraining>(`/models/${trainer.model}/versions/${version}/trainings`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
              signal,
            }),
          signal,
          'Replicate',
        );
      } catch (error) {
        // No training reads these face photos: they leave Replicate now, not when they expire
        // (a submit tried again uploads them afresh).
        await deleteFile(zipUrl);
        throw error;
      }
      return training.id;
    },

    async poll(id, signal): Promise<ModelTrainingPoll> {
      const training = await get(id, signal);
      if (training.status === 'starting' || training.status === 'processing') {
        return { kind: 'running', progress: progressOfPrediction(training) };
      }
      const inputZip = training.input?.input_images;
      if (typeof inputZip === 'string') await deleteFile(inputZip);
      return trainingEnding(training, providerCost(prices, trainer.model));
    },
  };
}
