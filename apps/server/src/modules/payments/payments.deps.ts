import type { SharedDeps } from '../../shared/deps.js';
import type { GeoLocator } from '../geo/index.js';

/** What the payments module is handed at start: its slice of the app's dependencies. */
export interface PaymentsDeps extends Pick<SharedDeps, 'config' | 'db' | 'logger' | 'linkSecret' | 'now'> {
  geo: GeoLocator;
}
