import type { TGenerationMode } from '@mirra/contracts';
import {
  EngineError,
  type EngineContext,
  type EngineOutput,
  type EngineRequest,
  type GenerationEngine,
} from '../engine.types.js';
import type { ProviderPrice } from '../../shared/config.js';
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

const OPENAI_MODES: readonly TGenerationMode[] = ['simple', 'editing', 'styling'];
/** gpt-image takes tens of seconds at medium quality; past this it is treated as an outage. */
const REQUEST_TIMEOUT_MS = 180_000;

/**
 * OpenAI's image API (gpt-image-1): `POST /v1/images/generations` for text to image and
 * `POST /v1/images/edits` (multipart, the photo as a file) for editing and styling. It answers
 * synchronously with the picture as base64, so the engine finishes inside `start` and has no job
 * to resume. Always sends `model` (the API would default to dall-e-2) and the user's generation as
 * `user` for OpenAI's abuse monitoring. A refusal by its safety system (`moderation_blocked`) ends
 * as moderated; 5xx, no answer, a key it refuses or a 429 still there after its Retry-After is an
 * outage (the next engine of the list makes it).
 */
export function createOpenAiImagesEngine(
  config: OpenAiImagesConfig,
  prices: Record<string, ProviderPrice>,
): GenerationEngine & { name: 'openai' } {
  const base = config.baseUrl.replace(/\/+$/, '');

  async function send(path: string, body: () => string | FormData, json: boolean, signal: AbortSignal) {
    const once = async () => {
      let response: Response;
      try {
        response = await fetch(`${base}/v1${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${config.apiKey}`,
            ...(json ? { 'content-type': 'application/json' } : {}),
          },
          body: body(),
          signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
        });
      } catch (error) {
        if ((error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError') {
          throw new EngineError('engine.timeout', 'OpenAI took too long to answer.', true);
        }
        throw new EngineError('engine.unavailable', 'OpenAI could not be reached.', true);
      }
      const answer: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        throw openAiFailure(
          response.status,
          answer,
          retryAfterSeconds(response.headers.get('retry-after'), new Date()),
        );
      }
      return answer as { data?: Array<{ b64_json?: string }> };
    };
    return sendWaitingOutRateLimit(once, signal, 'OpenAI');
  }

  async function generate(request: EngineRequest, context: EngineContext): Promise<EngineOutput> {
    await context.onProgress(5);
    let answer;
    if (request.mode === 'simple') {
      const body = JSON.stringify({
        model: config.model,
        prompt: request.prompt,
        n: 1,
        size: '1024x1024',
        quality: config.quality,
        output_format: 'png',
        moderation: 'auto',
        user: request.generationUuid,
      });
      answer = await send('/images/generations', () => body, true, context.signal);
    } else {
      const source = request.images[0];
      if (!source) throw EngineError.badInput('needs_one_photo', 'A photo is needed for this mode.');
      const prompt = providerPrompt(request);
      const form = () => {
        const data = new FormData();
        const extension = source.contentType.split('/')[1] ?? 'png';
        data.append(
          'image[]',
          new Blob([new Uint8Array(source.data)], { type: source.contentType }),
          `photo.${extension}`,
        );
        data.append('prompt', prompt);
        data.append('model', config.model);
        data.append('n', '1');
        data.append('size', 'auto');
        data.append('quality', config.quality);
        data.append('output_format', 'png');
        data.append('user', request.generationUuid);
        return data;
      };
      answer = await send('/images/edits', form, false, context.signal);
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
    supports: (mode) => OPENAI_MODES.includes(mode),
    async start(request, context) {
      return { kind: 'done', output: await generate(request, context) };
    },
  };
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
