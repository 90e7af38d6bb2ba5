import type { SharedDeps } from '../../shared/deps.js';

/** What the notifications module is handed at start: its slice of the app's dependencies. */
export type NotificationsDeps = Pick<SharedDeps, 'db' | 'now'>;
