import type { SharedDeps } from '../../shared/deps.js';

/** What the credits module is handed at start: its slice of the app's dependencies. */
export type CreditsDeps = Pick<SharedDeps, 'db' | 'logger' | 'now'>;
