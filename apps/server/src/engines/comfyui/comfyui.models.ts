import { JOB_KINDS, type TJobKind } from '@mirra/contracts';
import { EngineError } from '../engine.types.js';

/**
 * The workflow files (`<name>.json`), and the placeholders each must have (without them the
 * workflow cannot do its job) and may have. Face swap onto a photo is `face_swap`; a face photo
 * from a description is `face_photo` (FLUX with the model's LoRA) when the LoRA is reachable by the
 * servers, else `face_photo_instantid` (InstantID from the model's best face photo). A video is
 * `video` from a photo, `video_from_text` from a description alone.
 */
export const COMFY_WORKFLOWS = {
  simple: { required: ['prompt', 'seed'] },
  editing: { required: ['prompt', 'image'] },
  styling: { required: ['prompt', 'image'] },
  face_swap: { required: ['image', 'face_image'] },
  face_photo: { required: ['prompt', 'lora'] },
  face_photo_instantid: { required: ['prompt', 'face_image'] },
  video: { required: ['image'] },
  video_from_text: { required: ['prompt'] },
} as const satisfies Record<string, { required: readonly string[] }>;
export type ComfyWorkflowName = keyof typeof COMFY_WORKFLOWS;

/**
 * The workflows that run each job, in the order they are preferred: a job is run when one of its
 * workflow files is present. A face photo prefers the LoRA workflow, which the engine uses only
 * when the model's LoRA is reachable by the servers.
 */
export const WORKFLOWS_OF_JOB: Record<TJobKind, readonly ComfyWorkflowName[]> = {
  text_to_image: ['simple'],
  photo_edit: ['editing'],
  restyle: ['styling'],
  swap_face: ['face_swap'],
  face_photo: ['face_photo', 'face_photo_instantid'],
  image_to_video: ['video'],
  text_to_video: ['video_from_text'],
  // The tools run at ComfyUI only from workflow files an operator provides for them (none yet).
  super_resolution: [],
  photo_repair: [],
  cut_out: [],
  masked_fill: [],
  talking_video: [],
  canvas_fill: [],
  garment_swap: [],
};

/** The jobs a set of present workflow files can run. */
export function jobsOfWorkflows(present: { has(name: ComfyWorkflowName): boolean }): TJobKind[] {
  return JOB_KINDS.filter((job) => WORKFLOWS_OF_JOB[job].some((name) => present.has(name)));
}
export const COMFY_WORKFLOW_NAMES = Object.keys(COMFY_WORKFLOWS) as ComfyWorkflowName[];

/** Placeholders any workflow may use besides its required ones (the engine always fills these). */
const COMMON_PLACEHOLDERS = ['prompt', 'seed', 'width', 'height'];
/** What each workflow's requests carry beyond the common values. */
const EXTRA_PLACEHOLDERS: Record<ComfyWorkflowName, readonly string[]> = {
  simple: [],
  editing: ['image'],
  styling: ['image'],
  face_swap: ['image', 'face_image'],
  face_photo: ['lora'],
  face_photo_instantid: ['face_image'],
  video: ['image', 'frames', 'fps', 'seconds'],
  video_from_text: ['frames', 'fps', 'seconds'],
};

const PLACEHOLDER = /^\{\{(\w+)\}\}$/;

/** The placeholders a workflow uses (string inputs that are exactly `{{name}}`). */
export function placeholdersOf(workflow: ComfyWorkflow): Set<string> {
  const names = new Set<string>();
  for (const node of Object.values(workflow)) {
    for (const value of Object.values(node.inputs ?? {})) {
      const match = typeof value === 'string' ? PLACEHOLDER.exec(value) : null;
      if (match) names.add(match[1]!);
    }
  }
  return names;
}

/**
 * What is wrong with a workflow file's content, in words an operator can act on (empty: fine): not
 * an API-format graph, a required placeholder missing, or a placeholder this workflow never gets.
 */
