import { ApiError, createFalClient } from '@fal-ai/client';
import sharp from 'sharp';
import type { TGenerationMode } from '@mirra/contracts';
import {
  EngineError,
  engineNote,
  type EngineContext,
  type EngineOutput,
  type EnginePoll,
  type EngineRequest,
  type GenerationEngine,
} from '../engine.types.js';
import {
  decodeFalJob,
  encodeFalJob,
  falFailure,
  falInput,
  FAL_MODES,
  imageOfResult,
  progressOfStatus,
  retryAfterSeconds,
  type FalMode,
  type FalModels,
  type FalStatus,
} from './fal.models.js';

export interface FalEngineConfig {
  key: string;
  /** Where fal's hosts are reached instead (a local fake); null for fal itself. */
  baseUrl: string | null;
  models: FalModels;
}

/** A 429's Retry-After longer than this is not waited out: the next engine is tried instead. */
const MAX_RETRY_AFTER_SECONDS = 30;
const FAL_HOSTS = /(^|\.)fal\.(run|ai|media)$/;

/**
 * fal.ai through its queue (`@fal-ai/client`): `start` submits the job and hands back its id at
 * once (the job runs at fal, not in our memory); `poll` reads its status and, once completed,
 * downloads the image into memory for Mirra's own storage. fal's webhook finishes it too.
 */
export function createFalEngine(
  config: FalEngineConfig,
  prices: Record<string, number>,
  webhookUrl: string | null,
): GenerationEngine & { name: 'fal' } {
  /**
   * The client retries queue calls on its own (backoff, ignoring Retry-After); our policy replaces
   * it: an outage (no answer, 429, 5xx) is thrown past the client's retry loop as a FalOutage, so
   * a submit moves on to the next engine and a status read is retried by the job's own backoff.
   */
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

  async function resultOf(job: string, context: EngineContext): Promise<EngineOutput> {
    const { requestId, model } = decodeFalJob(job);
    const result = await call((client) => client.queue.result(model, { requestId }));
    const image = imageOfResult(result.data);
    const file = await download(image.url, context.signal);
    const meta = await sharp(file.data).metadata();
    if (!meta.width || !meta.height) throw new EngineError('engine.failed', 'fal returned no picture.', true);
    return {
      data: file.data,
      contentType: meta.format === 'jpeg' ? 'image/jpeg' : 'image/png',
      width: meta.width,
      height: meta.height,
      notes: [engineNote('provider.made_by', `Made by fal with ${model}.`, { engine: 'fal', model })],
      provider: { model, costUsd: prices[model] ?? null },
    };
  }

  return {
    name: 'fal',
    supports: (mode: TGenerationMode) => (FAL_MODES as readonly string[]).includes(mode),

    async start(request: EngineRequest, context: EngineContext) {
      const model = config.models[request.mode as FalMode];
      const input = falInput(request);
      const submit = () =>
        call((client) =>
          client.queue.submit(model, { input, ...(webhookUrl ? { webhookUrl } : {}) } as never),
        );
      let submitted;
      try {
        submitted = await submit();
      } catch (error) {
        // A 429 is waited out once, as fal asks; still limited (or a long wait) → an outage.
        const wait = error instanceof EngineError ? error.retryAfterSeconds : null;
        if (wait === null || wait > MAX_RETRY_AFTER_SECONDS) throw error;
        await sleep(wait * 1000, context.signal);
        submitted = await submit();
      }
      return { kind: 'pending' as const, providerJobId: encodeFalJob(submitted.request_id, model) };
    },

    async poll(job: string, context: EngineContext): Promise<EnginePoll> {
      const { requestId, model } = decodeFalJob(job);
      const status = (await call((client) =>
        client.queue.status(model, { requestId, logs: true }),
      )) as unknown as FalStatus;
      if (status.status !== 'COMPLETED') return { kind: 'running', ...progressOfStatus(status) };
      return { kind: 'done', output: await resultOf(job, context) };
    },

    fetchResult: resultOf,
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new EngineError('engine.timeout', 'fal took too long.', true));
    });
  });
}
