import type { SharedDeps } from '../../shared/deps.js';

/** What the qs module is handed at start: its slice of the app's dependencies. */
export type QsDeps = Pick<SharedDeps, 'config' | 'db' | 'rateLimiter'>;
