// Digital models: creating one from photos, training it, its page.
export { modelKeys, modelsApi } from './api/models.api';
export { ConsentPage } from './components/consent-page';
export { ModelCreator } from './components/model-creator';
export { ModelDetails } from './components/model-details';
export { useLiveModel } from './hooks/use-live-model';
export { modelPhase } from './model-status';
