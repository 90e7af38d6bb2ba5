import type { FaceAnalysis, FaceAnalyzer } from '@mirra/imaging';
import { createThreadPool, type ThreadPool } from '../shared/thread-pool.js';
import type { NsfwScores } from '../modules/moderation/index.js';
import type * as ThreadTasks from './imaging.thread.js';

/** The task names are the thread entry's export names (checked here at compile time). */
const TASKS = {
  analyzeFaces: 'analyzeFaces',
  analyzeLiveFrame: 'analyzeLiveFrame',
  warmUpFaces: 'warmUpFaces',
  classifyImage: 'classifyImage',
} as const satisfies { [K in keyof typeof ThreadTasks]?: K };

/**
 * The pool of imaging threads: local renders, face analysis of model photos and the NSFW
 * classifier run there, so neither the API's nor the job worker's event loop waits on pixels. In
 * the source tree the threads run imaging.thread.ts (through imaging.thread.source.mjs, which
 * loads it with tsx); the built server runs imaging.thread.js beside its entries.
 */
export function createImagingThreads(threads: number): ThreadPool {
  const built = !import.meta.url.endsWith('.ts');
  const entry = new URL(built ? './imaging.thread.js' : './imaging.thread.source.mjs', import.meta.url);
  return createThreadPool({ entry, threads });
}

/** A FaceAnalyzer whose analysis runs on the pool (same results as createFaceAnalyzer's). */
export function pooledFaceAnalyzer(pool: ThreadPool): FaceAnalyzer {
  return {
    analyze: (image, options) =>
      pool.run<FaceAnalysis>(options?.spoofScores ? TASKS.analyzeLiveFrame : TASKS.analyzeFaces, image),
    warmUp: () => pool.run<void>(TASKS.warmUpFaces, null),
  };
}

/** The NSFW classifier's scores, computed on the pool. */
export function pooledNsfwClassifier(pool: ThreadPool): (image: Buffer) => Promise<NsfwScores> {
  return (image) => pool.run<NsfwScores>(TASKS.classifyImage, image);
}
