import type { DbOrTx } from '../../shared/db/client.js';
import {
  cancelWalletEntry,
  getWalletBalance,
  recordWalletEntry,
  settleWalletEntry,
} from '../wallet/index.js';
import type { PaymentEvent, PaymentOrderView } from './payment-provider.js';
import type { PaymentsDeps } from './payments.deps.js';
import { walletTopUpKey } from './payments.usecases.js';

/**
 * What a top-up's payment does to the wallet (the `wallet_topup` purpose's handler): paid, the
 * pending entry becomes money in; declined or cancelled, it is cancelled; refunded, the money
 * leaves the wallet again as far as it is still there (never below zero).
 */
export async function applyWalletTopUpEvent(
  deps: Pick<PaymentsDeps, 'now'>,
  tx: DbOrTx,
  order: PaymentOrderView,
  _event: PaymentEvent,
  before: PaymentOrderView['status'],
): Promise<void> {
  const now = deps.now();
  const key = walletTopUpKey(order.uuid);
  if (order.status === 'paid' && before !== 'paid') {
    await settleWalletEntry(tx, key);
  } else if ((order.status === 'failed' || order.status === 'cancelled') && before === 'pending') {
    await cancelWalletEntry(tx, key, now);
  } else if (order.status === 'refunded' && before === 'paid') {
    const wallet = await getWalletBalance(tx, order.userId, order.currency, now);
    const back = Math.min(order.amount, Math.max(0, wallet.available));
    if (back > 0) {
      await recordWalletEntry(
        tx,
        {
          userId: order.userId,
          currency: order.currency,
          amount: -back,
          kind: 'refund',
          ref: order.uuid,
          idempotencyKey: `payment:${order.uuid}:refund`,
        },
        now,
      );
    }
  }
}
