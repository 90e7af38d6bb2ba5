import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TGenerationMode } from '@mirra/contracts';
import {
  EngineError,
  type EngineContext,
  type EnginePoll,
  type EngineRequest,
  type GenerationEngine,
} from '../engine.types.js';
import type { ProviderPrice } from '../../shared/config.js';
import { providerFileOutput, providerPrompt } from '../provider-calls.js';
import { userFacePhoto } from '../face-photo.js';
import {
  COMFY_MODES,
  comfyState,
  decodeComfyJob,
  encodeComfyJob,
  fillWorkflow,
  type ComfyHistoryEntry,
  type ComfyMode,
  type ComfyQueue,
  type ComfyWorkflow,
} from './comfyui.models.js';

export interface ComfyUiEngineConfig {
  /** The ComfyUI servers, used round-robin among the healthy ones. */
  servers: string[];
  /** Where the workflow files are (`<mode>.json`); null: the ones shipped with the server. */
  workflowsDir: string | null;
}

const REQUEST_TIMEOUT_MS = 30_000;
const HEALTH_TIMEOUT_MS = 3000;
/** A server's health is asked again after this long (a failed call marks it down at once). */
const HEALTH_TTL_MS = 30_000;

/**
 * A self-hosted ComfyUI fleet: the mode's workflow (an API-format JSON file an operator can edit)
 * gets its placeholders filled, the photos are uploaded (`POST /upload/image`), and it is queued
 * with `POST /prompt` under a prompt id chosen here, on the next healthy server round-robin (a
 * server that does not answer `GET /system_stats` is skipped; one that fails a call is marked down
 * and the next one tried). The job (prompt id and server) is stored; polling `/queue` gives the
 * place in the server's queue, `/history/{id}` the end, and `/view` the picture.
 */
