/**
 * The public face of the partner programme: the only file other modules and the composition root
 * import from it. Commissions come from paid purchases (`createPartnerPaymentListener`, one of
 * payments' listeners), sit frozen in the partner's wallet for the hold, and are reversed by refunds; pay-outs
 * reserve wallet money until an admin approves or rejects them.
 */
export type { PartnersDeps } from './partners.deps.js';
export { partnersJobHandlers } from './partners.jobs.js';
export { registerPartnersRoutes } from './partners.routes.js';
export {
  computeTops,
  createPartnerPaymentListener,
  forgetCachedTops,
  releaseDueCommissions,
} from './partners.usecases.js';
export { approvePayout, listPendingPayouts, rejectPayout } from './payouts.usecases.js';
