import type { EngineRegistry } from '../../engines/index.js';
import type { SharedDeps } from '../../shared/deps.js';

/** What the prompt-helper module is handed at start: its slice of the app's dependencies. */
export type PromptHelperDeps = Pick<SharedDeps, 'config' | 'logger' | 'rateLimiter'> & {
  /** Which engine will serve the wish's mode: the prompt only asks for what it can do. */
  engines: Pick<EngineRegistry, 'offerFor'>;
};
