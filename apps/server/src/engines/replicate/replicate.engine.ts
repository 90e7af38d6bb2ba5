import { canvasWithMask, planCanvas } from '@mirra/imaging';
import type { TGenerationMode } from '@mirra/contracts';
import {
  EngineError,
  type EngineContext,
  type EngineFaceModel,
  type EngineOutput,
  type EnginePoll,
  type EngineRequest,
  type GenerationEngine,
} from '../engine.types.js';
import { providerCost, type ProviderPrice } from '../../shared/config.js';
import { userFacePhoto } from '../face-photo.js';
import { jobServedBy, servesMode } from '../engine-jobs.js';
import { providerFileOutput, sendWaitingOutRateLimit } from '../provider-calls.js';
import { createReplicateApi } from './replicate.api.js';
import {
  facePhotoInput,
  isTrainedModel,
  outputUrl,
  parseModelRef,
  predictionFailure,
  progressOfPrediction,
  replicateFailure,
  replicateInput,
  instantFacePhotoInput,
  replicateLoraOf,
  REPLICATE_JOBS,
  type ReplicateJob,
  TRAINED_MODEL_PRICE_KEY,
  type ReplicateModels,
  type ReplicatePrediction,
} from './replicate.models.js';

export interface ReplicateEngineConfig {
  token: string;
  /** `https://api.replicate.com/v1`, or a local fake. */
  baseUrl: string;
  models: ReplicateModels;
  /** The identity-keeping model a face photo of a model still in training runs on (`owner/name`). */
  facePhotoInstant: string;
}

/**
 * Replicate's predictions API over plain HTTP. Replicate's npm client is not used: its retry loop
 * sends a create again after any transport error, which can start a second paid prediction; here
 * a create is sent once (a 429 is waited out once, as Replicate's Retry-After asks). The
 * prediction's id is handed back at once and stored; polling `GET /v1/predictions/{id}` or the
 * signed webhook finishes it. Photos go to Replicate's files API, never as links to Mirra's own
 * storage, and are deleted there once the prediction has ended (they would expire anyway).
 */
