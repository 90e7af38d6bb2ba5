import { z } from 'zod';
import { CURRENCY_XTR } from '@mirra/contracts';
import type { TelegramBotApi } from '../../telegram/index.js';
import type { PaymentEvent, PaymentProvider } from '../payment-provider.js';

/** The only subscription period Telegram allows for Stars: 30 days. */
export const STARS_SUBSCRIPTION_PERIOD_SECONDS = 2_592_000;

/** The payment parts of a Bot API update: `pre_checkout_query`, and `successful_payment` / `refunded_payment` messages. */
export const ZStarsPreCheckoutQuery = z.object({
  id: z.string(),
  from: z.object({ id: z.number().int() }).loose(),
  currency: z.string(),
  total_amount: z.number().int(),
  invoice_payload: z.string(),
});
export const ZStarsSuccessfulPayment = z
  .object({
    currency: z.string(),
    total_amount: z.number().int(),
    invoice_payload: z.string(),
    subscription_expiration_date: z.number().int().optional(),
    is_recurring: z.boolean().optional(),
    is_first_recurring: z.boolean().optional(),
    telegram_payment_charge_id: z.string().min(1),
    provider_payment_charge_id: z.string().optional(),
  })
  .loose();
export const ZStarsRefundedPayment = z
  .object({
    currency: z.string(),
    total_amount: z.number().int(),
    invoice_payload: z.string(),
    telegram_payment_charge_id: z.string().min(1),
  })
  .loose();

/** `successful_payment`: the first (or only) payment, or a later period of a Stars subscription. */
export function starsPaymentEvent(payment: z.infer<typeof ZStarsSuccessfulPayment>): PaymentEvent {
  const renewal = payment.is_recurring === true && payment.is_first_recurring !== true;
  return {
    type: renewal ? 'subscription.renewed' : 'payment.succeeded',
    eventId: payment.telegram_payment_charge_id,
    orderUuid: payment.invoice_payload,
    providerPaymentId: payment.telegram_payment_charge_id,
    amount: payment.total_amount,
    currency: payment.currency === 'XTR' ? CURRENCY_XTR : Number.NaN,
    ...(payment.is_recurring
      ? {
          // A Stars subscription is named by its first payment's charge id.
          ...(payment.is_first_recurring
            ? { providerSubscriptionId: payment.telegram_payment_charge_id }
            : {}),
          ...(payment.subscription_expiration_date
            ? { periodEnd: new Date(payment.subscription_expiration_date * 1000) }
            : {}),
        }
      : {}),
  };
}

/** `StarTransaction` of `getStarTransactions`, with the parts Mirra reads. */
const ZStarTransaction = z
  .object({
    id: z.string(),
    amount: z.number().int(),
    date: z.number().int(),
    source: z
      .object({
        type: z.string(),
        transaction_type: z.string().optional(),
        invoice_payload: z.string().optional(),
        subscription_period: z.number().int().optional(),
      })
      .loose()
      .optional(),
    receiver: z.object({ type: z.string() }).loose().optional(),
  })
  .loose();
const ZStarTransactions = z.object({ transactions: z.array(ZStarTransaction) }).loose();
type StarTransaction = z.infer<typeof ZStarTransaction>;

/** How many transactions one `getStarTransactions` call lists at most. */
const STAR_TRANSACTIONS_PAGE = 100;
/** Transactions older than this cannot belong to an order the reconciler still re-checks. */
const STAR_TRANSACTIONS_HORIZON_SECONDS = 3 * 86_400;

/**
 * An incoming Star payment found in the bot's transactions, as the `successful_payment` it
 * stands for: its id is that payment's `telegram_payment_charge_id`, so whichever arrives second
 * is the same event and applies nothing.
 */
export function starsTransactionEvent(transaction: StarTransaction, orderUuid: string): PaymentEvent {
  const period = transaction.source?.subscription_period;
  return {
    type: 'payment.succeeded',
    eventId: transaction.id,
    orderUuid,
    providerPaymentId: transaction.id,
    amount: transaction.amount,
    currency: CURRENCY_XTR,
    ...(period
      ? {
          providerSubscriptionId: transaction.id,
          periodEnd: new Date((transaction.date + period) * 1000),
        }
      : {}),
  };
}

export function starsRefundEvent(refund: z.infer<typeof ZStarsRefundedPayment>): PaymentEvent {
  return {
    type: 'refund.succeeded',
    eventId: `refund:${refund.telegram_payment_charge_id}`,
    orderUuid: refund.invoice_payload,
    providerPaymentId: refund.telegram_payment_charge_id,
    amount: refund.total_amount,
    currency: refund.currency === 'XTR' ? CURRENCY_XTR : Number.NaN,
  };
}

