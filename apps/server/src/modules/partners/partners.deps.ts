import type { SharedDeps } from '../../shared/deps.js';

/** What the partner programme is handed at start: its slice of the app's dependencies. */
export type PartnersDeps = Pick<SharedDeps, 'config' | 'db' | 'logger' | 'now'>;
