/**
 * The public face of the dev module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { DevDeps } from './dev.deps.js';
export { registerDevRoutes } from './dev.routes.js';
