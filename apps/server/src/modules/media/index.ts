/**
 * The public face of the media module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { MediaDeps } from './media.deps.js';
export { registerMediaRoutes } from './media.routes.js';
