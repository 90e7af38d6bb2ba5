import sharp from 'sharp';
import type { TGenerationMode } from '@mirra/contracts';
import {
  engineNote,
  EngineError,
  type EngineContext,
  type EngineRequest,
  type GenerationEngine,
} from '../engines/index.js';

/**
 * Test doubles of our own engine interface, for the lifecycle's failure cases (throwing,
 * hanging, slow, polled). The real engines are tested on their own.
 */
export type Behaviour =
  | { kind: 'succeed'; procedural?: boolean }
  | { kind: 'throw'; code: EngineError['code']; retryable: boolean; message?: string }
  | { kind: 'hang' }
  | { kind: 'slow'; ms: number };

export async function samplePng(width = 320, height = 240, seed = 1): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: (seed * 53) % 255, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
}

export function createScriptedEngine(name = 'test') {
  const calls: EngineRequest[] = [];
  let behaviours: Behaviour[] = [];
  const engine: GenerationEngine & { calls: EngineRequest[]; script(...b: Behaviour[]): void } = {
    name,
    calls,
    script(...next) {
      behaviours = next;
    },
    supports: (_mode: TGenerationMode) => true,
    async start(request: EngineRequest, context: EngineContext) {
      calls.push(request);
      const behaviour = behaviours.shift() ?? { kind: 'succeed' };
      await context.onProgress(25);
      if (behaviour.kind === 'throw') {
        throw new EngineError(behaviour.code, behaviour.message ?? 'scripted failure', behaviour.retryable);
      }
      if (behaviour.kind === 'hang' || behaviour.kind === 'slow') {
        await new Promise<void>((resolve, reject) => {
          const timer = behaviour.kind === 'slow' ? setTimeout(resolve, behaviour.ms) : undefined;
          context.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new EngineError('engine.timeout', 'The engine took too long.', true));
          });
        });
      }
      await context.onProgress(75);
      const data = await samplePng(1200, 800, request.seed);
      return {
        kind: 'done' as const,
        output: {
          data,
          contentType: 'image/png',
          width: 1200,
          height: 800,
          notes: [engineNote(null, 'scripted result')],
          procedural: behaviour.kind === 'succeed' && behaviour.procedural === true,
        },
      };
    },
  };
  return engine;
}
