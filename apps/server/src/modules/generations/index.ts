/**
 * The public face of the generations module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export { createGenerationEvents, type GenerationEvents } from './generation-events.js';
export type { GenerationFromPostRequest, GenerationSources, PostSource } from './generation-sources.js';
export type { GenerationsDeps } from './generations.deps.js';
export { generationsJobDefinitions, runGenerationJob } from './generations.jobs.definitions.js';
export { failOrphanedGenerations } from './generation-finish.usecases.js';
export { removeGenerationForGood } from './generation-removal.usecases.js';
export { generationsJobHandlers, requeueGenerationOfDeadRun } from './generations.jobs.js';
export type { GenerationRow } from './generations.repository.js';
export { registerGenerationsRoutes } from './generations.routes.js';
export type { StoredResult } from './generations.serializers.js';
export { findOwnGeneration, generationNotFound } from './generations.usecases.js';
export { createGenerationStore } from './provider-jobs.usecases.js';
export {
  listFailedGenerations,
  listGenerationsForStaff,
  refundGenerationByStaff,
  retryEnginesByMode,
  retryGenerationByStaff,
} from './generation-staff.usecases.js';
