import type { ModelTrainer } from '../../engines/index.js';
import type { SharedDeps } from '../../shared/deps.js';
import type { SessionCache } from '../auth/index.js';
import type { FaceAnalyzer } from '@mirra/imaging';
import type { GenerationEvents } from '../generations/index.js';

/** What the models module is handed at start: its slice of the app's dependencies. */
export interface ModelsDeps extends Pick<
  SharedDeps,
  'config' | 'db' | 'logger' | 'rateLimiter' | 'storage' | 'mediaUrls' | 'now'
> {
  sessionCache: SessionCache;
  /** Live training progress of digital models (same event shape, own channel). */
  modelEvents: GenerationEvents;
  /** Face detection, mesh and descriptor (models load once per process, on first use). */
  faceAnalyzer: FaceAnalyzer;
  /** Providers that train LoRAs, in ENGINE_TRAINING's order (`local` alone: none). */
  modelTrainers: ModelTrainer[];
}

export type {
  ModelTrainer,
  ModelTrainingPoll,
  ModelTrainingRequest,
  ProviderLora,
} from '../../engines/index.js';
