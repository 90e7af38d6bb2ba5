import type { SharedDeps } from '../../shared/deps.js';
import type { PricingSettings } from './pricing-settings.js';

/** What the pricing module is handed at start: its slice of the app's dependencies. */
export interface PricingDeps extends Pick<SharedDeps, 'db'> {
  /** The catalogue and prices in force (defaults with the console's overrides). */
  pricing: PricingSettings;
}
