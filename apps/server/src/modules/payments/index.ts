/**
 * The public face of the payments module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 *
 * Domain events: modules listen through `PaymentsDeps.paymentListeners` (PaymentListener):
 * `onPaid(tx, order)` when an order becomes paid and `onRefunded(tx, order)` each time more of a
 * paid order is refunded or charged back (`order.amountRefunded`: the total so far), each once, inside the transaction that applied the event
 * (after the purchase's access and unspent credits were taken back). Modules that sell something
 * of their own register a handler by order purpose (`PaymentsDeps.purposeHandlers`); it also
 * receives the renewals and changes of provider-run subscriptions (Stripe, Telegram Stars).
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
  ProviderName,
  ProviderOrder,
  YooKassaMethodType,
} from './payment-provider.js';
export { formatMoney } from './money.js';
export { parseCatalogue } from './payments.models.js';
export { providerOfMethod } from './payment-provider.js';
export type { PaymentsDeps } from './payments.deps.js';
export { paymentsJobHandlers } from './payments.jobs.js';
export { registerPaymentsRoutes } from './payments.routes.js';
export { createStarsPaymentUpdates } from './payments.stars.js';
export {
  applyPaymentEvent,
  availableMethods,
  cancelProviderSubscription,
  chargeSavedMethod,
  findOrderOwner,
  guardShownPrice,
  listOrdersForStaff,
  searchOrdersForStaff,
  hasPendingCharge,
  recurringMethods,
  refundOrder,
  regionOf,
  startPayment,
  testProviderOf,
  type Caller,
  type PaymentRequest,
  type StartPaymentInput,
} from './payments.usecases.js';
