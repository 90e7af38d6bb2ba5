import type { SharedDeps } from '../../shared/deps.js';

/** What the dev module is handed at start: its slice of the app's dependencies. */
export type DevDeps = Pick<SharedDeps, 'config' | 'now'>;