export function createReplicateEngine(
  config: ReplicateEngineConfig,
  prices: Record<string, ProviderPrice>,
  webhookUrl: string | null,
  options: { ffmpegPath?: string; warn?: (message: string) => void } = {},
): GenerationEngine & { name: 'replicate' } {
  const { api, upload, deleteFile, uploadedFilesOf } = createReplicateApi(config, { warn: options.warn });
  /** Predictions whose uploaded inputs this process has deleted (each is deleted once). */
  const cleared = new Set<string>();

  /**
   * An ended prediction's inputs uploaded to Replicate's files (the user's photos) are deleted
   * there at once rather than left until they expire: once per prediction, and never failing
   * the generation (a failed delete is logged; another process's second ask finds them gone).
   */
  async function clearInputs(prediction: ReplicatePrediction): Promise<void> {
    if (cleared.has(prediction.id)) return;
    cleared.add(prediction.id);
    for (const url of uploadedFilesOf(prediction.input)) await deleteFile(url);
  }
  const ended = (prediction: ReplicatePrediction) =>
    prediction.status !== 'starting' && prediction.status !== 'processing';

  async function create(request: EngineRequest, signal: AbortSignal): Promise<ReplicatePrediction> {
    const job = jobServedBy('Replicate', REPLICATE_JOBS, request);
    if (job === 'face_photo') return createFacePhoto(request, signal);
    const ref = parseModelRef(config.models[job as ReplicateJob]);
    const facePhoto =
      job === 'swap_face' && request.faceModel ? await userFacePhoto(request.faceModel) : undefined;
    const pending: Array<{ key: string; blob: Blob }> = [];
    const photo = request.images[0];
    // An extend: the photo on the canvas the local tool plans too, with the new part masked.
    const canvas =
      job === 'canvas_fill' && photo
        ? await canvasWithMask(
            photo.data,
            planCanvas(photo.width, photo.height, {
              aspect: request.aspect ?? undefined,
              direction: request.settings?.extend,
            }),
          )
        : undefined;
    const input = replicateInput(
      request,
      (image) => new Blob([new Uint8Array(image.data)], { type: image.contentType }),
      facePhoto,
      canvas,
    );
    for (const [key, value] of Object.entries(input)) {
      if (value instanceof Blob) pending.push({ key, blob: value });
    }
    for (const { key, blob } of pending) {
      input[key] = await upload(
        { data: Buffer.from(await blob.arrayBuffer()), contentType: blob.type },
        signal,
      );
    }
    return sendPrediction(ref, input, signal);
  }

  /**
   * Creates the prediction (a version by id, an official model by name), sent once; a 429 is
   * waited out once. Should it fail, no prediction reads the files just uploaded: they leave
   * Replicate now.
   */
  async function sendPrediction(
    ref: ReturnType<typeof parseModelRef>,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ReplicatePrediction> {
    const body = JSON.stringify({
      ...('version' in ref ? { version: ref.version } : {}),
      input,
      ...(webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ['completed'] } : {}),
    });
    const path = 'version' in ref ? '/predictions' : `/models/${ref.model}/predictions`;
    const send = () =>
      api<ReplicatePrediction>(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal,
      });
    try {
      return await sendWaitingOutRateLimit(send, signal, 'Replicate');
    } catch (error) {
      for (const url of uploadedFilesOf(input)) await deleteFile(url);
      throw error;
    }
  }

  /**
   * A face photo from a description: the version Replicate pushed when it trained the model's
   * LoRA, prompted with its trigger word. A model trained elsewhere (or only locally) has none
   * here: an outage of this engine for the request, so the next engine of the list makes it.
   */
  async function createFacePhoto(request: EngineRequest, signal: AbortSignal): Promise<ReplicatePrediction> {
    const faceModel = request.faceModel;
    if (faceModel?.inTraining && !faceModel.providerLoras?.replicate) {
      return createInstantFacePhoto(request, faceModel, signal);
    }
    const lora = replicateLoraOf(request.faceModel);
    return sendPrediction(
      { model: 'replicate', version: lora.version },
      facePhotoInput(request, lora.triggerWord),
      signal,
    );
  }

  /**
   * A face photo of a model still in training: Kontext keeps the person of the model's best
   * reference photo (uploaded to Replicate's files, deleted when the prediction ends, as every
   * input is) in the described scene, with no LoRA needed.
   */
  async function createInstantFacePhoto(
    request: EngineRequest,
    faceModel: EngineFaceModel,
    signal: AbortSignal,
  ): Promise<ReplicatePrediction> {
    const ref = parseModelRef(config.facePhotoInstant);
    const photo = await userFacePhoto(faceModel);
    return sendPrediction(ref, instantFacePhotoInput(request, await upload(photo, signal)), signal);
  }

  async function outputOf(prediction: ReplicatePrediction, signal: AbortSignal): Promise<EngineOutput> {
    const model = modelOf(prediction);
    const url = outputUrl(prediction.output);
    let response: Response;
    try {
      response = await fetch(url, { signal });
    } catch {
      throw replicateFailure({ status: null });
    }
    // Replicate removes outputs after an hour (404): the prediction cannot be finished any more.
    if (!response.ok)
      throw new EngineError('engine.failed', `Replicate's file answered ${response.status}.`, false);
    const data = Buffer.from(await response.arrayBuffer());
    const isVideo = (response.headers.get('content-type') ?? '').startsWith('video/') || url.endsWith('.mp4');
    const output = await providerFileOutput(
      { data, isVideo },
      { engine: 'replicate', model },
      prices,
      options.ffmpegPath,
    );
    // A digital model's own version is priced as the FLUX LoRA model it runs as.
    if (output.provider && output.provider.costUsd === null && isTrainedModel(model)) {
      output.provider.costUsd = providerCost(prices, TRAINED_MODEL_PRICE_KEY);
    }
    return output;
  }

  /** The model a prediction ran (`owner/name`), as the price table and the notes name it. */
  const modelOf = (prediction: ReplicatePrediction) => prediction.model ?? 'replicate';

  const get = (id: string, signal?: AbortSignal) =>
    api<ReplicatePrediction>(`/predictions/${encodeURIComponent(id)}`, { method: 'GET', signal });

  return {
    name: 'replicate',
    supports: (mode: TGenerationMode) => servesMode(REPLICATE_JOBS, mode),

    async start(request: EngineRequest, context: EngineContext) {
      const prediction = await create(request, context.signal);
      return { kind: 'pending' as const, providerJobId: prediction.id };
    },

    async poll(id: string, context: EngineContext): Promise<EnginePoll> {
      const prediction = await get(id);
      if (!ended(prediction)) return { kind: 'running', progress: progressOfPrediction(prediction) };
      await clearInputs(prediction);
      if (prediction.status === 'succeeded') {
        return { kind: 'done', output: await outputOf(prediction, context.signal) };
      }
      return { kind: 'failed', error: predictionFailure(prediction) };
    },

    async fetchResult(id: string, context: EngineContext) {
      const prediction = await get(id);
      if (!ended(prediction)) {
        throw new EngineError('engine.unavailable', 'The prediction has not finished yet.', true);
      }
      await clearInputs(prediction);
      if (prediction.status === 'succeeded') return outputOf(prediction, context.signal);
      throw predictionFailure(prediction);
    },

    async cancel(id: string) {
      const prediction = await api<ReplicatePrediction>(`/predictions/${encodeURIComponent(id)}/cancel`, {
        method: 'POST',
      });
      if (ended(prediction)) await clearInputs(prediction);
    },
  };
}
