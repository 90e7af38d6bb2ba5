/**
 * The public face of the geo module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export { createGeoLocator, type GeoLocator } from './geo-locator.js';
export type { GeoDeps } from './geo.deps.js';
export { registerGeoRoutes } from './geo.routes.js';
