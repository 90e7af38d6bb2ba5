import type { TPaymentMethod } from '@mirra/contracts';

/** What a provider needs to start a payment: the order as the server priced it. */
export interface ProviderOrder {
  uuid: string;
  amount: number;
  currency: number;
  product: string;
  /** The buyer agreed to keep the payment method for renewals. */
  saveMethod?: boolean;
}

/** A verified notification from a provider, in Mirra's terms. */
export interface PaymentEvent {
  type: 'payment.succeeded' | 'payment.failed' | 'payment.cancelled' | 'refund.succeeded';
  orderUuid: string;
  /** The provider's id of the payment: each one is applied to one order, once. */
  providerPaymentId: string;
  amount: number;
  currency: number;
  /** The payment method the provider kept for charging again (when the order asked to save it). */
  savedMethodId?: string;
}

/** The immediate answer of a charge of a saved method (a pending one is settled by its notification). */
export interface SavedMethodCharge {
  status: 'succeeded' | 'pending' | 'failed';
  providerPaymentId: string;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/**
 * One way to pay. Every provider (the built-in `test` one now; YooKassa, Stripe, Cryptomus and
 * Telegram Stars later) implements this, and the payments module never looks past it.
 */
export interface PaymentProvider {
  readonly method: TPaymentMethod;
  /** Starts a payment for the order (idempotent per order uuid); returns where to send the buyer. */
  createPayment(order: ProviderOrder): Promise<{ confirmationUrl: string }>;
  /** The event an inbound notification carries, or null when its signature does not verify. */
  parseWebhook(rawBody: string, headers: WebhookHeaders): PaymentEvent | null;
  /** The provider's current state of a payment (for re-checking orders left pending); null if unknown. */
  fetchPayment(providerPaymentId: string): Promise<PaymentEvent | null>;
  /** Asks the provider to return the money; the refund itself is applied when its event arrives. */
  refund(order: ProviderOrder & { providerPaymentId: string }): Promise<void>;
  /**
   * Charges a payment method saved by an earlier order, without the buyer (a renewal); idempotent
   * per order uuid. Absent where the provider cannot.
   */
  chargeSavedMethod?(order: ProviderOrder, savedMethodId: string): Promise<SavedMethodCharge>;
}
