/**
 * The public face of the payments module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 *
 * Domain events: modules listen through `PaymentsDeps.paymentListeners` (PaymentListener):
 * `onPaid(tx, order)` when an order becomes paid and `onRefunded(tx, order)` each time more of a
 * paid order is refunded or charged back (`order.amountRefunded`: the total so far), each once, inside the transaction that applied the event
 * (after the purchase's access and unspent credits were taken back), with whether real money moved. Modules that sell something
 * of their own register a handler by order purpose (`PaymentsDeps.purposeHandlers`); it also
 * receives the renewals and changes of provider-run subscriptions.
 *
 * What each payment provider can do is on the provider (`ProviderCapabilities`); other modules ask
 * through the functions below (`subscriptionMethods`, `trialMethods`, `chargesInStars`…), never by
 * a provider's name. The use cases are split by concern: checkout, provider events, renewals,
 * refunds and staff.
 */
export type {
  PaymentEventHandler,
  PaymentListener,
  PaymentOrderStatus,
  PaymentOrderView,
  PaymentPurposeHandlers,
} from './payment-hooks.js';
export type {
  CheckoutStarted,
  InboundWebhook,
  PaymentEvent,
  PaymentEventType,
  PaymentProvider,
  PaymentPurpose,
  ProviderCapabilities,
  ProviderName,
  ProviderOrder,
  ProviderSubscriptionStatus,
  RecurringKind,
  YooKassaMethodType,
} from './payment-provider.js';
export { formatMoney } from './money.js';
export { parseCatalogue } from './payments.models.js';
export { WALLET_BALANCE } from './payment-provider.js';
export type { PaidThrough } from './payment-hooks.js';
export {
  availableMethods,
  chargesInStars,
  methodFacts,
  recurringMethods,
  subscriptionMethods,
  testProviderOf,
  trialMethods,
} from './payments.providers.js';
export type { PaymentsDeps } from './payments.deps.js';
export { paymentsJobHandlers } from './payments.jobs.js';
export { registerPaymentsRoutes } from './payments.routes.js';
export { createStarsPaymentUpdates } from './providers/stars.updates.js';
export {
  guardShownPrice,
  regionOf,
  startPayment,
  type Caller,
  type PaymentRequest,
  type StartPaymentInput,
} from './checkout.usecases.js';
export { applyPaymentEvent } from './provider-events.usecases.js';
export { cancelProviderSubscription, chargeSavedMethod, hasPendingCharge } from './renewals.usecases.js';
export { refundOrder } from './refunds.usecases.js';
export { findOrderOwner, listOrdersForStaff, searchOrdersForStaff } from './staff.usecases.js';
