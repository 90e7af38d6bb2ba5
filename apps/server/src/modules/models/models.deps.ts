import type { ModelTrainer } from '../../engines/index.js';
import type { SharedDeps } from '../../shared/deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import type { SessionCache } from '../auth/index.js';
import type { FaceAnalyzer } from '@mirra/imaging';
import type { GenerationEvents } from '../generations/index.js';

/** What the models module is handed at start: its slice of the app's dependencies. */
export interface ModelsDeps extends Pick<
  SharedDeps,
  'config' | 'db' | 'linkSecret' | 'logger' | 'rateLimiter' | 'storage' | 'mediaUrls' | 'now'
> {
  sessionCache: SessionCache;
  /** Live training progress of digital models (same event shape, own channel). */
  modelEvents: GenerationEvents;
  /** Face detection, mesh and descriptor (models load once per process, on first use). */
  faceAnalyzer: FaceAnalyzer;
  /** Providers that train LoRAs, in ENGINE_TRAINING's order (`local` alone: none). */
  modelTrainers: ModelTrainer[];
  /** Posts made with a model, provided by posts (which cannot be imported from here). */
  modelPosts: ModelPosts;
}

/**
 * What a withdrawal of consent asks of posts, in the withdrawal's transaction: every post made
 * with the model taken down (out of every feed, for good). Returns how many there were.
 */
export interface ModelPosts {
  removePostsMadeWith(tx: DbOrTx, modelUuid: string): Promise<number>;
}

export type {
  ModelTrainer,
  ModelTrainingPoll,
  ModelTrainingRequest,
  ProviderLora,
} from '../../engines/index.js';
