import type { DbOrTx } from '../../shared/db/client.js';
import type { PaymentEvent } from './payment-provider.js';
import type { PaymentOrderRow } from './payments.repository.js';

export type PaymentOrderView = PaymentOrderRow;
export type PaymentOrderStatus = PaymentOrderRow['status'];

/**
 * Applies an event to what an order of one purpose bought (a subscription period, say), in the
 * transaction that moved the order's status, after it moved. `before` is the status it had;
 * the order passed is the one after the event.
 */
export type PaymentEventHandler = (
  tx: DbOrTx,
  order: PaymentOrderView,
  event: PaymentEvent,
  before: PaymentOrderStatus,
) => Promise<void>;

/** The handlers other modules register, by the order's purpose (`product` is payments' own). */
export type PaymentPurposeHandlers = Partial<Record<'subscription', PaymentEventHandler>>;

/**
 * The payments domain events, for any module (the partner programme: commissions on payment,
 * clawback on refund). Each is called inside the transaction that applied the event, exactly once
 * per order and event: `onPaid` when an order becomes paid (a top-up, a pack, a subscription
 * period, a renewal — each renewal is an order of its own), `onRefunded` each time more of a paid
 * order's money is refunded or charged back (its access and unspent credits, or their refunded
 * share, are already taken back): `order.amountRefunded` is the total refunded so far, and the
 * status is `refunded` once all of it is. `paidThrough` says whether real money moved.
 */
export interface PaymentListener {
  onPaid?(tx: DbOrTx, order: PaymentOrderView, paidThrough?: PaidThrough): Promise<void>;
  onRefunded?(tx: DbOrTx, order: PaymentOrderView, paidThrough?: PaidThrough): Promise<void>;
}

/** What the way an order was paid says of its money (the provider's capabilities); unset: real money. */
export interface PaidThrough {
  /** Money really moved (false: the test provider's payments). */
  movesMoney: boolean;
}