export function createComfyUiEngine(
  config: ComfyUiEngineConfig,
  prices: Record<string, ProviderPrice>,
): GenerationEngine & { name: 'comfyui' } {
  const servers = config.servers.map((server) => server.replace(/\/+$/, ''));
  const health = new Map<string, { ok: boolean; at: number }>();
  const workflows = new Map<ComfyMode, Promise<ComfyWorkflow>>();
  let last = -1;

  const workflowOf = (mode: ComfyMode) => {
    let loaded = workflows.get(mode);
    if (!loaded) {
      const file = path.join(config.workflowsDir ?? shippedWorkflowsDir(), `${mode}.json`);
      loaded = readFile(file, 'utf8').then((text) => JSON.parse(text) as ComfyWorkflow);
      loaded.catch(() => workflows.delete(mode));
      workflows.set(mode, loaded);
    }
    return loaded;
  };

  async function call<T>(server: string, pathname: string, init: RequestInit = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${server}${pathname}`, {
        ...init,
        signal: init.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch {
      health.set(server, { ok: false, at: Date.now() });
      throw new EngineError('engine.unavailable', `ComfyUI at ${server} could not be reached.`, true);
    }
    if (response.status >= 500) {
      health.set(server, { ok: false, at: Date.now() });
      throw new EngineError('engine.unavailable', `ComfyUI at ${server} answered ${response.status}.`, true);
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as {
        error?: { message?: string; type?: string };
        node_errors?: Record<string, { errors?: Array<{ message?: string; details?: string }> }>;
      } | null;
      const nodes = Object.entries(body?.node_errors ?? {})
        .map(
          ([id, node]) => `node ${id}: ${(node.errors ?? []).map((e) => e.details || e.message).join(', ')}`,
        )
        .join('; ');
      const message = [body?.error?.message ?? `ComfyUI answered ${response.status}`, nodes]
        .filter(Boolean)
        .join(' — ');
      throw new EngineError('engine.failed', message, false);
    }
    return (pathname.startsWith('/view') ? response : await response.json()) as T;
  }

  async function isHealthy(server: string, fresh = false): Promise<boolean> {
    const known = health.get(server);
    if (!fresh && known && Date.now() - known.at < HEALTH_TTL_MS) return known.ok;
    const ok = await fetch(`${server}/system_stats`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) }).then(
      (response) => response.ok,
      () => false,
    );
    health.set(server, { ok, at: Date.now() });
    return ok;
  }

  async function upload(server: string, image: { data: Buffer; contentType: string }): Promise<string> {
    const form = new FormData();
    const extension = image.contentType === 'image/png' ? 'png' : 'jpg';
    form.append(
      'image',
      new Blob([new Uint8Array(image.data)], { type: image.contentType }),
      `mirra-${randomUUID()}.${extension}`,
    );
    form.append('type', 'input');
    form.append('overwrite', 'true');
    const stored = await call<{ name: string; subfolder?: string }>(server, '/upload/image', {
      method: 'POST',
      body: form,
    });
    return stored.subfolder ? `${stored.subfolder}/${stored.name}` : stored.name;
  }

  async function queueOn(server: string, request: EngineRequest, workflow: ComfyWorkflow): Promise<string> {
    const values: Record<string, string | number> = {
      prompt: providerPrompt(request),
      seed: request.seed,
      width: 1024,
      height: request.mode === 'simple' ? 768 : 1024,
    };
    const source = request.images[0];
    if (request.mode !== 'simple') {
      if (!source) throw EngineError.badInput('needs_one_photo', 'A photo is needed for this mode.');
      values.image = await upload(server, source);
    }
    if (request.mode === 'face_swap') {
      if (!request.faceModel)
        throw EngineError.badInput('needs_model', 'Face swap needs your digital model.');
      values.face_image = await upload(server, await userFacePhoto(request.faceModel));
    }
    const promptId = randomUUID();
    await call(server, '/prompt', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        prompt: fillWorkflow(workflow, values),
        client_id: 'mirra',
        prompt_id: promptId,
      }),
    });
    return promptId;
  }

  async function resultOf(
    server: string,
    image: { filename: string; subfolder: string; type: string },
    mode: string,
  ) {
    const query = new URLSearchParams({
      filename: image.filename,
      subfolder: image.subfolder,
      type: image.type,
    });
    const response = await call<Response>(server, `/view?${query.toString()}`);
    const data = Buffer.from(await response.arrayBuffer());
    return providerFileOutput(
      { data, isVideo: false },
      { engine: 'comfyui', model: `comfyui/${mode}` },
      prices,
    );
  }

  return {
    name: 'comfyui',
    supports: (mode: TGenerationMode) =>
      servers.length > 0 && (COMFY_MODES as readonly string[]).includes(mode),

    async start(request: EngineRequest, context: EngineContext) {
      if (request.mode === 'face_swap' && request.images.length === 0) {
        throw new EngineError('engine.unavailable', 'ComfyUI makes face swaps only onto a photo.', true);
      }
      const workflow = await workflowOf(request.mode as ComfyMode).catch(() => {
        throw new EngineError('engine.failed', `No ComfyUI workflow for ${request.mode}.`, false);
      });
      const tried = new Set<string>();
      for (let attempt = 0; attempt < servers.length; attempt++) {
        // Round-robin among the servers known healthy; when none is, each is asked again now.
        let index = -1;
        for (const fresh of [false, true]) {
          for (let step = 1; step <= servers.length && index < 0; step++) {
            const candidate = (last + step) % servers.length;
            if (!tried.has(servers[candidate]!) && (await isHealthy(servers[candidate]!, fresh)))
              index = candidate;
          }
          if (index >= 0) break;
        }
        if (index < 0) break;
        last = index;
        const server = servers[index]!;
        tried.add(server);
        try {
          const promptId = await queueOn(server, request, workflow);
          await context.onProgress(2);
          return { kind: 'pending' as const, providerJobId: encodeComfyJob(promptId, request.mode, server) };
        } catch (error) {
          if (!(error instanceof EngineError) || error.code !== 'engine.unavailable') throw error;
        }
      }
      throw new EngineError('engine.unavailable', 'No ComfyUI server is up.', true);
    },

    async poll(job: string, context: EngineContext): Promise<EnginePoll> {
      void context;
      const { promptId, mode, server } = decodeComfyJob(job);
      // The queue first, then the history: a prompt that ends between the two reads is in the
      // history, so no prompt is ever in neither.
      const queue = await call<ComfyQueue>(server, '/queue');
      const history = await call<Record<string, ComfyHistoryEntry>>(server, `/history/${promptId}`);
      const state = comfyState(promptId, history[promptId], queue);
      switch (state.kind) {
        case 'waiting':
          return { kind: 'running', progress: 1, queuePosition: state.queuePosition };
        case 'running':
          return { kind: 'running', progress: 50 };
        case 'done':
          return { kind: 'done', output: await resultOf(server, state.image, mode) };
        case 'failed':
          return { kind: 'failed', error: new EngineError('engine.failed', state.message, false) };
        default:
          // Neither queued nor in the history: the server lost it (restarted).
          return {
            kind: 'failed',
            error: new EngineError('engine.failed', 'ComfyUI no longer knows this prompt.', false),
          };
      }
    },

    async cancel(job: string) {
      const { promptId, server } = decodeComfyJob(job);
      await call(server, '/queue', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ delete: [promptId] }),
      });
      await call(server, '/interrupt', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt_id: promptId }),
      });
    },
  };
}

/** The workflows shipped beside the server (apps/server/comfyui-workflows), found from here upwards. */
function shippedWorkflowsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'comfyui-workflows');
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('The comfyui-workflows/ folder was not found next to the server.');
}
