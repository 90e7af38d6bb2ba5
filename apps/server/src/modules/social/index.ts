/**
 * The public face of the social module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { SocialDeps } from './social.deps.js';
export { registerSocialRoutes } from './social.routes.js';
export { profilePublishedPostCounter } from './social.usecases.js';
