import type { SharedDeps } from '../../shared/deps.js';
import type { EngineRegistry } from '../../engines/index.js';

/** What the ops module is handed at start: its slice of the app's dependencies. */
export interface OpsDeps extends Pick<SharedDeps, 'config' | 'database' | 'db' | 'logger' | 'storage'> {
  /** The engine for each generation mode (configuration). */
  engines: EngineRegistry;
}
