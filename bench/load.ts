import { Worker } from 'node:worker_threads';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Closed-loop load from a worker thread, so the client does not share the server's event loop:
 * `connections` keep-alive sockets, each sending its next request as soon as the last answered.
 */
export function runLoad(options: {
  url: string;
  headers?: Record<string, string>;
  /** One set of headers per connection (e.g. one signed-in user each), used round-robin. */
  headersPerConnection?: Array<Record<string, string>>;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  /** JSON text sent with each request. */
  body?: string;
  /** The status that counts as success (200 by default). */
  okStatus?: number;
  /** Ends the load early (before `seconds`) once its first cell is set to 1 (see `stopSignal`). */
  stopFlag?: Int32Array;
  /** Each connection waits this long after an answer (paced sampling instead of a saturating loop). */
  pauseMs?: number;
}): Promise<LoadResult> {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: options });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/** A flag shared with the load's thread: `stop()` ends a load started with `{ stopFlag: flag }`. */
export function stopSignal(): { flag: Int32Array; stop(): void } {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  return { flag, stop: () => Atomics.store(flag, 0, 1) };
}
