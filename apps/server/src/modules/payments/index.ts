/**
 * The public face of the payments module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 *
 * Domain events: modules listen through `PaymentsDeps.paymentListeners` (PaymentListener):
 * `onPaid(tx, order)` when an order becomes paid and `onRefunded(tx, order)` when a paid order is
 * refunded or charged back, each once per order, inside the transaction that applied the event.
 * Modules that sell something of their own apply its events through
 * `PaymentsDeps.paymentPurposeHandlers` (subscriptions; the wallet top-up's is `applyWalletTopUpEvent`).
 */
export type { PaymentListener } from './payment-hooks.js';
export { applyWalletTopUpEvent } from './payments.wallet.js';
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
  hasPendingCharge,
  refundOrder,
  regionOf,
  type Caller,
  startPayment,
  testProviderOf,
  type StartPaymentInput,
} from './payments.usecases.js';
