/**
 * The public face of the credits module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { CreditsDeps } from './credits.deps.js';
export { creditsJobHandlers } from './credits.jobs.js';
export { priceGeneration } from './credits.models.js';
export { registerCreditsRoutes } from './credits.routes.js';
export {
  applyCreditChange,
  getCreditBalance,
  getCreditHistory,
  grantWelcomeCredits,
  hasCreditEntry,
  insufficientCredits,
  lockCredits,
} from './credits.usecases.js';
