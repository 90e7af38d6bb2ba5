import type { SharedDeps } from '../../shared/deps.js';

/** What the provenance module is handed: its slice of the app's dependencies. */
export type ProvenanceDeps = Pick<SharedDeps, 'config' | 'db' | 'now' | 'rateLimiter' | 'logger'>;
