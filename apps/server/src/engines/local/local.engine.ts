import {
  createFaceAnalyzer,
  createPersonSegmenter,
  type FaceAnalyzer,
  type PersonSegmenter,
} from '@mirra/imaging';
import type { ThreadPool } from '../../shared/thread-pool.js';
import type { TGenerationMode } from '@mirra/contracts';
import type { EngineCapability, EngineStart, GenerationEngine } from '../engine.types.js';
import {
  LOCAL_ENGINE_CAPABILITIES,
  LOCAL_ENGINE_MODES,
  runLocalEngine,
  type LocalVideoOptions,
} from './local.render.js';
import { renderInThread } from './local.threaded.js';

/**
 * The offline engine: real image processing with sharp and hand-written pixel operations, no
 * network (see local.render.ts). It finishes inside `start` (a few seconds at most), so it has no
 * poll or cancel; the signal is checked between stages instead. With `threads` every render runs
 * on a pool thread (the thread entry exports `renderLocally`), leaving this event loop free; the
 * bytes are the same either way.
 */
export function createLocalEngine(
  options: {
    faceAnalyzer?: FaceAnalyzer;
    personSegmenter?: PersonSegmenter;
    video?: LocalVideoOptions;
    threads?: ThreadPool;
  } = {},
): GenerationEngine {
  const video = options.video ?? {};
  const { threads } = options;
  if (threads) {
    return {
      name: 'local',
      supports: (mode) => LOCAL_ENGINE_MODES.has(mode),
      capability,
      async start(request, context): Promise<EngineStart> {
        return { kind: 'done', output: await renderInThread(threads, request, context, video) };
      },
    };
  }
  // The analyser's models load once per process, on the first face swap.
  const faceAnalyzer = options.faceAnalyzer ?? createFaceAnalyzer();
  // The selfie segmentation model loads once per process, on the first photo without a face.
  const personSegmenter = options.personSegmenter ?? createPersonSegmenter();
  return {
    name: 'local',
    supports: (mode) => LOCAL_ENGINE_MODES.has(mode),
    capability,
    async start(request, context): Promise<EngineStart> {
      const output = await runLocalEngine(request, context, { faceAnalyzer, personSegmenter }, video);
      return { kind: 'done', output };
    },
  };
}

const capability = (mode: TGenerationMode): EngineCapability =>
  LOCAL_ENGINE_CAPABILITIES[mode] ?? { ai: false, abilities: [] };

export type { LocalVideoOptions } from './local.render.js';
