import type { SharedDeps } from '../../shared/deps.js';
import type { PostsDeps } from '../posts/index.js';

/**
 * What the social module is handed at start: its slice of the app's dependencies. A profile's
 * posts are listed by the posts module, so it takes what posts needs.
 */
export type SocialDeps = Pick<SharedDeps, 'config' | 'db'> & PostsDeps;
