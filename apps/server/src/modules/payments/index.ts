/**
 * The public face of the payments module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { PaymentsDeps } from './payments.deps.js';
export { registerPaymentsRoutes } from './payments.routes.js';
export { testProviderOf } from './payments.usecases.js';
export { ignorePurchases, type PaidPurchase, type PurchaseListener } from './purchase-listener.js';
