import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { recordPayment } from '../../shared/metrics.js';
import { describeOrder, methodUnavailable, orderNotFound, providerOrderOf } from './payment-orders.js';
import { WALLET_BALANCE } from './payment-provider.js';
import { providerNamed } from './payments.providers.js';
import { paymentsRepository } from './payments.repository.js';
import { applyEvents, applyPaymentEvent, type EventDeps } from './provider-events.usecases.js';

// Refunds asked for by Mirra (staff): the provider is asked and its event applies the refund; the
// wallet and a provider that refunds at once are applied here.

/** Writes the staff audit row of a refund in the refund's own transaction, given its outcome. */
export type RecordRefund = (tx: DbOrTx, outcome: 'refunded' | 'requested') => Promise<void>;

/**
 * Gives a paid order's money back (`amount` minor units of it; unset: all that is left): a balance
 * payment returns to the wallet at once, and so does one whose provider refunds at once
 * (`capabilities.refundsAtOnce`) when it answers; any other provider's refund is asked for, and applied when its notification arrives. `record` (a staff
 * refund's audit row) is written in the transaction that returns a balance payment; for a
 * provider's refund, in a transaction around the provider's request, so a refused request leaves
 * no row and a row that cannot be written asks nothing.
 */
export async function refundOrder(
  deps: EventDeps,
  orderUuid: string,
  amount?: number,
  record?: RecordRefund,
): Promise<'refunded' | 'requested'> {
  const order = await paymentsRepository.findOrder(deps.db, orderUuid);
  if (!order) throw orderNotFound();
  if (order.status !== 'paid') {
    throw new AppError({ code: 'payments.not_refundable', detail: 'Only a paid order can be refunded.' });
  }
  const left = order.amount - order.amountRefunded;
  if (amount !== undefined && (!Number.isInteger(amount) || amount <= 0 || amount > left)) {
    throw new AppError({
      code: 'payments.not_refundable',
      detail: 'The refund is more than what is left of the payment.',
    });
  }
  const fromBalance = order.provider === WALLET_BALANCE;
  const provider = fromBalance ? undefined : providerNamed(deps, order.provider);
  // Each provider says whether it refunds part of a payment; the wallet returns all of it.
  if (
    amount !== undefined &&
    amount < left &&
    (fromBalance || provider?.capabilities.partialRefunds === false)
  ) {
    throw new AppError({
      code: 'payments.not_refundable',
      detail: 'This payment can only be refunded in full.',
    });
  }
  if (fromBalance) {
    const changed = await deps.db.transaction(async (tx) => {
      const refunded = await applyPaymentEvent(deps, tx, WALLET_BALANCE, {
        type: 'refund.succeeded',
        eventId: `balance:${order.uuid}:refund`,
        orderUuid: order.uuid,
        providerPaymentId: order.providerPaymentId ?? `balance:${order.uuid}`,
        amount: order.amount,
        currency: order.currency,
      });
      await record?.(tx, 'refunded');
      return refunded;
    });
    if (changed) recordPayment(WALLET_BALANCE, changed.currency, changed.outcome);
    return 'refunded';
  }
  if (!provider || !order.providerPaymentId) throw methodUnavailable();
  const providerOrder = await providerOrderOf(deps, order, describeOrder(order));
  const providerPaymentId = order.providerPaymentId;
  const ask = () =>
    provider.refund({
      ...providerOrder,
      providerPaymentId,
      alreadyRefunded: order.amountRefunded,
      ...(amount !== undefined && amount < left ? { refundAmount: amount } : {}),
    });
  // The order is not locked here: the provider may notify the refund while it is being asked.
  const done = record
    ? await deps.db.transaction(async (tx) => {
        await record(tx, provider.capabilities.refundsAtOnce ? 'refunded' : 'requested');
        return ask();
      })
    : await ask();
  if (!done) return 'requested';
  // Final already (the provider refunds at once): applied now, so whoever refunded sees it refunded.
  await applyEvents(deps, provider.name, [done]);
  return 'refunded';
}
