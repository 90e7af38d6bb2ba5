import type { SharedDeps } from '../../shared/deps.js';

/** What the media module is handed at start: its slice of the app's dependencies. */
export type MediaDeps = Pick<SharedDeps, 'storage' | 'mediaUrls' | 'now'>;
