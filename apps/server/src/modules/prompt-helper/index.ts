/**
 * The public face of the prompt-helper module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { PromptHelperDeps } from './prompt-helper.deps.js';
export { registerPromptHelperRoutes } from './prompt-helper.routes.js';
