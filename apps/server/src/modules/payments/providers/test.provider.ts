import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CURRENCY_RUB, CURRENCY_USD } from '@mirra/contracts';
import type { PaymentEvent, PaymentProvider } from '../payment-provider.js';

export const TEST_SIGNATURE_HEADER = 'x-mirra-test-signature';

/** Saved test cards whose id starts with this decline every later charge. */
export const TEST_DECLINING_METHOD_PREFIX = 'test_pm_decline_';

const ZTestEvent = z.object({
  type: z.enum(['payment.succeeded', 'payment.failed', 'payment.cancelled', 'refund.succeeded']),
  order_uuid: z.uuid(),
  payment_id: z.string().min(1).max(128),
  amount: z.number().int(),
  currency: z.number().int(),
  saved_method_id: z.string().min(1).max(128).optional(),
  /** A refund's total so far (a partial refund), as YooKassa and Stripe report it; absent: the whole. */
  refunded_amount: z.number().int().positive().optional(),
});

/** The test provider's page for an order, served by Mirra itself. */
export const testCheckoutPath = (orderUuid: string) => `/api/payments/test/checkout/${orderUuid}/`;

/**
 * The `test` provider: no money moves. Its checkout page is Mirra's own, and what the buyer clicks
 * there is delivered as a notification signed with HMAC-SHA256 of the raw body, the way real
 * providers sign theirs, through the same verification every provider goes through.
 */
export function createTestProvider(signingKey: string): PaymentProvider & {
  /** The checkout page's address: the order's uuid alone (it is in the return address) does not open it. */
  checkoutUrl(orderUuid: string): string;
  /** Whether `token` is the one `checkoutUrl` gave for this order. */
  isCheckoutToken(orderUuid: string, token: string | undefined): boolean;
  /** A signed notification of `event`, as the provider would send it: the raw body and its headers. */
  signEvent(
    event: Pick<
      PaymentEvent,
      'type' | 'orderUuid' | 'providerPaymentId' | 'amount' | 'currency' | 'savedMethodId' | 'refundedAmount'
    >,
  ): {
    body: string;
    headers: Record<string, string>;
  };
} {
  const sign = (body: string) => createHmac('sha256', signingKey).update(body).digest('hex');
  const checkoutToken = (orderUuid: string) => sign(`checkout:${orderUuid}`).slice(0, 32);
  const checkoutUrl = (orderUuid: string) =>
    `${testCheckoutPath(orderUuid)}?token=${checkoutToken(orderUuid)}`;
  return {
    name: 'test',
    capabilities: {
      methods: ['test'],
      regions: ['ru', 'intl'],
      currencies: [CURRENCY_RUB, CURRENCY_USD],
      miniAppOnly: false,
      receiptEmail: false,
      recurring: 'saved_method',
      // Its checkout saves a card with nothing charged.
      trialMethods: ['test'],
      // Its page refunds the whole payment; a partial refund is a notification of its own.
      partialRefunds: false,
      refundsAtOnce: false,
      // No money moves: its purchases earn no commission (unless PARTNER_TEST_PAYMENTS_EARN).
      movesMoney: false,
      invoicePageMethods: [],
    },
    async createPayment(order) {
      return { confirmationUrl: checkoutUrl(order.uuid), providerPaymentId: null };
    },
    checkoutUrl,
    isCheckoutToken(orderUuid, token) {
      if (typeof token !== 'string' || !/^[0-9a-f]{32}$/.test(token)) return false;
      return timingSafeEqual(Buffer.from(token), Buffer.from(checkoutToken(orderUuid)));
    },
    async parseWebhook({ rawBody, headers }) {
      const given = headers[TEST_SIGNATURE_HEADER];
      if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return null;
      if (!timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(sign(rawBody), 'hex'))) return null;
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        return null;
      }
      const parsed = ZTestEvent.safeParse(json);
      if (!parsed.success) return null;
      const e = parsed.data;
      return [
        {
          type: e.type,
          eventId: `${e.payment_id}:${e.type}${e.refunded_amount ? `:${e.refunded_amount}` : ''}`,
          orderUuid: e.order_uuid,
          providerPaymentId: e.payment_id,
          amount: e.amount,
          currency: e.currency,
          ...(e.saved_method_id ? { savedMethodId: e.saved_method_id } : {}),
          ...(e.refunded_amount ? { refundedAmount: e.refunded_amount } : {}),
        },
      ];
    },
    async fetchPayment() {
      // The test provider keeps no records of its own: its notifications are delivered at once.
      return null;
    },
    /**
     * A saved test card is charged at once: it pays, unless its id marks it as one that declines
     * (`test_pm_decline_…`, the card the checkout saves with "Pay, then decline renewals").
     */
    async chargeSavedMethod(order, savedMethodId) {
      const providerPaymentId = `test_renewal_${order.uuid}`;
      const failed = savedMethodId.startsWith(TEST_DECLINING_METHOD_PREFIX);
      return {
        providerPaymentId,
        event: {
          type: failed ? 'payment.failed' : 'payment.succeeded',
          eventId: `${providerPaymentId}:${failed ? 'failed' : 'succeeded'}`,
          orderUuid: order.uuid,
          providerPaymentId,
          amount: order.amount,
          currency: order.currency,
        },
      };
    },
    async refund() {
      // Refunds of test payments are delivered from the checkout page as `refund.succeeded`.
    },
    signEvent(event) {
      const body = JSON.stringify({
        type: event.type,
        order_uuid: event.orderUuid,
        payment_id: event.providerPaymentId,
        amount: event.amount,
        currency: event.currency,
        ...(event.savedMethodId ? { saved_method_id: event.savedMethodId } : {}),
        ...(event.refundedAmount ? { refunded_amount: event.refundedAmount } : {}),
      });
      return { body, headers: { 'content-type': 'application/json', [TEST_SIGNATURE_HEADER]: sign(body) } };
    },
  };
}

/** The test provider's key, derived from the server secret so that nothing else needs configuring. */
export function testProviderKey(serverSecret: string): string {
  return createHmac('sha256', serverSecret).update('mirra:payments:test-provider').digest('hex');
}

const testProviders = new Map<string, ReturnType<typeof createTestProvider>>();
/** The test provider of this server (its key derives from the server secret). */
export function testProviderOf(deps: { linkSecret: string }) {
  let provider = testProviders.get(deps.linkSecret);
  if (!provider) {
    provider = createTestProvider(testProviderKey(deps.linkSecret));
    testProviders.set(deps.linkSecret, provider);
  }
  return provider;
}
