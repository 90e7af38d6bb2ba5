import type { GeoLocator } from './geo-locator.js';

/** What the geo module is handed at start: its slice of the app's dependencies. */
export interface GeoDeps {
  geo: GeoLocator;
}
