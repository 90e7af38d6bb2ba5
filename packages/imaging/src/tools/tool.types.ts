import type { EngineNote } from '../pipeline.types.js';

/** What a local picture tool (background, inpaint, outpaint) hands back: one encoded picture. */
export interface ToolResult {
  data: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  notes: EngineNote[];
}

/** Progress and stopping, as the upscale and restore tools take them. */
export interface ToolProgress {
  /**
   * The share done, 0–1, after each heavy step; awaited, so it may throw to stop the work (the
   * server's progress reporter throws its own error for a cancelled job).
   */
  onProgress?: (fraction: number) => void | Promise<void>;
  /** Aborting stops the work at the next step, throwing the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Awaited between heavy steps: reports progress, throws if the work was stopped, and yields a
 * macrotask so a worker thread's other messages (progress, stop) are served in between.
 */
export type Step = (fraction: number) => Promise<void>;

export function stepOf(options: ToolProgress): Step {
  return async (fraction) => {
    options.signal?.throwIfAborted();
    await options.onProgress?.(Math.min(1, Math.max(0, fraction)));
    await new Promise((resolve) => setImmediate(resolve));
    options.signal?.throwIfAborted();
  };
}