export function workflowProblems(name: ComfyWorkflowName, workflow: unknown): string[] {
  const isGraph =
    typeof workflow === 'object' &&
    workflow !== null &&
    !Array.isArray(workflow) &&
    Object.values(workflow).every(
      (node) =>
        typeof node === 'object' &&
        node !== null &&
        typeof (node as { class_type?: unknown }).class_type === 'string' &&
        typeof (node as { inputs?: unknown }).inputs === 'object',
    );
  if (!isGraph || Object.keys(workflow as object).length === 0) {
    return [`${name}.json is not an API-format workflow (export it with "Save (API)").`];
  }
  const used = placeholdersOf(workflow as ComfyWorkflow);
  const known = new Set([...COMMON_PLACEHOLDERS, ...EXTRA_PLACEHOLDERS[name]]);
  return [
    ...COMFY_WORKFLOWS[name].required
      .filter((placeholder) => !used.has(placeholder))
      .map((placeholder) => `${name}.json has no {{${placeholder}}} placeholder.`),
    ...[...used]
      .filter((placeholder) => !known.has(placeholder))
      .map(
        (placeholder) =>
          `${name}.json uses {{${placeholder}}}, which is never filled (it may use ${[...known].map((k) => `{{${k}}}`).join(', ')}).`,
      ),
  ];
}

/** An API-format workflow: nodes by id, each `{class_type, inputs}` (links are `[nodeId, output]`). */
export type ComfyWorkflow = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

/**
 * Fills a workflow's placeholders: a string input that is exactly `{{name}}` becomes the value
 * (a number stays a number). A placeholder without a value is a broken workflow for this request.
 */
export function fillWorkflow(
  workflow: ComfyWorkflow,
  values: Record<string, string | number>,
): ComfyWorkflow {
  const filled: ComfyWorkflow = {};
  for (const [id, node] of Object.entries(workflow)) {
    const inputs: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(node.inputs)) {
      const placeholder = typeof value === 'string' ? PLACEHOLDER.exec(value) : null;
      if (!placeholder) {
        inputs[name] = value;
        continue;
      }
      const replacement = values[placeholder[1]!];
      if (replacement === undefined) {
        throw new EngineError(
          'engine.failed',
          `The workflow asks for {{${placeholder[1]}}}, which this request has not.`,
          false,
        );
      }
      inputs[name] = replacement;
    }
    filled[id] = { ...node, inputs };
  }
  return filled;
}

/**
 * A ComfyUI job as Mirra stores it: the prompt id, the workflow that runs it, the server running it
 * and the WebSocket client id it was queued under (its progress messages go to that client only).
 */
export interface ComfyJob {
  promptId: string;
  /** The workflow's name (`face_photo`, `video`, …). */
  mode: string;
  server: string;
  clientId: string | null;
}
export function encodeComfyJob(job: ComfyJob): string {
  return [job.promptId, job.mode, job.server, job.clientId].filter(Boolean).join(' ');
}
export function decodeComfyJob(job: string): ComfyJob {
  const [promptId, mode, server, clientId] = job.split(' ');
  if (!promptId || !mode || !server)
    throw new EngineError('engine.failed', `Not a ComfyUI job: ${job}`, false);
  return { promptId, mode, server, clientId: clientId ?? null };
}

/** A file an output node wrote, as `/view` is asked for it. */
export interface ComfyFile {
  filename: string;
  subfolder: string;
  type: string;
}

/**
 * `GET /history/{id}`'s entry: outputs per node (`images` from SaveImage, and from core SaveVideo
 * with `animated`; `gifs` from VideoHelperSuite's VHS_VideoCombine), and the status (absent until
 * it ended).
 */
export interface ComfyHistoryEntry {
  outputs?: Record<string, { images?: ComfyFile[]; gifs?: ComfyFile[]; videos?: ComfyFile[] }>;
  status?: { status_str?: string; completed?: boolean; messages?: Array<[string, Record<string, unknown>]> };
}

/** `GET /queue`: `[number, prompt_id, prompt, extra_data, outputs]` items running and waiting. */
export interface ComfyQueue {
  queue_running?: Array<[number, string, ...unknown[]]>;
  queue_pending?: Array<[number, string, ...unknown[]]>;
}

export type ComfyState =
  | { kind: 'waiting'; queuePosition: number }
  | { kind: 'running' }
  | { kind: 'done'; file: ComfyFile; isVideo: boolean }
  | { kind: 'failed'; message: string }
  | { kind: 'unknown' };

