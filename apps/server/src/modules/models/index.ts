/**
 * The public face of the models module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type {
  ModelPosts,
  ModelsDeps,
  ModelTrainer,
  ModelTrainingPoll,
  ModelTrainingRequest,
  ProviderLora,
} from './models.deps.js';
export { modelsJobDefinitions, trainModelJob } from './models.jobs.definitions.js';
export { failOrphanedTraining } from './model-training-run.usecases.js';
export { modelsJobHandlers, requeueTrainingOfDeadRun } from './models.jobs.js';
export { createModelTrainingStore } from './model-provider-training.usecases.js';
export { MODEL_EVENTS_CHANNEL } from './models.models.js';
export { findUsableModel } from './model-usable.usecases.js';
export { registerModelsRoutes } from './models.routes.js';
export { isConsentWithdrawn } from './consent.usecases.js';
export { hasVerifiedFace } from './live-check.usecases.js';
export {
  deleteModelByStaff,
  findTrainedModel,
  isOwnModel,
  listModelsForStaff,
  loadModelPhoto,
} from './models.usecases.js';
