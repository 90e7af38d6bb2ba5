import type { EngineRegistry } from '../../engines/index.js';
import type { SharedDeps } from '../../shared/deps.js';
import type { PricingSettings } from '../pricing/index.js';

/** What the app-config module is handed at start: its slice of the app's dependencies. */
export type AppConfigDeps = Pick<SharedDeps, 'config'> & {
  engines: Pick<EngineRegistry, 'isAvailable' | 'offerFor'>;
  modelTrainers: readonly unknown[];
  pricing: PricingSettings;
};
