/**
 * The public face of the app-config module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { AppConfigDeps } from './app-config.deps.js';
export { registerAppConfigRoutes } from './app-config.routes.js';
