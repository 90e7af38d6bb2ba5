/**
 * The public face of the google module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export { createGoogleVerifier, type GoogleVerifier } from './google-verifier.js';
export type { GoogleDeps } from './google.deps.js';
export { registerGoogleRoutes } from './google.routes.js';
