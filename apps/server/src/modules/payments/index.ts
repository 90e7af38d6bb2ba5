/** Payments: the catalogue, orders, providers behind one interface, and their notifications. */
export { registerPaymentsRoutes } from './payments.routes.js';
export type { PaymentEvent, PaymentProvider, ProviderOrder } from './payment-provider.js';
export { applyPaymentEvent, receiveWebhook, testProviderOf } from './payments.usecases.js';
