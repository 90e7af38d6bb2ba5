import type { DbOrTx } from '../../shared/db/client.js';
import type { PaymentOrderView } from './payment-provider.js';

/**
 * The payments domain events, for any module (the partner programme: commissions on payment,
 * clawback on refund). Each is called inside the transaction that applied the event, exactly once
 * per order: `onPaid` when an order becomes paid (a top-up, a pack, a subscription's first period,
 * a renewal charged as an order of its own), `onRefunded` when a paid order is refunded or
 * charged back (after its access and unspent credits were taken back).
 */
export interface PaymentListener {
  onPaid?(tx: DbOrTx, order: PaymentOrderView): Promise<void>;
  onRefunded?(tx: DbOrTx, order: PaymentOrderView): Promise<void>;
}
