import type { SharedDeps } from '../../shared/deps.js';
import type { ImageModerator, PromptModerator } from '../moderation/index.js';
import type { PublishedPostCounter } from './published-post-counter.js';

/** What the posts module is handed at start: its slice of the app's dependencies. */
export interface PostsDeps extends Pick<SharedDeps, 'config' | 'db' | 'storage' | 'mediaUrls' | 'now'> {
  /** Profiles' count of published posts, kept by social and changed by posts. */
  publishedPostCounter: PublishedPostCounter;
  /** Checks prompts before anything is charged. */
  promptModerator: PromptModerator;
  /** Checks results before anyone sees them. */
  imageModerator: ImageModerator;
}
