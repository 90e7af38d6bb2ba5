import os from 'node:os';
import type { TransferListItem } from 'node:worker_threads';
import { Piscina } from 'piscina';

/** Lower priority of pool threads: a request on the process's main thread is served first. */
const THREAD_NICENESS = 10;

/**
 * Worker threads for CPU-heavy work (pixels, model inference), so the calling process's event
 * loop stays free to answer requests and run jobs. Tasks are the named exports of one module.
 */
export interface ThreadPool {
  /** How many threads run tasks at once (more tasks wait in the queue). */
  readonly size: number;
  /** Threads running now: none before the first task and after `close`. */
  liveThreads(): number;
  /**
   * Runs the entry module's export `task` with `input` (structured-cloned, or moved when listed
   * in `transferList`) on a free thread. A task that should stop early is told so through a
   * MessagePort of its own (see local.threaded.ts): a thread and its loaded models are never
   * killed halfway.
   */
  run<T>(task: string, input: unknown, options?: { transferList?: TransferListItem[] }): Promise<T>;
  /** Waits for running tasks, then stops every thread; later `run`s start a fresh pool. */
  close(): Promise<void>;
}

/** IMAGING_THREADS' default: every core but one for the process's own thread, at most four. */
export function defaultThreadCount(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/**
 * A pool over `entry` (a module URL). Threads start on the first task, not here: a process that
 * never does pixel work (an API process with the worker apart) holds no threads. The entry must
 * be JavaScript: a thread does not inherit its parent's TypeScript loader.
 */
export function createThreadPool(options: { entry: URL; threads: number }): ThreadPool {
  const size = Math.max(1, options.threads);
  let pool: Piscina | null = null;
  const open = () =>
    (pool ??= new Piscina({
      filename: options.entry.href,
      minThreads: size,
      maxThreads: size,
      // minThreads = maxThreads: threads stay, each keeping its loaded models for the next task.
      niceIncrement: THREAD_NICENESS,
    }));
  return {
    size,
    liveThreads: () => pool?.threads.length ?? 0,
    run<T>(task: string, input: unknown, runOptions: { transferList?: TransferListItem[] } = {}) {
      return open().run(input, {
        name: task,
        transferList: runOptions.transferList,
      }) as Promise<T>;
    },
    async close() {
      const closing = pool;
      pool = null;
      await closing?.close();
    },
  };
}
