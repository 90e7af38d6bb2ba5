import type { SharedDeps } from '../../shared/deps.js';

/** What the prompt-helper module is handed at start: its slice of the app's dependencies. */
export type PromptHelperDeps = Pick<SharedDeps, 'config' | 'logger' | 'rateLimiter'>;
