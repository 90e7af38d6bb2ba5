import type { SharedDeps } from '../../shared/deps.js';
import type { PricingSettings } from '../pricing/index.js';

/** What the photo packs module is handed: its slice of the app's dependencies. */
export interface PhotoPacksDeps extends Pick<
  SharedDeps,
  'config' | 'db' | 'rateLimiter' | 'storage' | 'mediaUrls' | 'now'
> {
  /** The console's per-picture price of a pack whose own price is unset. */
  pricing: PricingSettings;
}
