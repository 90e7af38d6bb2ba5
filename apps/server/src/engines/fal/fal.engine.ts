import { ApiError, createFalClient } from '@fal-ai/client';
import type { TGenerationMode } from '@mirra/contracts';
import {
  EngineError,
  type EngineContext,
  type EngineOutput,
  type EnginePoll,
  type EngineRequest,
  type GenerationEngine,
} from '../engine.types.js';
import { providerCost, type ProviderPrice } from '../../shared/config.js';
import type { ModelTrainer, ModelTrainingPoll } from '../trainer.types.js';
import { userFacePhoto } from '../face-photo.js';
import { canvasWithMask, planCanvas } from '@mirra/imaging';
import { jobOf, servesMode } from '../engine-jobs.js';
import { providerFileOutput, retryAfterSeconds, sendWaitingOutRateLimit } from '../provider-calls.js';
import { zipStored } from '../zip.js';
import {
  decodeFalJob,
  encodeFalJob,
  falFailure,
  falInput,
  falModelFor,
  facePhotoByLikeness,
  FAL_JOBS,
  fileOfResult,
  loraOfTrainingResult,
  progressOfStatus,
  type FalModels,
  type FalStatus,
} from './fal.models.js';

export interface FalEngineConfig {
  key: string;
  /** Where fal's hosts are reached instead (a local fake); null for fal itself. */
  baseUrl: string | null;
  models: FalModels;
}

const FAL_HOSTS = /(^|\.)fal\.(run|ai|media)$/;

/** How long a training photo stays in fal's storage: enough for the trainer to fetch it. */
const TRAINING_UPLOAD_EXPIRES_SECONDS = 3600;

/**
 * fal's client pointed at fal (or its fake), with our outage policy. The client retries queue
 * calls on its own (backoff, ignoring Retry-After); our policy replaces it: an outage (no answer,
 * 429, 5xx) is thrown past the client's retry loop as a FalOutage, so a submit moves on to the
 * next engine and a status read is retried by the job's own backoff.
 */
function createFalCaller(config: FalEngineConfig) {
  const client = createFalClient({
    credentials: config.key,
    fetch: async (input, init) => {
      let response: Response;
      try {
        response = await fetch(rewrite(input, config.baseUrl), init);
      } catch (error) {
        if ((error as Error)?.name === 'AbortError' || (error as Error)?.name === 'TimeoutError') throw error;
        throw new FalOutage(null, null, null, null);
      }
      if (response.status === 429 || response.status >= 500) {
        const body: unknown = await response.json().catch(() => null);
        throw new FalOutage(
          response.status,
          body,
          response.headers.get('retry-after'),
          response.headers.get('x-fal-request-timeout-type'),
        );
      }
      return response;
    },
  });

  async function call<T>(operation: (client: ReturnType<typeof createFalClient>) => Promise<T>): Promise<T> {
    try {
      return await operation(client);
    } catch (error) {
      throw toEngineError(error);
    }
  }

  async function download(url: string, signal: AbortSignal): Promise<{ data: Buffer; contentType: string }> {
    let response: Response;
    try {
      response = await fetch(rewrite(url, config.baseUrl), { signal });
    } catch (error) {
      throw toEngineError(error);
    }
    if (!response.ok) throw falFailure({ status: response.status });
    const data = Buffer.from(await response.arrayBuffer());
    return { data, contentType: response.headers.get('content-type') ?? 'image/png' };
  }

  /** Submits to the queue; a 429 is waited out once, as fal asks (still limited, or long: an outage). */
  async function submit(
    model: string,
    input: Record<string, unknown>,
    webhookUrl: string | null,
    signal: AbortSignal,
  ) {
    return sendWaitingOutRateLimit(
      () =>
        call((client) =>
          client.queue.submit(model, { input, ...(webhookUrl ? { webhookUrl } : {}) } as never),
        ),
      signal,
      'fal',
    );
  }

  async function status(job: string): Promise<FalStatus> {
    const { requestId, model } = decodeFalJob(job);
    return (await call((client) =>
      client.queue.status(model, { requestId, logs: true }),
    )) as unknown as FalStatus;
  }

  return { client, call, download, submit, status };
}

