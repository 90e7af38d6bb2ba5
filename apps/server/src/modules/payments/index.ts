/**
 * The public face of the payments module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { PaymentsDeps } from './payments.deps.js';
export type {
  CheckoutStarted,
  InboundWebhook,
  PaymentEvent,
  PaymentEventHandler,
  PaymentEventType,
  PaymentOrderView,
  PaymentProvider,
  PaymentPurpose,
  PaymentPurposeHandlers,
  ProviderName,
  ProviderOrder,
  YooKassaMethodType,
} from './payment-provider.js';
export { providerOfMethod } from './payment-provider.js';
export { paymentsJobHandlers } from './payments.jobs.js';
export { registerPaymentsRoutes } from './payments.routes.js';
export { createStarsPaymentUpdates } from './payments.stars.js';
export {
  applyPaymentEvent,
  availableMethods,
  cancelProviderSubscription,
  CONSENT_REQUIRED_DETAIL,
  chargeSavedMethod,
  refundOrder,
  startPayment,
  testProviderOf,
  type StartPaymentInput,
} from './payments.usecases.js';
