import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import {
  aspectSize,
  makesVideo,
  VIDEO_DURATION_DEFAULT,
  type TGenerationMode,
  type TVideoAspect,
} from '@mirra/contracts';
import {
  EngineError,
  type EngineContext,
  type EngineFaceModel,
  type EnginePoll,
  type EngineRequest,
  type GenerationEngine,
} from '../engine.types.js';
import type { ProviderPrice } from '../../shared/config.js';
import { providerFileOutput, providerPrompt } from '../provider-calls.js';
import { videoPrompt } from '../camera-moves.js';
import { userFacePhoto } from '../face-photo.js';
import { jobOf, servesMode } from '../engine-jobs.js';
import {
  COMFY_WORKFLOWS,
  jobsOfWorkflows,
  WORKFLOWS_OF_JOB,
  COMFY_WORKFLOW_NAMES,
  comfyState,
  decodeComfyJob,
  encodeComfyJob,
  fillWorkflow,
  workflowProblems,
  type ComfyFile,
  type ComfyHistoryEntry,
  type ComfyQueue,
  type ComfyWorkflow,
  type ComfyWorkflowName,
} from './comfyui.models.js';
import { openPromptSocket, type ComfyPromptSocket } from './comfyui.socket.js';

export interface ComfyUiEngineConfig {
  /** The ComfyUI servers, used round-robin among the healthy ones. */
  servers: string[];
  /** Where the workflow files are (`<name>.json`); null: the ones shipped with the server. */
  workflowsDir: string | null;
  /**
   * A folder the ComfyUI servers load LoRAs from too (a shared volume listed in their
   * `extra_model_paths.yaml` under `loras`): a digital model's LoRA is written there for the face
   * photo workflow. Null: face photos use the InstantID workflow.
   */
  lorasDir?: string | null;
}

const REQUEST_TIMEOUT_MS = 30_000;
const HEALTH_TIMEOUT_MS = 3000;
/** A server's health is asked again after this long (a failed call marks it down at once). */
const HEALTH_TTL_MS = 30_000;
/** How long a poll waits for the socket to say the prompt ended before it answers "running". */
const SOCKET_WAIT_MS = 2000;
/** Video frames per second and frame shapes (LTX-Video wants sides divisible by 32, 8n+1 frames). */
const VIDEO_FPS = 24;
const VIDEO_SIZES: Record<TVideoAspect, { width: number; height: number }> = {
  '9:16': { width: 512, height: 896 },
  '1:1': { width: 768, height: 768 },
  '16:9': { width: 896, height: 512 },
};
const LORA_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * A self-hosted ComfyUI fleet: the mode's workflow (an API-format JSON file an operator can edit)
 * gets its placeholders filled, the photos are uploaded (`POST /upload/image`), and it is queued
 * with `POST /prompt` under a prompt id chosen here, on the next healthy server round-robin (a
 * server that does not answer `GET /system_stats` is skipped; one that fails a call is marked down
 * and the next one tried). Each prompt is queued under its own WebSocket client id with the socket
 * (`/ws?clientId=`) already open: its `progress` and `executing` messages are the generation's live
 * progress, and `executing {node: null}` says it ended. The job (prompt id, workflow, server and
 * client id) is stored; `/queue` gives the place in the server's queue, `/history/{id}` is the
 * source of truth for the end (read when the socket says it ended, and polled when the socket
 * dropped or a restarted worker resumes), and `/view` the picture or video.
 *
 * Every workflow file is read and checked when the engine is made (a broken one stops the start
 * with what is wrong); a missing one leaves its mode to the next engine.
 */
