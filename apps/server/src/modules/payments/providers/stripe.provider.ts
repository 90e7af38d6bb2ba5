import Stripe from 'stripe';
import { z } from 'zod';
import { CURRENCY_RUB, CURRENCY_USD } from '@mirra/contracts';
import type { PaymentEvent, PaymentProvider, ProviderSubscriptionStatus } from '../payment-provider.js';
import { AppError } from '../../../shared/errors.js';
import { currencyAlpha, currencyNumeric } from '../money.js';

/** Stripe's subscription states in Mirra's terms: retried or unpaid renewals, and ended ones. */
function subscriptionStatusOf(status: string): ProviderSubscriptionStatus {
  if (status === 'active' || status === 'trialing') return status;
  if (status === 'past_due' || status === 'unpaid') return 'past_due';
  // Cancelled now or at its period's end, or never paid at all.
  if (status === 'canceled' || status === 'incomplete_expired') return 'ended';
  return 'other';
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** A local fake's address; unset: api.stripe.com. */
  apiBase?: string | undefined;
}

/**
 * How far a signature's timestamp may differ from the app's clock, either way: Stripe's own
 * tolerance for old ones (replays), and the same for ones ahead (clocks drift, no more).
 */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The envelope every event has; `data.object` is read by each event type's own schema. */
const ZEventEnvelope = z
  .object({
    id: z.string().min(1),
    type: z.string(),
    created: z.number().int(),
    data: z.object({ object: z.unknown() }).loose(),
  })
  .loose();

const ZMetadata = z.record(z.string(), z.string()).nullish();
const ZSession = z
  .object({
    id: z.string(),
    mode: z.enum(['payment', 'subscription', 'setup']),
    client_reference_id: z.string().nullish(),
    payment_status: z.string(),
    payment_intent: z.string().nullish(),
    subscription: z.string().nullish(),
    invoice: z.string().nullish(),
    customer: z.string().nullish(),
    amount_total: z.number().int().nullish(),
    currency: z.string().nullish(),
    metadata: ZMetadata,
  })
  .loose();
const ZInvoice = z
  .object({
    id: z.string(),
    billing_reason: z.string().nullish(),
    amount_paid: z.number().int(),
    amount_due: z.number().int(),
    currency: z.string(),
    customer: z.string().nullish(),
    parent: z
      .object({
        subscription_details: z.object({ subscription: z.string(), metadata: ZMetadata }).loose().nullish(),
      })
      .loose()
      .nullish(),
    lines: z
      .object({ data: z.array(z.object({ period: z.object({ end: z.number().int() }).loose() }).loose()) })
      .loose()
      .optional(),
  })
  .loose();
const ZSubscription = z
  .object({
    id: z.string(),
    status: z.string(),
    customer: z.string().nullish(),
    cancel_at_period_end: z.boolean().optional(),
    metadata: ZMetadata,
    items: z
      .object({
        data: z.array(
          z
            .object({
              current_period_end: z.number().int().optional(),
              price: z.object({ unit_amount: z.number().int().nullish(), currency: z.string() }).loose(),
            })
            .loose(),
        ),
      })
      .loose(),
  })
  .loose();
const ZCharge = z
  .object({
    id: z.string(),
    payment_intent: z.string().nullish(),
    amount: z.number().int(),
    amount_refunded: z.number().int(),
    refunded: z.boolean(),
    currency: z.string(),
    metadata: ZMetadata,
  })
  .loose();

const ZDispute = z
  .object({
    id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    charge: z.string(),
    payment_intent: z.string().nullish(),
    status: z.string(),
  })
  .loose();

/**
 * Stripe Checkout through the official SDK: `payment` mode for packs and `subscription` mode for
 * the plan, both keyed by the order (`client_reference_id`, metadata) with an idempotency key per
 * create; notifications verified by `stripe.webhooks.constructEvent` on the raw body.
 */
