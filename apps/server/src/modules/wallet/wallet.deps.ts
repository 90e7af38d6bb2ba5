import type { SharedDeps } from '../../shared/deps.js';

/** What the wallet module is handed at start: its slice of the app's dependencies. */
export type WalletDeps = Pick<SharedDeps, 'db' | 'logger' | 'now'>;
