import type { FaceAnalyzer } from '@mirra/imaging';
import type { SharedDeps } from '../../shared/deps.js';
import type { PricingSettings } from '../pricing/index.js';
import type { ImageModerator, PromptModerator } from '../moderation/index.js';
import type { EngineRegistry } from '../../engines/index.js';
import type { GenerationEvents } from './generation-events.js';
import type { GenerationSources } from './generation-sources.js';

/** What the generations module is handed at start: its slice of the app's dependencies. */
export interface GenerationsDeps extends Pick<
  SharedDeps,
  'config' | 'db' | 'logger' | 'storage' | 'mediaUrls' | 'now'
> {
  /** Checks prompts before anything is charged. */
  promptModerator: PromptModerator;
  /** Checks results before anyone sees them. */
  imageModerator: ImageModerator;
  /** The engine for each generation mode (configuration). */
  engines: EngineRegistry;
  /** Live generation progress for server-sent events. */
  generationEvents: GenerationEvents;
  /** Posts as the sources of generations (repeat/remix and its royalty), provided by posts. */
  generationSources: GenerationSources;
  /** Generation prices and the free tier in force (the configuration's, or the staff console's). */
  pricing: PricingSettings;
  /** Finds the faces of a face result, whose likeness to the digital model is checked. */
  faceAnalyzer: FaceAnalyzer;
}