export function createStripeProvider(
  config: StripeConfig,
  now: () => Date = () => new Date(),
): PaymentProvider {
  const base = config.apiBase ? new URL(config.apiBase) : null;
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });

  function sessionEvent(eventId: string, type: PaymentEvent['type'], raw: unknown): PaymentEvent | null {
    const session = ZSession.parse(raw);
    const orderUuid = session.client_reference_id ?? session.metadata?.order_uuid ?? null;
    if (!orderUuid) return null;
    return {
      type,
      eventId,
      orderUuid,
      // The payment intent is what a refund names; a subscription's first payment is its first
      // invoice (paid by a payment intent of its own, found through the invoice's payments).
      providerPaymentId: session.payment_intent ?? session.invoice ?? session.id,
      amount: session.amount_total ?? 0,
      currency: currencyNumeric(session.currency ?? ''),
      ...(session.subscription ? { providerSubscriptionId: session.subscription } : {}),
      ...(session.customer ? { providerCustomerId: session.customer } : {}),
    };
  }

  /** The invoice a payment intent paid (a subscription's period), through its invoice payments. */
  async function invoicePaidBy(paymentIntent: string): Promise<string | null> {
    const payments = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntent },
      limit: 1,
    });
    const invoice = payments.data[0]?.invoice;
    return typeof invoice === 'string' ? invoice : (invoice?.id ?? null);
  }

  /** The payment intent that paid an invoice. */
  async function paymentIntentOf(invoiceId: string): Promise<string> {
    const payments = await stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 1 });
    const intent = payments.data[0]?.payment.payment_intent;
    const id = typeof intent === 'string' ? intent : intent?.id;
    if (!id) throw new Error(`Stripe invoice ${invoiceId} has no paid payment intent`);
    return id;
  }

  async function eventsOf(event: Stripe.Event): Promise<PaymentEvent[]> {
    const object: unknown = event.data.object;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = ZSession.parse(object);
        // Paid later (bank debits) comes as async_payment_succeeded; until then nothing is granted.
        if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return [];
        const paid = sessionEvent(event.id, 'payment.succeeded', object);
        return paid ? [paid] : [];
      }
      case 'checkout.session.async_payment_failed': {
        const failed = sessionEvent(event.id, 'payment.failed', object);
        return failed ? [failed] : [];
      }
      case 'checkout.session.expired': {
        const expired = sessionEvent(event.id, 'payment.cancelled', object);
        return expired ? [expired] : [];
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = ZInvoice.parse(object);
        const details = invoice.parent?.subscription_details;
        // The first invoice of a subscription is the Checkout session's own payment.
        if (!details || invoice.billing_reason === 'subscription_create') return [];
        const periodEnd = invoice.lines?.data[0]?.period.end;
        return [
          {
            type: event.type === 'invoice.paid' ? 'subscription.renewed' : 'subscription.payment_failed',
            eventId: event.id,
            orderUuid: details.metadata?.order_uuid ?? null,
            providerPaymentId: invoice.id,
            amount: event.type === 'invoice.paid' ? invoice.amount_paid : invoice.amount_due,
            currency: currencyNumeric(invoice.currency),
            providerSubscriptionId: details.subscription,
            ...(invoice.customer ? { providerCustomerId: invoice.customer } : {}),
            ...(periodEnd ? { periodEnd: new Date(periodEnd * 1000) } : {}),
          },
        ];
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = ZSubscription.parse(object);
        const item = subscription.items.data[0];
        return [
          {
            type:
              event.type === 'customer.subscription.deleted'
                ? 'subscription.cancelled'
                : 'subscription.updated',
            eventId: event.id,
            orderUuid: subscription.metadata?.order_uuid ?? null,
            providerPaymentId: subscription.id,
            amount: item?.price.unit_amount ?? 0,
            currency: currencyNumeric(item?.price.currency ?? ''),
            providerSubscriptionId: subscription.id,
            subscriptionStatus: subscriptionStatusOf(subscription.status),
            cancelAtPeriodEnd: subscription.cancel_at_period_end ?? false,
            occurredAt: new Date(event.created * 1000),
            ...(item?.current_period_end ? { periodEnd: new Date(item.current_period_end * 1000) } : {}),
          },
        ];
      }
      case 'charge.refunded': {
        const charge = ZCharge.parse(object);
        // `amount_refunded` is the total refunded so far: less than `amount` is a partial refund.
        if (charge.amount_refunded <= 0 || !charge.payment_intent) return [];
        // A subscription's charge pays an invoice: its period's order is named by the invoice.
        const invoice = charge.metadata?.order_uuid ? null : await invoicePaidBy(charge.payment_intent);
        return [
          {
            type: 'refund.succeeded',
            eventId: event.id,
            orderUuid: invoice ? null : (charge.metadata?.order_uuid ?? null),
            providerPaymentId: invoice ?? charge.payment_intent,
            amount: charge.amount,
            currency: currencyNumeric(charge.currency),
            refundedAmount: charge.refunded ? charge.amount : charge.amount_refunded,
          },
        ];
      }
      case 'charge.dispute.created':
      case 'charge.dispute.closed': {
        const dispute = ZDispute.parse(object);
        const lost = event.type === 'charge.dispute.closed' && dispute.status === 'lost';
        // Won (or a warning closed): the money stays, nothing changes.
        if (!dispute.payment_intent || (event.type === 'charge.dispute.closed' && !lost)) return [];
        // A subscription's charge pays an invoice: its period's order holds the invoice.
        const invoice = await invoicePaidBy(dispute.payment_intent);
        return [
          {
            type: lost ? 'refund.succeeded' : 'payment.disputed',
            eventId: event.id,
            orderUuid: null,
            providerPaymentId: invoice ?? dispute.payment_intent,
            amount: dispute.amount,
            currency: currencyNumeric(dispute.currency),
            ...(lost ? { chargeback: true } : {}),
          },
        ];
      }
      default:
        return [];
    }
  }

  return {
    name: 'stripe',
    capabilities: {
      methods: ['stripe'],
      // Dollars outside Russia; in Russia YooKassa takes roubles.
      regions: ['intl'],
      currencies: [CURRENCY_RUB, CURRENCY_USD],
      miniAppOnly: false,
      receiptEmail: false,
      recurring: 'provider',
      // Checkout collects the card and the subscription runs the trial (`trial_period_days`).
      trialMethods: ['stripe'],
      partialRefunds: true,
      refundsAtOnce: false,
      movesMoney: true,
      invoicePageMethods: [],
    },

    async createPayment(order) {
      const metadata = { order_uuid: order.uuid, user_id: String(order.userId) };
      const interval =
        order.recurring?.periodDays === 30
          ? { interval: 'month' as const }
          : { interval: 'day' as const, interval_count: order.recurring?.periodDays ?? 1 };
      const session = await stripe.checkout.sessions.create(
        {
          mode: order.recurring ? 'subscription' : 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: currencyAlpha(order.currency).toLowerCase(),
                // A trial's order is of no money now; the line is the price charged after it.
                unit_amount: order.trial?.amount ?? order.amount,
                product_data: { name: order.description.slice(0, 128) },
                ...(order.recurring ? { recurring: interval } : {}),
              },
            },
          ],
          success_url: order.returnUrl,
          cancel_url: order.cancelUrl ?? order.returnUrl,
          client_reference_id: order.uuid,
          ...(order.customerEmail ? { customer_email: order.customerEmail } : {}),
          metadata,
          ...(order.recurring
            ? {
                subscription_data: {
                  metadata,
                  // The card is collected now and nothing is charged until the trial ends.
                  ...(order.trial ? { trial_period_days: order.trial.days } : {}),
                },
              }
            : { payment_intent_data: { metadata } }),
        },
        { idempotencyKey: `checkout:${order.uuid}` },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout session without a url');
      return { confirmationUrl: session.url, providerPaymentId: session.id };
    },

    async parseWebhook({ rawBody, headers }) {
      const header = headers['stripe-signature'];
      // One signature header; a repeated one is not what Stripe sends.
      const signature = typeof header === 'string' ? header : '';
      const receivedAt = now().getTime();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          config.webhookSecret,
          SIGNATURE_TOLERANCE_SECONDS,
          undefined,
          receivedAt,
        );
      } catch {
        return null;
      }
      // The SDK refuses only timestamps too old: one from the future would outlive any replay window.
      const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
      if (!Number.isFinite(signedAt) || signedAt * 1000 > receivedAt + SIGNATURE_TOLERANCE_SECONDS * 1000) {
        return null;
      }
      // Signed by Stripe but not an event Mirra can read (no object, no id): refused as malformed,
      // never half-applied, and never a server error Stripe would retry for days.
      try {
        return await eventsOf(ZEventEnvelope.parse(event) as unknown as Stripe.Event);
      } catch (error) {
        if (!(error instanceof z.ZodError)) throw error;
        throw new AppError({
          code: 'payments.notification_invalid',
          detail: 'The notification cannot be read.',
        });
      }
    },

    async fetchPayment(order) {
      // While pending, the order holds its Checkout session's id.
      if (!order.providerPaymentId?.startsWith('cs_')) return null;
      const session = await stripe.checkout.sessions.retrieve(order.providerPaymentId);
      if (session.status === 'complete' && session.payment_status === 'paid') {
        return sessionEvent(`reconcile:${session.id}`, 'payment.succeeded', session);
      }
      if (session.status === 'expired')
        return sessionEvent(`reconcile:${session.id}`, 'payment.cancelled', session);
      return null;
    },

    async closeCheckout(order) {
      if (!order.providerPaymentId?.startsWith('cs_')) return;
      try {
        await stripe.checkout.sessions.expire(order.providerPaymentId);
      } catch (error) {
        // Only an open session can be expired: one already complete or expired is left as it is,
        // and the re-fetch that follows reports what it is.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
    },

    async refund(order) {
      // A subscription period's order holds its invoice; the refund names what paid it.
      const paymentIntent = order.providerPaymentId.startsWith('in_')
        ? await paymentIntentOf(order.providerPaymentId)
        : order.providerPaymentId;
      await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          ...(order.refundAmount ? { amount: order.refundAmount } : {}),
          metadata: { order_uuid: order.uuid },
        },
        { idempotencyKey: `refund:${order.uuid}:${order.alreadyRefunded}:${order.refundAmount ?? 'rest'}` },
      );
    },

    async cancelSubscription({ providerSubscriptionId }) {
      await stripe.subscriptions.update(
        providerSubscriptionId,
        { cancel_at_period_end: true },
        { idempotencyKey: `cancel:${providerSubscriptionId}` },
      );
    },
  };
}
