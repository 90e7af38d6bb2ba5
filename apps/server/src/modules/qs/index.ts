/**
 * The public face of the qs module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { QsDeps } from './qs.deps.js';
export { registerQsRoutes } from './qs.routes.js';
