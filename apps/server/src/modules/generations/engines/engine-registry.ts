import type { TGenerationMode } from '@mirra/contracts';
import type { Config } from '../../../app/config.js';
import { AppError } from '../../../shared/errors.js';
import type { GenerationEngine } from './engine.types.js';
import { createLocalEngine } from './local/local.engine.js';

/** Picks the engine configured for each mode (ENGINE_SIMPLE=local, …). */
export interface EngineRegistry {
  engineFor(mode: TGenerationMode): GenerationEngine;
  /** Whether some engine serves the mode (the create screen hides modes that none serves). */
  isAvailable(mode: TGenerationMode): boolean;
  /** The names of the engines this build has (a configured name outside them is a mistake). */
  engineNames(): string[];
}

export function createEngineRegistry(
  config: Config,
  engines: GenerationEngine[] = builtInEngines(config),
): EngineRegistry {
  const byName = new Map(engines.map((engine) => [engine.name, engine]));
  const find = (mode: TGenerationMode) => {
    const engine = byName.get(config.engines[mode]);
    return engine?.supports(mode) ? engine : undefined;
  };
  return {
    engineFor(mode) {
      const engine = find(mode);
      if (!engine) {
        throw new AppError({
          code: 'generations.mode_unavailable',
          fields: { mode: [`This server has no engine for ${mode} yet.`] },
        });
      }
      return engine;
    },
    isAvailable: (mode) => Boolean(find(mode)),
    engineNames: () => [...byName.keys()],
  };
}

/** The engines this build knows; provider engines join here as they land (fal, Replicate, …). */
function builtInEngines(_config: Config): GenerationEngine[] {
  return [createLocalEngine()];
}