/**
 * fal.ai through its queue (`@fal-ai/client`): `start` submits the job and hands back its id at
 * once (the job runs at fal, not in our memory); `poll` reads its status and, once completed,
 * downloads the result into memory for Mirra's own storage. fal's webhook finishes it too.
 * Every mode: FLUX, Kontext, face swap, FLUX LoRA with the user's LoRA, Kling video.
 */
export function createFalEngine(
  config: FalEngineConfig,
  prices: Record<string, ProviderPrice>,
  webhookUrl: string | null,
  options: { ffmpegPath?: string } = {},
): GenerationEngine & { name: 'fal' } {
  const fal = createFalCaller(config);

  async function resultOf(job: string, context: EngineContext): Promise<EngineOutput> {
    const { requestId, model } = decodeFalJob(job);
    const result = await fal.call((client) => client.queue.result(model, { requestId }));
    const file = fileOfResult(result.data);
    const downloaded = await fal.download(file.url, context.signal);
    return providerFileOutput(
      { data: downloaded.data, isVideo: file.isVideo },
      { engine: 'fal', model },
      prices,
      options.ffmpegPath,
    );
  }

  return {
    name: 'fal',
    supports: (mode: TGenerationMode) => servesMode(FAL_JOBS, mode),

    async start(request: EngineRequest, context: EngineContext) {
      const model = falModelFor(request, config.models);
      const input = falInput(request, {
        ...(await faceInputs(request, fal)),
        ...(await outpaintCanvas(request)),
        model,
      });
      const submitted = await fal.submit(model, input, webhookUrl, context.signal);
      return { kind: 'pending' as const, providerJobId: encodeFalJob(submitted.request_id, model) };
    },

    async poll(job: string, context: EngineContext): Promise<EnginePoll> {
      const status = await fal.status(job);
      if (status.status !== 'COMPLETED') return { kind: 'running', ...progressOfStatus(status) };
      return { kind: 'done', output: await resultOf(job, context) };
    },

    fetchResult: resultOf,
  };
}

/** An outpaint's photo on its larger canvas with the mask of the new part (FLUX Fill fills white). */
async function outpaintCanvas(request: EngineRequest) {
  const photo = request.images[0];
  if (jobOf(request) !== 'canvas_fill' || !photo) return {};
  // The same canvas the local outpaint makes: exactly the asked shape, the photo kept whole.
  const canvas = planCanvas(photo.width, photo.height, {
    aspect: request.aspect ?? undefined,
    direction: request.settings?.extend,
  });
  return { canvas: await canvasWithMask(photo.data, canvas) };
}

/**
 * What face swap and face photos send besides the request: the best front-facing photo of the
 * user's digital model (face swap onto a photo), the LoRA trained for it at fal (a face photo from
 * a description), or, while the model is still in training, its best reference photo put in fal's
 * storage for an hour (a URL Kontext fetches; never a permanent link). A model trained elsewhere
 * cannot make a face photo here: that is an outage of this engine for the request, so the next
 * engine of the list (the local face profile) makes it.
 */
async function faceInputs(request: EngineRequest, fal: ReturnType<typeof createFalCaller>) {
  const job = jobOf(request);
  if (job !== 'swap_face' && job !== 'face_photo') return {};
  const faceModel = request.faceModel;
  if (!faceModel) throw EngineError.badInput('needs_model', 'Face swap needs your trained digital model.');
  if (job === 'face_photo') {
    const by = facePhotoByLikeness(request);
    if (by === 'trained') return { lora: faceModel.providerLoras!.fal! };
    if (by === 'instant') {
      const photo = await userFacePhoto(faceModel);
      const referenceUrl = await fal.call((client) =>
        client.storage.upload(new Blob([new Uint8Array(photo.data)], { type: photo.contentType }), {
          lifecycle: { expiresIn: REFERENCE_UPLOAD_EXPIRES_SECONDS },
        }),
      );
      return { referenceUrl };
    }
    throw new EngineError('engine.unavailable', 'This digital model has no LoRA trained at fal.', true);
  }
  return { facePhoto: await userFacePhoto(faceModel) };
}