export function createComfyUiEngine(
  config: ComfyUiEngineConfig,
  prices: Record<string, ProviderPrice>,
): GenerationEngine & { name: 'comfyui' } {
  const servers = config.servers.map((server) => server.replace(/\/+$/, ''));
  const health = new Map<string, { ok: boolean; at: number }>();
  const workflows = loadWorkflows(config.workflowsDir ?? shippedWorkflowsDir());
  /** The sockets of the prompts this process follows, by prompt id. */
  const sockets = new Map<string, ComfyPromptSocket>();
  /** Prompts whose socket was opened again after a restart (tried once each). */
  const reopened = new Set<string>();
  let last = -1;

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

  /** The values a workflow's placeholders get; photos are uploaded to the server that runs it. */
  async function valuesFor(
    server: string,
    request: EngineRequest,
    plan: WorkflowPlan,
  ): Promise<Record<string, string | number>> {
    const source = request.images[0];
    const values: Record<string, string | number> = {
      // A video model has no camera parameter here: the chosen move is said after the description.
      prompt: plan.lora
        ? `${plan.lora.triggerWord} ${request.prompt}`
        : makesVideo(request.mode)
          ? videoPrompt(request.prompt, request.settings?.camera, Boolean(source))
          : providerPrompt(request),
      seed: request.seed,
      // The latent's size: the picture's asked frame shape, else 4:3 for a scene and square otherwise.
      ...(request.aspect && !makesVideo(request.mode)
        ? aspectSize(request.aspect, 1024, 8)
        : { width: 1024, height: jobOf(request) === 'text_to_image' ? 768 : 1024 }),
    };
    if (source) values.image = await upload(server, source);
    if ((COMFY_WORKFLOWS[plan.name].required as readonly string[]).includes('face_image')) {
      values.face_image = await upload(server, await userFacePhoto(plan.faceModel!));
    }
    if (plan.lora) values.lora = plan.lora.file;
    if (makesVideo(request.mode)) {
      const seconds = request.durationSeconds ?? VIDEO_DURATION_DEFAULT;
      const size = VIDEO_SIZES[(request.aspect ?? '9:16') as keyof typeof VIDEO_SIZES];
      Object.assign(values, size, {
        seconds,
        fps: VIDEO_FPS,
        frames: 8 * Math.ceil((seconds * VIDEO_FPS) / 8) + 1,
      });
    }
    return values;
  }

  async function queueOn(
    server: string,
    request: EngineRequest,
    plan: WorkflowPlan,
    context: EngineContext,
  ): Promise<{ promptId: string; clientId: string }> {
    const prompt = fillWorkflow(plan.workflow, await valuesFor(server, request, plan));
    const promptId = randomUUID();
    const clientId = randomUUID();
    // Open before queueing: the server sends a prompt's messages only to a socket open by then.
    const socket = await openPromptSocket(server, clientId);
    try {
      await call(server, '/prompt', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt, client_id: clientId, prompt_id: promptId }),
      });
    } catch (error) {
      socket?.close();
      throw error;
    }
    if (socket) {
      sockets.set(promptId, socket);
      socket.follow(promptId);
      reportProgress(socket, context);
    }
    return { promptId, clientId };
  }

  /** The socket's progress, written as it comes (each whole percent once) to the generation. */
  function reportProgress(socket: ComfyPromptSocket, context: EngineContext) {
    let reported = 0;
    socket.onChange((state) => {
      if (state.ended || state.progress <= reported) return;
      reported = state.progress;
      void Promise.resolve(context.onProgress(state.progress)).catch(() => undefined);
    });
  }

  /** The socket following a prompt: the one opened when it was queued, or opened again once with its client id. */
  async function socketOf(promptId: string, server: string, clientId: string | null) {
    const known = sockets.get(promptId);
    if (known || !clientId || reopened.has(promptId)) return known ?? null;
    reopened.add(promptId);
    const socket = await openPromptSocket(server, clientId);
    if (!socket) return null;
    socket.follow(promptId);
    sockets.set(promptId, socket);
    return socket;
  }

  function forget(promptId: string) {
    sockets.get(promptId)?.close();
    sockets.delete(promptId);
    reopened.delete(promptId);
  }

  /**
   * Which workflow makes the request: a face photo (face swap without a photo) uses the model's
   * LoRA where the servers can load it, else InstantID; a video without a photo is made from
   * the description. A workflow whose file is absent leaves the request to the next engine.
   */
  async function planFor(request: EngineRequest): Promise<WorkflowPlan> {
    const unavailable = (message: string) => new EngineError('engine.unavailable', message, true);
    const named = (name: ComfyWorkflowName, extra: Partial<WorkflowPlan> = {}): WorkflowPlan => {
      const workflow = workflows.get(name);
      if (!workflow) throw unavailable(`This server has no ComfyUI workflow ${name}.json.`);
      return { name, workflow, ...extra };
    };
    const job = jobOf(request);
    if (job !== 'swap_face' && job !== 'face_photo') return named(WORKFLOWS_OF_JOB[job][0]!);
    const faceModel = request.faceModel;
    if (!faceModel) throw EngineError.badInput('needs_model', 'Face swap needs your digital model.');
    if (job === 'swap_face') return named(WORKFLOWS_OF_JOB.swap_face[0]!, { faceModel });
    if (config.lorasDir && workflows.has('face_photo')) {
      const lora = await reachableLora(faceModel);
      if (lora) return named('face_photo', { faceModel, lora });
    }
    return named('face_photo_instantid', { faceModel });
  }

  /**
   * The model's LoRA in the shared LoRA folder, as ComfyUI loads it: the file already there (an
   * operator may have put it there), else downloaded there once under a name of its own from a
   * provider that hands out its weights file (fal's `diffusers_lora_file`). A LoRA ComfyUI cannot
   * load (Replicate's is a model version, `owner/name:version`, run only at Replicate) is no LoRA
   * here: null, and the face photo is made with InstantID from the model's photos.
   */
  async function reachableLora(
    faceModel: EngineFaceModel,
  ): Promise<{ file: string; triggerWord: string } | null> {
    const loras = Object.values(faceModel.providerLoras ?? {});
    if (loras.length === 0 || !config.lorasDir) return null;
    const file = `mirra-${faceModel.uuid}.safetensors`;
    const target = path.join(config.lorasDir, file);
    const downloadable = loras.find((candidate) => /^https?:\/\//i.test(candidate.url));
    if (existsSync(target)) return { file, triggerWord: (downloadable ?? loras[0]!).triggerWord };
    if (!downloadable) return null;
    const partial = `${target}.${randomUUID()}.part`;
    try {
      const response = await fetch(downloadable.url, {
        signal: AbortSignal.timeout(LORA_DOWNLOAD_TIMEOUT_MS),
      });
      if (!response.ok || !response.body) throw new Error(`the LoRA's address answered ${response.status}`);
      await mkdir(config.lorasDir, { recursive: true });
      await pipeline(
        Readable.fromWeb(response.body as unknown as WebReadableStream),
        createWriteStream(partial),
      );
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw new EngineError(
        'engine.unavailable',
        `The digital model's LoRA could not be put where ComfyUI loads it: ${String((error as Error).message ?? error)}`,
        true,
      );
    }
    return { file, triggerWord: downloadable.triggerWord };
  }

  async function resultOf(server: string, file: ComfyFile, isVideo: boolean, mode: string) {
    const query = new URLSearchParams({
      filename: file.filename,
      subfolder: file.subfolder,
      type: file.type,
    });
    const response = await call<Response>(server, `/view?${query.toString()}`);
    const data = Buffer.from(await response.arrayBuffer());
    return providerFileOutput({ data, isVideo }, { engine: 'comfyui', model: `comfyui/${mode}` }, prices);
  }

  return {
    name: 'comfyui',
    supports: (mode: TGenerationMode) => servers.length > 0 && servesMode(jobsOfWorkflows(workflows), mode),

    async start(request: EngineRequest, context: EngineContext) {
      const plan = await planFor(request);
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
          const { promptId, clientId } = await queueOn(server, request, plan, context);
          await context.onProgress(2);
          return {
            kind: 'pending' as const,
            providerJobId: encodeComfyJob({ promptId, mode: plan.name, server, clientId }),
          };
        } catch (error) {
          if (!(error instanceof EngineError) || error.code !== 'engine.unavailable') throw error;
        }
      }
      throw new EngineError('engine.unavailable', 'No ComfyUI server is up.', true);
    },

    async poll(job: string, context: EngineContext): Promise<EnginePoll> {
      const { promptId, mode, server, clientId } = decodeComfyJob(job);
      const socket = await socketOf(promptId, server, clientId);
      if (socket) reportProgress(socket, context);
      // Running, followed by the socket: its progress, no HTTP asked (the socket says when it ends).
      if (socket?.isOpen && socket.state.started && !socket.state.ended) {
        await socket.settled(SOCKET_WAIT_MS);
        if (socket.isOpen && !socket.state.ended) return { kind: 'running', progress: socket.state.progress };
      }
      // The queue first, then the history: a prompt that ends between the two reads is in the
      // history, so no prompt is ever in neither.
      const queue = await call<ComfyQueue>(server, '/queue');
      const history = await call<Record<string, ComfyHistoryEntry>>(server, `/history/${promptId}`);
      const state = comfyState(promptId, history[promptId], queue);
      switch (state.kind) {
        case 'waiting':
          return { kind: 'running', progress: 1, queuePosition: state.queuePosition };
        case 'running':
          // Without a socket nothing says how far it got: halfway is shown.
          return {
            kind: 'running',
            progress: Math.max(socket?.state.progress ?? 0, socket?.isOpen ? 5 : 50),
          };
        case 'done':
          forget(promptId);
          return { kind: 'done', output: await resultOf(server, state.file, state.isVideo, mode) };
        case 'failed':
          forget(promptId);
          return { kind: 'failed', error: new EngineError('engine.failed', state.message, false) };
        default:
          forget(promptId);
          // Neither queued nor in the history: the server lost it (restarted).
          return {
            kind: 'failed',
            error: new EngineError('engine.failed', 'ComfyUI no longer knows this prompt.', false),
          };
      }
    },

    async cancel(job: string) {
      const { promptId, server } = decodeComfyJob(job);
      forget(promptId);
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

interface WorkflowPlan {
  name: ComfyWorkflowName;
  workflow: ComfyWorkflow;
  faceModel?: EngineFaceModel;
  lora?: { file: string; triggerWord: string };
}

/**
 * The workflow files of a folder, each checked: one that is not valid JSON, not an API-format
 * graph, lacks a placeholder it needs or uses one never filled stops the start with every problem
 * named. An absent file is no workflow (its mode goes to the next engine).
 */
export function loadWorkflows(dir: string): Map<ComfyWorkflowName, ComfyWorkflow> {
  const loaded = new Map<ComfyWorkflowName, ComfyWorkflow>();
  const problems: string[] = [];
  for (const name of COMFY_WORKFLOW_NAMES) {
    const file = path.join(dir, `${name}.json`);
    if (!existsSync(file)) continue;
    let workflow: unknown;
    try {
      workflow = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      problems.push(`${name}.json is not valid JSON: ${(error as Error).message}`);
      continue;
    }
    const wrong = workflowProblems(name, workflow);
    if (wrong.length > 0) problems.push(...wrong);
    else loaded.set(name, workflow as ComfyWorkflow);
  }
  if (problems.length > 0) {
    throw new Error(`The ComfyUI workflows in ${dir} cannot be used:\n- ${problems.join('\n- ')}`);
  }
  return loaded;
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
