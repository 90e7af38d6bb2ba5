import { CURRENCY_XTR } from '@mirra/contracts';
import type { StarsPaymentUpdates } from '../../telegram/index.js';
import { findUserById } from '../../users/index.js';
import type { PaymentsDeps } from '../payments.deps.js';
import { paymentsRepository } from '../payments.repository.js';
import { applyEvents } from '../provider-events.usecases.js';
import {
  starsPaymentEvent,
  starsRefundEvent,
  ZStarsRefundedPayment,
  ZStarsSuccessfulPayment,
} from './stars.provider.js';

/**
 * Stars payments as the bot receives them: the pre-checkout answer comes from the order alone
 * (pending, this buyer, this price in XTR); a purchase is granted only on `successful_payment`,
 * once per `telegram_payment_charge_id`.
 */
export function createStarsPaymentUpdates(deps: PaymentsDeps): StarsPaymentUpdates {
  return {
    async preCheckout(query) {
      const refuse = { ok: false };
      if (!/^[0-9a-f-]{36}$/.test(query.payload)) return refuse;
      const order = await paymentsRepository.findOrder(deps.db, query.payload);
      if (
        !order ||
        order.provider !== 'stars' ||
        order.status !== 'pending' ||
        query.currency !== 'XTR' ||
        order.currency !== CURRENCY_XTR ||
        order.amount !== query.totalAmount
      ) {
        return refuse;
      }
      const buyer = await findUserById(deps.db, order.userId);
      return buyer?.telegramId === query.fromTelegramId ? { ok: true } : refuse;
    },

    async successfulPayment(_fromTelegramId, payment) {
      const parsed = ZStarsSuccessfulPayment.safeParse(payment);
      if (!parsed.success) {
        deps.logger.error({ payment }, 'unreadable successful_payment; not applied');
        return;
      }
      await applyEvents(deps, 'stars', [starsPaymentEvent(parsed.data)]);
    },

    async refundedPayment(_fromTelegramId, refund) {
      const parsed = ZStarsRefundedPayment.safeParse(refund);
      if (!parsed.success) return;
      await applyEvents(deps, 'stars', [starsRefundEvent(parsed.data)]);
    },
  };
}
