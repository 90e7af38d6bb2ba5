import { routes, type TEngineOffer, type TGenerationMode } from '@mirra/contracts';
import type { Config } from '../shared/config.js';
import { AppError } from '../shared/errors.js';
import type { ThreadPool } from '../shared/thread-pool.js';
import { createComfyUiEngine } from './comfyui/comfyui.engine.js';
import { createFalEngine } from './fal/fal.engine.js';
import { createOpenAiImagesEngine } from './openai/openai-images.engine.js';
import { createReplicateEngine } from './replicate/replicate.engine.js';
import { GENERATIVE_MODEL, type GenerationEngine } from './engine.types.js';
import { createLocalEngine } from './local/local.engine.js';

/** Picks the engines configured for each mode (ENGINE_SIMPLE=fal,local, …), in order. */
export interface EngineRegistry {
  /** The first engine of the mode's list (the one a new generation is recorded with). */
  engineFor(mode: TGenerationMode): GenerationEngine;
  /** Every engine of the mode's list that this build has and that serves the mode, in order. */
  enginesFor(mode: TGenerationMode): GenerationEngine[];
  /** An engine by name (a job resumed with the provider that accepted it). */
  byName(name: string): GenerationEngine | undefined;
  /** Whether some engine serves the mode (the create screen hides modes that none serves). */
  isAvailable(mode: TGenerationMode): boolean;
  /** The names of the engines this build has (a configured name outside them is a mistake). */
  engineNames(): string[];
  /** The engine a new generation of the mode goes to and what it can do; null when none serves. */
  offerFor(mode: TGenerationMode): TEngineOffer | null;
}

export function createEngineRegistry(
  config: Config,
  engines: GenerationEngine[] = createBuiltInEngines(config),
): EngineRegistry {
  const byName = new Map(engines.map((engine) => [engine.name, engine]));
  const enginesFor = (mode: TGenerationMode) =>
    config.engines[mode].flatMap((name) => {
      const engine = byName.get(name);
      return engine?.supports(mode) ? [engine] : [];
    });
  return {
    engineFor(mode) {
      const engine = enginesFor(mode)[0];
      if (!engine) {
        throw new AppError({
          code: 'generations.mode_unavailable',
          fields: { mode: [`This server has no engine for ${mode} yet.`] },
        });
      }
      return engine;
    },
    enginesFor,
    byName: (name) => byName.get(name),
    isAvailable: (mode) => enginesFor(mode).length > 0,
    engineNames: () => [...byName.keys()],
    offerFor(mode) {
      const engine = enginesFor(mode)[0];
      if (!engine) return null;
      const { ai, abilities } = engine.capability?.(mode) ?? GENERATIVE_MODEL;
      return { engine: engine.name, ai, abilities: [...abilities] };
    },
  };
}

/**
 * The engines this build knows; a provider's engine exists only when its key is configured. With
 * `localThreads` the local engine renders on those pool threads, off the caller's event loop.
 */
export function createBuiltInEngines(
  config: Config,
  options: { localThreads?: ThreadPool } = {},
): GenerationEngine[] {
  const engines: GenerationEngine[] = [createLocalEngine({ threads: options.localThreads })];
  if (config.fal) {
    const webhookUrl = `${config.publicUrl}${routes.engines.falWebhook.path}`;
    engines.push(createFalEngine(config.fal, config.providerPrices, webhookUrl));
  }
  if (config.replicate) {
    const webhookUrl = `${config.publicUrl}${routes.engines.replicateWebhook.path}`;
    engines.push(createReplicateEngine(config.replicate, config.providerPrices, webhookUrl));
  }
  if (config.comfyui.servers.length > 0) {
    engines.push(createComfyUiEngine(config.comfyui, config.providerPrices));
  }
  if (config.openai.apiKey) {
    engines.push(
      createOpenAiImagesEngine(
        {
          apiKey: config.openai.apiKey,
          baseUrl: config.openai.baseUrl,
          model: config.openai.imagesModel,
          quality: config.openai.imagesQuality,
        },
        config.providerPrices,
      ),
    );
  }
  return engines;
}
