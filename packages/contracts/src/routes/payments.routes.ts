import { defineRoute } from './define-route.js';

const tags = ['payments'];

export const paymentsRoutes = {
  catalogue: defineRoute({
    method: 'GET',
    path: '/api/payments/catalogue/',
    auth: 'required',
    tags,
    summary: 'Products and prices in my region',
    response: { 200: 'ZPaymentCatalogue' },
  }),
  changeRegion: defineRoute({
    method: 'PUT',
    path: '/api/payments/region/',
    auth: 'required',
    tags,
    summary: 'Change my price region',
    body: 'ZPaymentRegionChange',
    response: { 200: 'ZPaymentCatalogue' },
  }),
  createOrder: defineRoute({
    method: 'POST',
    path: '/api/payments/orders/',
    auth: 'required',
    tags,
    summary: 'Order a product; answers where to pay it',
    body: 'ZPaymentOrderCreate',
    response: { 201: 'ZPaymentOrderCreated' },
    errors: [
      'payments.consent_required',
      'payments.product_unknown',
      'payments.method_unavailable',
      'payments.email_required',
      'payments.price_changed',
    ],
  }),
  order: defineRoute({
    method: 'GET',
    path: '/api/payments/orders/:uuid/',
    auth: 'required',
    tags,
    summary: 'One of my orders',
    params: 'ZPaymentOrderParams',
    response: { 200: 'ZPaymentOrder' },
    errors: ['payments.order_not_found'],
  }),
  /**
   * The buyer came back through the checkout's cancel link: the provider's checkout is closed, so
   * it can no longer be paid, and the order answers as it now stands (cancelled, or paid when the
   * payment beat the cancel).
   */
  cancelOrder: defineRoute({
    method: 'POST',
    path: '/api/payments/orders/:uuid/cancel/',
    auth: 'required',
    tags,
    summary: 'Close an unpaid checkout I left',
    params: 'ZPaymentOrderParams',
    response: { 200: 'ZPaymentOrder' },
    errors: ['payments.order_not_found'],
  }),
  /** SberPay's return page polls it; the invoice's key (not its uuid alone) opens it, signed in or not. */
  invoice: defineRoute({
    method: 'GET',
    path: '/api/payments/invoices/:uuid/',
    auth: 'none',
    tags,
    summary: 'An invoice’s live state (the SberPay return page)',
    params: 'ZPaymentOrderParams',
    query: 'ZPaymentInvoiceQuery',
    response: { 200: 'ZPaymentInvoiceState' },
    errors: ['payments.order_not_found'],
  }),
  /** Notifications are verified on the exact bytes the provider signed: the body stays raw. */
  testWebhook: defineRoute({
    method: 'POST',
    path: '/api/payments/webhooks/test/',
    auth: 'none',
    tags: [...tags, 'webhooks'],
    summary: 'Payment notifications from test',
    requestKind: 'raw',
    response: { 200: 'ZOk' },
    errors: ['payments.signature_invalid'],
  }),
  /** YooKassa's notifications: trusted by source network, then the payment re-fetched from its API. */
  yookassaWebhook: defineRoute({
    method: 'POST',
    path: '/api/payments/webhooks/yookassa/',
    auth: 'none',
    tags: [...tags, 'webhooks'],
    summary: 'Payment notifications from YooKassa',
    requestKind: 'raw',
    response: { 200: 'ZOk' },
    errors: ['payments.signature_invalid'],
  }),
  /** Stripe's events: `Stripe-Signature` checked by the SDK's constructEvent on the raw body. */
  stripeWebhook: defineRoute({
    method: 'POST',
    path: '/api/payments/webhooks/stripe/',
    auth: 'none',
    tags: [...tags, 'webhooks'],
    summary: 'Payment notifications from Stripe',
    requestKind: 'raw',
    response: { 200: 'ZOk' },
    errors: ['payments.signature_invalid', 'payments.notification_invalid'],
  }),
  /** Cryptomus's callbacks: `sign` = md5(base64(JSON as PHP encodes it) + key). */
  cryptomusWebhook: defineRoute({
    method: 'POST',
    path: '/api/payments/webhooks/cryptomus/',
    auth: 'none',
    tags: [...tags, 'webhooks'],
    summary: 'Payment notifications from Cryptomus',
    requestKind: 'raw',
    response: { 200: 'ZOk' },
    errors: ['payments.signature_invalid'],
  }),
  testCheckoutPage: defineRoute({
    method: 'GET',
    path: '/api/payments/test/checkout/:uuid/',
    auth: 'none',
    tags,
    summary: 'The test provider’s checkout page',
    hidden: true,
    params: 'ZPaymentOrderParams',
    query: 'ZTestCheckoutQuery',
    replyKind: 'html',
    errors: ['payments.order_not_found'],
  }),
  testCheckoutAction: defineRoute({
    method: 'POST',
    path: '/api/payments/test/checkout/:uuid/',
    auth: 'none',
    tags,
    summary: 'A button of the test checkout page',
    hidden: true,
    params: 'ZPaymentOrderParams',
    query: 'ZTestCheckoutQuery',
    body: 'ZTestCheckoutBody',
    requestKind: 'form',
    replyKind: 'redirect',
    errors: ['payments.order_not_found'],
  }),
};

/** Generation engines' callbacks. */
export const enginesRoutes = {
  /** fal's webhook: the raw body is kept to check fal's Ed25519 signature before anything is read. */
  falWebhook: defineRoute({
    method: 'POST',
    path: '/api/engines/fal/webhook/',
    auth: 'none',
    tags: ['engines', 'webhooks'],
    summary: 'Results from fal (checked by its Ed25519 signature)',
    requestKind: 'raw',
    response: { 200: 'ZWebhookOutcome' },
    errors: ['engines.webhook_forbidden', 'engines.webhook_unknown_request'],
  }),
  /** Replicate's webhook: the raw body is kept to check its Standard Webhooks HMAC signature first. */
  replicateWebhook: defineRoute({
    method: 'POST',
    path: '/api/engines/replicate/webhook/',
    auth: 'none',
    tags: ['engines', 'webhooks'],
    summary: 'Finished predictions from Replicate (checked by its webhook-signature HMAC)',
    requestKind: 'raw',
    response: { 200: 'ZWebhookOutcome' },
    errors: ['engines.webhook_forbidden', 'engines.webhook_unknown_request'],
  }),
};
