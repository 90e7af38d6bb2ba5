import type { DbOrTx } from '../../shared/db/client.js';

/** A paid purchase as modules that reward it (the partner programme) see it. */
export interface PaidPurchase {
  orderUuid: string;
  buyerId: number;
  /** The catalogue product bought (a top-up of one's own wallet earns nobody a commission). */
  product: string;
  /** Minor units of `currency` (ISO 4217 numeric). */
  amount: number;
  currency: number;
  paidAt: Date;
}

/**
 * Told of every paid purchase and every refund, inside the one transaction that applies the
 * provider's event, so whatever it records exists exactly when the payment (or refund) does.
 * Payments declares it; the composition root hands in the partner programme's implementation.
 */
export interface PurchaseListener {
  purchasePaid(tx: DbOrTx, purchase: PaidPurchase): Promise<void>;
  /** `refundedAmount` is the total refunded so far (the whole amount for a full refund). */
  purchaseRefunded(
    tx: DbOrTx,
    purchase: PaidPurchase & { refundedAmount: number; refundedAt: Date },
  ): Promise<void>;
}

/** For deployments and tests that reward nothing. */
export const ignorePurchases: PurchaseListener = {
  purchasePaid: async () => {},
  purchaseRefunded: async () => {},
};
