import sharp from 'sharp';
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError, toFile } from 'openai';
import type { TJobKind } from '@mirra/contracts';
import {
  EngineError,
  type EngineContext,
  type EngineOutput,
  type EngineRequest,
  type GenerationEngine,
} from '../engine.types.js';
import type { ProviderPrice } from '../../shared/config.js';
import { jobServedBy, servesMode } from '../engine-jobs.js';
import {
  providerFileOutput,
  providerPrompt,
  retryAfterSeconds,
  sendWaitingOutRateLimit,
} from '../provider-calls.js';

export interface OpenAiImagesConfig {
  apiKey: string;
  /** `https://api.openai.com` (the API under its /v1), or a compatible proxy, or the local fake. */
  baseUrl: string;
  model: string;
  quality: 'low' | 'medium' | 'high' | 'auto';
}

/** gpt-image makes a picture from a description and edits a photo (an edit or a restyle). */
const OPENAI_JOBS: readonly TJobKind[] = ['text_to_image', 'photo_edit', 'restyle', 'masked_fill'];

/**
 * GPT image models make three sizes: the asked frame shape's nearest (landscape, portrait or
 * square), else square for a scene and the photo's own for an edit (`auto`).
 */
export function openAiSize(aspect: string | null | undefined, otherwise: 'auto' | '1024x1024') {
  if (!aspect) return otherwise;
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  return w > h ? '1536x1024' : w < h ? '1024x1536' : '1024x1024';
}

/**
 * OpenAI's edit mask: a PNG of the photo's size whose transparent pixels (alpha 0) are the part to
 * change. Mirra's masks are white where to change, so white becomes transparent.
 */
export async function openAiMask(mask: Buffer, width: number, height: number): Promise<Buffer> {
  const grey = await sharp(mask).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer();
  const alpha = Buffer.from(grey.map((value) => 255 - value));
  return sharp({ create: { width, height, channels: 3, background: '#000000' } })
    .joinChannel(alpha, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}
/** gpt-image takes tens of seconds at medium quality; past this it is treated as an outage. */
const REQUEST_TIMEOUT_MS = 180_000;

/**
 * OpenAI's image API (gpt-image-1) through the official `openai` SDK: `images.generate`
 * (`POST /v1/images/generations`) for text to image and `images.edit` (`POST /v1/images/edits`,
 * multipart, the photo as a file) for editing and styling. It answers synchronously with the
 * picture as base64, so the engine finishes inside `start` and has no job to resume. Always sends
 * `model` (the API would default to dall-e-2) and the user's generation as `user` for OpenAI's
 * abuse monitoring. A refusal by its safety system (`moderation_blocked`) ends as moderated; 5xx,
 * no answer, a key it refuses or a 429 still there after its Retry-After is an outage (the next
 * engine of the list makes it).
 */
export function createOpenAiImagesEngine(
  config: OpenAiImagesConfig,
  prices: Record<string, ProviderPrice>,
): GenerationEngine & { name: 'openai' } {
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: `${config.baseUrl.replace(/\/+$/, '')}/v1`,
    // The SDK would resend a failed create by itself, and a resent create can start a second paid
    // image: whether to try again (a short 429 once, else the next engine) is decided here.
    maxRetries: 0,
    timeout: REQUEST_TIMEOUT_MS,
  });

  /** One call through the SDK, its failures made into the engine's outcomes; a short 429 waited out once. */
  function send<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    const once = async () => {
      try {
        return await call(signal);
      } catch (error) {
        throw openAiSdkFailure(error);
      }
    };
    return sendWaitingOutRateLimit(once, signal, 'OpenAI');
  }

  async function generate(request: EngineRequest, context: EngineContext): Promise<EngineOutput> {
    await context.onProgress(5);
    let answer: OpenAI.Images.ImagesResponse;
    if (jobServedBy('OpenAI', OPENAI_JOBS, request) === 'text_to_image') {
      answer = await send(
        (signal) =>
          client.images.generate(
            {
              model: config.model,
              prompt: request.prompt,
              // One picture a call: the pictures of a run are generations of their own.
              n: 1,
              size: openAiSize(request.aspect, '1024x1024'),
              quality: config.quality,
              output_format: 'png',
              moderation: 'auto',
              user: request.generationUuid,
            },
            { signal },
          ),
        context.signal,
      );
    } else {
      const source = request.images[0];
      if (!source) throw EngineError.badInput('needs_one_photo', 'A photo is needed for this mode.');
      const prompt = providerPrompt(request);
      const extension = source.contentType.split('/')[1] ?? 'png';
      const mask = request.settings?.mask;
      const maskFile = mask
        ? await toFile(await openAiMask(mask.data, source.width, source.height), 'mask.png', {
            type: 'image/png',
          })
        : undefined;
      answer = await send(
        async (signal) =>
          client.images.edit(
            {
              // A list, sent as `image[]`: gpt-image models take up to 16 pictures.
              image: [await toFile(source.data, `photo.${extension}`, { type: source.contentType })],
              prompt,
              ...(maskFile ? { mask: maskFile } : {}),
              model: config.model,
              n: 1,
              size: openAiSize(request.aspect, 'auto'),
              quality: config.quality,
              output_format: 'png',
              user: request.generationUuid,
            },
            { signal },
          ),
        context.signal,
      );
    }
    const b64 = answer.data?.[0]?.b64_json;
    if (!b64) throw new EngineError('engine.failed', 'OpenAI returned no image.', true);
    const output = await providerFileOutput(
      { data: Buffer.from(b64, 'base64'), isVideo: false },
      { engine: 'openai', model: config.model },
      prices,
    );
    await context.onProgress(95);
    return output;
  }

  return {
    name: 'openai',
    supports: (mode) => servesMode(OPENAI_JOBS, mode),
    async start(request, context) {
      return { kind: 'done', output: await generate(request, context) };
    },
  };
}

/**
 * What a failed SDK call means for the generation: no answer in time (or the job cancelled) is a
 * timeout, no connection an outage, and an answer with an error status is read by openAiFailure.
 */
export function openAiSdkFailure(error: unknown, now = new Date()): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
    return new EngineError('engine.timeout', 'OpenAI took too long to answer.', true);
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    return openAiFailure(
      error.status,
      { error: error.error },
      retryAfterSeconds(error.headers?.get('retry-after') ?? null, now),
    );
  }
  return new EngineError('engine.unavailable', 'OpenAI could not be reached.', true);
}

/** What an OpenAI error answer (`{error: {message, type, param, code}}`) means for the generation. */
export function openAiFailure(status: number, body: unknown, retryAfter: number | null): EngineError {
  const error = (body as { error?: { code?: unknown; type?: unknown; message?: unknown } } | null)?.error;
  if (status === 429) {
    return new EngineError('engine.unavailable', 'OpenAI is rate-limiting us.', true, null, retryAfter);
  }
  if (status >= 500) return new EngineError('engine.unavailable', `OpenAI answered ${status}.`, true);
  if (status === 401 || status === 403)
    return new EngineError('engine.unavailable', 'OpenAI refused our key.', true);
  if (error?.code === 'moderation_blocked' || error?.code === 'content_policy_violation') {
    return new EngineError('engine.refused', 'OpenAI’s safety system refused the request.', false);
  }
  const message =
    typeof error?.message === 'string' ? error.message : `OpenAI refused the request (${status}).`;
  return new EngineError('engine.failed', message, false);
}
