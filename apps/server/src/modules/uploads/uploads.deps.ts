import type { SharedDeps } from '../../shared/deps.js';

/** What the uploads module is handed at start: its slice of the app's dependencies. */
export type UploadsDeps = Pick<SharedDeps, 'config' | 'db' | 'rateLimiter' | 'storage' | 'mediaUrls' | 'now'>;
