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
  return {
    name: 'stars',

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

    async fetchPayment() {
      // The Bot API has no look-up by payload: an unpaid invoice simply stays pending.
      return null;
    },

    async refund(order) {
      await bot.call('refundStarPayment', {
        user_id: await buyerId(order.userId),
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