/** How long a reference photo stays in fal's storage: enough for the instant model to fetch it. */
const REFERENCE_UPLOAD_EXPIRES_SECONDS = 3600;

/**
 * fal's LoRA trainer (flux-lora-fast-training): the aligned face crops go to fal's storage as a
 * ZIP that expires within the hour (never a permanent link), the job is submitted to the queue,
 * and its status is polled; the result's `diffusers_lora_file` is what the face-photo model loads.
 */
export function createFalTrainer(
  config: FalEngineConfig,
  prices: Record<string, ProviderPrice>,
  webhookUrl: string | null,
): ModelTrainer {
  const fal = createFalCaller(config);
  const model = config.models.training;
  return {
    name: 'fal',
    // fal's fast LoRA training of about 1,000 steps usually finishes in about five minutes.
    typicalSeconds: 5 * 60,
    async submit(request, signal) {
      const zip = zipStored(request.photos.map((photo) => ({ name: photo.name, data: photo.data })));
      const url = await fal.call((client) =>
        client.storage.upload(new Blob([new Uint8Array(zip)], { type: 'application/zip' }), {
          lifecycle: { expiresIn: TRAINING_UPLOAD_EXPIRES_SECONDS },
        }),
      );
      const input = {
        images_data_url: url,
        trigger_word: request.triggerWord,
        create_masks: true,
        is_style: false,
      };
      const submitted = await fal.submit(model, input, webhookUrl, signal);
      return encodeFalJob(submitted.request_id, model);
    },
    async poll(job, signal): Promise<ModelTrainingPoll> {
      const status = await fal.status(job);
      if (status.status !== 'COMPLETED')
        return { kind: 'running', progress: progressOfStatus(status).progress };
      const { requestId } = decodeFalJob(job);
      let result;
      try {
        result = await fal.call((client) => client.queue.result(model, { requestId }));
      } catch (error) {
        if (error instanceof EngineError && !error.retryable) {
          return { kind: 'failed', refused: error.code === 'engine.refused', message: error.message };
        }
        throw error;
      }
      void signal;
      return {
        kind: 'done',
        loraUrl: loraOfTrainingResult(result.data),
        costUsd: providerCost(prices, model),
      };
    },
  };
}

/** fal could not serve the call: no answer, 429 or 5xx (what the response said is kept). */
class FalOutage extends Error {
  override name = 'FalOutage';
  constructor(
    readonly status: number | null,
    readonly body: unknown,
    readonly retryAfter: string | null,
    readonly timeoutType: string | null,
  ) {
    super(status === null ? 'fal could not be reached' : `fal answered ${status}`);
  }
}

function toEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof FalOutage) {
    return falFailure({
      status: error.status,
      body: error.body,
      retryAfterSeconds: retryAfterSeconds(error.retryAfter, new Date()),
      timeoutType: error.timeoutType,
    });
  }
  if (error instanceof ApiError) {
    return falFailure({ status: error.status, body: error.body, timeoutType: error.timeoutType ?? null });
  }
  if ((error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError') {
    return new EngineError('engine.timeout', 'fal took too long.', true);
  }
  return falFailure({ status: null });
}

/** fal's hosts (queue.fal.run, rest.fal.ai, fal.media) moved onto `baseUrl`, path kept. */
function rewrite(input: string | URL | Request, baseUrl: string | null): string | URL | Request {
  if (!baseUrl) return input;
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (!FAL_HOSTS.test(url.hostname)) return input;
  const target = new URL(url.pathname + url.search, baseUrl);
  return input instanceof Request ? new Request(target, input) : target.toString();
}
