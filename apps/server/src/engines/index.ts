/**
 * The public face of the engines: the only file modules and the composition root import from
 * here. Each engine lives in its own folder (`local/`, `fal/`, …) behind `GenerationEngine`; the
 * registry picks them per mode, and the fallback rule says when a failure moves to the next one.
 */
export { movesToNextEngine } from './engine-fallback.models.js';
export { createBuiltInEngines, createEngineRegistry, type EngineRegistry } from './engine-registry.js';
export {
  type EngineCapability,
  EngineError,
  engineNote,
  GENERATIVE_MODEL,
  type EngineContext,
  type EngineErrorCode,
  type EngineFaceModel,
  type EngineImage,
  type EngineNote,
  type EngineOutput,
  type EnginePoll,
  type EngineRequest,
  type EngineToolSettings,
  type EngineStart,
  type GenerationEngine,
  type GenerationStore,
  type ProviderJobEnding,
  type ProviderJobOutcome,
} from './engine.types.js';
export { registerFalWebhookRoutes, type FalWebhookDeps } from './fal/fal-webhook.routes.js';
export { createLocalEngine, type LocalVideoOptions } from './local/local.engine.js';
export { LOCAL_RENDER_TASK, renderLocally } from './local/local.threaded.js';
export {
  registerReplicateWebhookRoutes,
  type ReplicateWebhookDeps,
} from './replicate/replicate-webhook.routes.js';
export { createModelTrainers } from './trainers.js';
export type {
  ModelTrainer,
  ModelTrainingPoll,
  ModelTrainingRequest,
  ModelTrainingStore,
  ProviderLora,
  ProviderTrainingOutcome,
} from './trainer.types.js';