/**
 * Telegram Stars inside the Mini App: an invoice link (`createInvoiceLink`, currency XTR, the
 * order's uuid as payload) the app opens with the SDK's invoice call. Payments arrive as bot
 * updates (the telegram module hands them to payments), not as webhooks of their own.
 */
export function createStarsProvider(
  bot: TelegramBotApi,
  telegramIdOf: (userId: number) => Promise<number | null>,
): PaymentProvider {
  const buyerId = async (userId: number) => {
    const id = await telegramIdOf(userId);
    if (id === null) throw new Error('the buyer has no Telegram account linked');
    return id;
  };
  /**
   * Where the listing of transactions young enough to matter starts: the bot's transactions come
   * oldest first, so those past the horizon are skipped on later re-checks.
   */
  let firstRecent = 0;

  /** The incoming payment of an invoice (by its payload), looked up in the bot's transactions. */
  async function findPaymentOf(payload: string): Promise<StarTransaction | null> {
    const horizon = Math.floor(Date.now() / 1000) - STAR_TRANSACTIONS_HORIZON_SECONDS;
    let found: StarTransaction | null = null;
    const refunded = new Set<string>();
    let stillOld = true;
    for (let offset = firstRecent; ; offset += STAR_TRANSACTIONS_PAGE) {
      const page = ZStarTransactions.parse(
        await bot.call('getStarTransactions', { offset, limit: STAR_TRANSACTIONS_PAGE }),
      ).transactions;
      page.forEach((transaction, i) => {
        if (stillOld && transaction.date < horizon) firstRecent = offset + i + 1;
        else stillOld = false;
        if (transaction.receiver) refunded.add(transaction.id);
        const source = transaction.source;
        if (
          source?.type === 'user' &&
          (source.transaction_type ?? 'invoice_payment') === 'invoice_payment' &&
          source.invoice_payload === payload
        ) {
          found ??= transaction;
        }
      });
      if (page.length < STAR_TRANSACTIONS_PAGE) break;
    }
    // Paid and refunded before Mirra heard of it: nothing to grant.
    return found && !refunded.has((found as StarTransaction).id) ? found : null;
  }

  return {
    name: 'stars',
    capabilities: {
      methods: ['stars'],
      // Priced in Stars, the same everywhere, and paid in the Mini App's own payment sheet.
      regions: ['ru', 'intl'],
      currencies: [CURRENCY_XTR],
      miniAppOnly: true,
      receiptEmail: false,
      recurring: 'provider',
      // A Star subscription takes its first period at once: it has no trial.
      trialMethods: [],
      // `refundStarPayment` returns the whole payment, and is final when Telegram answers.
      partialRefunds: false,
      refundsAtOnce: true,
      movesMoney: true,
      invoicePageMethods: [],
    },

    async createPayment(order) {
      const link = await bot.call<string>('createInvoiceLink', {
        title: order.description.slice(0, 32),
        description: order.description.slice(0, 255),
        payload: order.uuid,
        provider_token: '',
        currency: 'XTR',
        prices: [{ label: order.description.slice(0, 32), amount: order.amount }],
        ...(order.recurring ? { subscription_period: STARS_SUBSCRIPTION_PERIOD_SECONDS } : {}),
      });
      return { confirmationUrl: link, providerPaymentId: null };
    },

    async parseWebhook() {
      // Stars payments come as bot updates, verified by the bot's webhook secret.
      return null;
    },

    async fetchPayment(order) {
      // No look-up by payload in the Bot API: the bot's incoming Star transactions name the payer
      // and the invoice's payload, so a payment whose message was lost is found there.
      const transaction = await findPaymentOf(order.uuid);
      return transaction ? starsTransactionEvent(transaction, order.uuid) : null;
    },

    async refund(order) {
      await bot.call('refundStarPayment', {
        user_id: await buyerId(order.userId),
        telegram_payment_charge_id: order.providerPaymentId,
      });
      // Telegram answers once the Stars are back with the buyer: the refund is final now, as the
      // `refunded_payment` message that follows says again (the same event, applied once).
      return starsRefundEvent({
        currency: 'XTR',
        total_amount: order.amount,
        invoice_payload: order.uuid,
        telegram_payment_charge_id: order.providerPaymentId,
      });
    },

    async cancelSubscription({ providerSubscriptionId, userId }) {
      await bot.call('editUserStarSubscription', {
        user_id: await buyerId(userId),
        telegram_payment_charge_id: providerSubscriptionId,
        is_canceled: true,
      });
    },
  };
}