/**
 * Where a prompt is, from its history entry (ended: its first output image, or the error's
 * message; `status_str: "error"` is final even though `completed` is false) and else the queue
 * (waiting: how many are ahead of it, the running one included).
 */
export function comfyState(
  promptId: string,
  entry: ComfyHistoryEntry | undefined,
  queue: ComfyQueue,
): ComfyState {
  if (entry?.status?.status_str === 'error') {
    const error = entry.status.messages?.find(([event]) => event === 'execution_error')?.[1];
    const message =
      typeof error?.exception_message === 'string' ? error.exception_message : 'The workflow failed.';
    return { kind: 'failed', message };
  }
  if (entry?.status?.status_str === 'success' || entry?.status?.completed) {
    const files = Object.values(entry.outputs ?? {}).flatMap((output) => [
      ...(output.videos ?? []),
      ...(output.gifs ?? []),
      ...(output.images ?? []),
    ]);
    // A saved output first (a preview node's temp file only when nothing was saved); a video first.
    const ranked = [...files.filter((f) => f.type === 'output'), ...files.filter((f) => f.type !== 'output')];
    const file = ranked.find((f) => isVideoFile(f.filename)) ?? ranked[0];
    if (file) return { kind: 'done', file, isVideo: isVideoFile(file.filename) };
    return { kind: 'failed', message: 'The workflow finished without an image.' };
  }
  const pending = (queue.queue_pending ?? []).slice().sort((a, b) => a[0] - b[0]);
  const at = pending.findIndex((item) => item[1] === promptId);
  if (at >= 0) return { kind: 'waiting', queuePosition: at + (queue.queue_running?.length ?? 0) };
  if ((queue.queue_running ?? []).some((item) => item[1] === promptId)) return { kind: 'running' };
  return { kind: 'unknown' };
}

const isVideoFile = (filename: string) => /\.(mp4|webm|mov|mkv)$/i.test(filename);

/**
 * What ComfyUI's WebSocket told about one prompt so far. Messages of other prompts (the socket's
 * client id is this prompt's alone, but `status` is broadcast) change nothing.
 */
export interface ComfySocketState {
  /** `execution_start` seen: no longer waiting in the queue. */
  started: boolean;
  /** `executing {node: null}` (the end: the history is written by then) or `execution_error`/`_interrupted`. */
  ended: boolean;
  /** 0–100: the sampler's steps (`progress` value/max), never going back. */
  progress: number;
  /** The node running now. */
  node: string | null;
}

export const initialSocketState: ComfySocketState = { started: false, ended: false, progress: 0, node: null };

/** The first progress shown once the prompt runs, and the most before it ended. */
const STARTED_PROGRESS = 5;
const MAX_RUNNING_PROGRESS = 95;

/** One WebSocket message applied to a prompt's state (ComfyUI's `{type, data}` JSON frames). */
export function applySocketMessage(
  state: ComfySocketState,
  promptId: string,
  message: { type?: unknown; data?: unknown },
): ComfySocketState {
  const data = (message.data ?? {}) as Record<string, unknown>;
  if (data.prompt_id !== promptId) return state;
  switch (message.type) {
    case 'execution_start':
    case 'execution_cached':
      return { ...state, started: true, progress: Math.max(state.progress, STARTED_PROGRESS) };
    case 'executing':
      if (data.node === null) return { ...state, started: true, ended: true, node: null };
      return {
        ...state,
        started: true,
        node: typeof data.node === 'string' ? data.node : state.node,
        progress: Math.max(state.progress, STARTED_PROGRESS),
      };
    case 'progress': {
      const value = Number(data.value);
      const max = Number(data.max);
      if (!(max > 0) || !Number.isFinite(value)) return state;
      const share = Math.min(1, Math.max(0, value / max));
      const progress = STARTED_PROGRESS + (MAX_RUNNING_PROGRESS - STARTED_PROGRESS) * share;
      return { ...state, started: true, progress: Math.max(state.progress, Math.round(progress)) };
    }
    case 'execution_error':
    case 'execution_interrupted':
      return { ...state, started: true, ended: true };
    default:
      return state;
  }
}
