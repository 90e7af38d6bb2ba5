import type { TGenerationMode } from '@mirra/contracts';
import { EngineError } from '../engine.types.js';

/** The modes a ComfyUI workflow is shipped for (a face photo needs a LoRA: not offered). */
export type ComfyMode = Extract<TGenerationMode, 'simple' | 'editing' | 'styling' | 'face_swap'>;
export const COMFY_MODES: readonly ComfyMode[] = ['simple', 'editing', 'styling', 'face_swap'];

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
      const placeholder = typeof value === 'string' ? /^\{\{(\w+)\}\}$/.exec(value) : null;
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

/** A ComfyUI job as Mirra stores it: the prompt id, the workflow's mode and the server running it. */
export function encodeComfyJob(promptId: string, mode: string, server: string): string {
  return `${promptId} ${mode} ${server}`;
}
export function decodeComfyJob(job: string): { promptId: string; mode: string; server: string } {
  const [promptId, mode, server] = job.split(' ');
  if (!promptId || !mode || !server)
    throw new EngineError('engine.failed', `Not a ComfyUI job: ${job}`, false);
  return { promptId, mode, server };
}

/** `GET /history/{id}`'s entry: outputs per node, and the status (absent until it ended). */
export interface ComfyHistoryEntry {
  outputs?: Record<string, { images?: Array<{ filename: string; subfolder: string; type: string }> }>;
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
  | { kind: 'done'; image: { filename: string; subfolder: string; type: string } }
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
    for (const output of Object.values(entry.outputs ?? {})) {
      const image = output.images?.find((item) => item.type === 'output') ?? output.images?.[0];
      if (image) return { kind: 'done', image };
    }
    return { kind: 'failed', message: 'The workflow finished without an image.' };
  }
  const pending = (queue.queue_pending ?? []).slice().sort((a, b) => a[0] - b[0]);
  const at = pending.findIndex((item) => item[1] === promptId);
  if (at >= 0) return { kind: 'waiting', queuePosition: at + (queue.queue_running?.length ?? 0) };
  if ((queue.queue_running ?? []).some((item) => item[1] === promptId)) return { kind: 'running' };
  return { kind: 'unknown' };
}
