import type { TPaymentMethod, TPaymentRegion } from '@mirra/contracts';

/** The payment services Mirra has an adapter for. */
export type ProviderName = 'test' | 'yookassa' | 'stripe' | 'cryptomus' | 'stars';

/**
 * Paying from the wallet: a way to pay the buyer picks, and the `provider` of an order so paid, but
 * no provider — the money moves inside Mirra's own ledger, in one transaction.
 */
export const WALLET_BALANCE = 'balance' as const;

/**
 * What a payment is for; decides which module applies its events. `product`: a credit pack or the
 * unlimited package (payments itself); `subscription`: the premium plan (subscriptions);
 * `wallet_topup`: money into the wallet (wallet).
 */
export type PaymentPurpose = 'product' | 'subscription' | 'wallet_topup';

/** YooKassa's payment method types Mirra offers on YooKassa's page. */
export type YooKassaMethodType = 'bank_card' | 'sberbank' | 'sbp';

/**
 * What a provider needs to start a payment: the order as the server priced it. The order's uuid is
 * the provider-side reference (YooKassa `metadata.order_id`, Stripe `client_reference_id`,
 * Cryptomus `order_id`, Stars invoice `payload`) and the base of every idempotency key, so a retried
 * create never charges twice.
 */
export interface ProviderOrder {
  uuid: string;
  userId: number;
  /** Minor units of `currency` (kopecks, cents); whole Stars when `currency` is CURRENCY_XTR. */
  amount: number;
  /** ISO 4217 numeric (643, 840), or CURRENCY_XTR for Telegram Stars. */
  currency: number;
  /** The catalogue id (or the plan id) bought. */
  product: string;
  /** Shown to the buyer on the provider's page and in the receipt (1–128 characters). */
  description: string;
  /** For the 54-FZ receipt (YooKassa) and Stripe's `customer_email`; null when unknown. */
  customerEmail: string | null;
  /** Absolute URL the buyer is sent back to after the provider's page. */
  returnUrl: string;
  /**
   * Absolute URL of the checkout's cancel link (Stripe `cancel_url`): the return URL marked as
   * cancelled, so the app closes the checkout. Unset: the return URL.
   */
  cancelUrl?: string;
  /** The way to pay the buyer chose, of those the provider serves (YooKassa: card, SberPay, SBP). */
  method: string;
  /**
   * The first payment of a subscription: YooKassa saves the method (`save_payment_method: true`),
   * Stripe opens Checkout in `subscription` mode, Stars creates a link with `subscription_period`
   * 2592000. Renewals then come as `subscription.renewed` events (Stripe, Stars) or are charged by
   * Mirra with `chargeSavedMethod` (YooKassa).
   */
  recurring?: { periodDays: number };
  /** The buyer agreed to keep the payment method for renewals (YooKassa `save_payment_method`). */
  saveMethod?: boolean;
  /**
   * A free trial of a provider-run subscription (Stripe `subscription_data.trial_period_days`):
   * the order's amount is 0, the card is collected now, and `amount` is charged each period from
   * the trial's end (`days` from now) unless cancelled before.
   */
  trial?: { days: number; amount: number };
}

/** Where the buyer goes to pay, and the provider's id of the payment when it has one already. */
export interface CheckoutStarted {
  /** YooKassa `confirmation_url`, Stripe `session.url`, Cryptomus `result.url`, Stars invoice link. */
  confirmationUrl: string;
  providerPaymentId: string | null;
}

export type PaymentEventType =
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.cancelled'
  | 'refund.succeeded'
  /**
   * The buyer's bank opened a dispute (a chargeback) of the payment (Stripe
   * `charge.dispute.created`): the order is marked, nothing is taken yet. A dispute lost comes as
   * `refund.succeeded` with `chargeback` set; one won changes nothing.
   */
  | 'payment.disputed'
  /** A later period of a subscription paid by the provider itself (Stripe `invoice.paid`, Stars). */
  | 'subscription.renewed'
  /** A renewal the provider could not charge (Stripe `invoice.payment_failed`). */
  | 'subscription.payment_failed'
  /** The provider's subscription ended (Stripe `customer.subscription.deleted`). */
  | 'subscription.cancelled'
  /** The provider's subscription changed (Stripe `customer.subscription.updated`). */
  | 'subscription.updated';

/** Where a provider's own subscription stands: renewing, in its trial, unpaid and retried, or over. */
export type ProviderSubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'ended' | 'other';

/** A verified notification from a provider, in Mirra's terms. */
export interface PaymentEvent {
  type: PaymentEventType;
  /**
   * The provider's id of this event (Stripe `evt_…`, Stars `telegram_payment_charge_id`,
   * YooKassa payment id + status, Cryptomus uuid + status): each is applied once.
   */
  eventId: string;
  /**
   * The Mirra order it belongs to (for renewals: the subscription's first order); null when the
   * provider's notification does not carry it (Stripe `charge.refunded`): found by
   * `providerPaymentId`, or else by `providerSubscriptionId`.
   */
  orderUuid: string | null;
  /** The provider's id of the payment: each one is applied to one order, once. */
  providerPaymentId: string;
  amount: number;
  currency: number;
  /** YooKassa: the saved method's id (`payment_method.id` when `saved`), for later charges. */
  savedMethodId?: string;
  /** Stripe `sub_…`; Stars: the first payment's `telegram_payment_charge_id`. */
  providerSubscriptionId?: string;
  /** Stripe `cus_…`. */
  providerCustomerId?: string;
  /** The end of the period just paid (Stripe `current_period_end`, Stars `subscription_expiration_date`). */
  periodEnd?: Date;
  /**
   * On `subscription.updated`: the provider's subscription's state in Mirra's terms, mapped by the
   * provider (Stripe `past_due`/`unpaid` → `past_due`, `canceled`/`incomplete_expired` → `ended`);
   * `other`: a state that changes nothing of Mirra's.
   */
  subscriptionStatus?: ProviderSubscriptionStatus;
  /** Stripe `cancel_at_period_end` on `subscription.updated`. */
  cancelAtPeriodEnd?: boolean;
  /**
   * When the provider made this state (Stripe `event.created`): a subscription's state older than
   * the one already applied, delivered late, changes nothing.
   */
  occurredAt?: Date;
  /**
   * On `refund.succeeded`: the total the provider has refunded of this payment so far (Stripe
   * `charge.amount_refunded`, YooKassa `refunded_amount`), in the payment's minor units; unset: all
   * of it. Less than `amount` is a partial refund.
   */
  refundedAmount?: number;
  /**
   * On `refund.succeeded`: the money was taken back by the buyer's bank (a dispute lost), not
   * refunded by Mirra — the whole order is refunded, whatever part of it the bank disputed.
   */
  chargeback?: boolean;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** An inbound notification as it reached Mirra: the exact bytes, headers and the sender's address. */
export interface InboundWebhook {
  rawBody: string;
  headers: WebhookHeaders;
  /** The sender's IP (after trusted proxies): YooKassa is trusted by its networks. */
  sourceIp: string;
}

/**
 * How a provider renews a subscription: `saved_method`, Mirra charges a method the first payment
 * kept (`chargeSavedMethod`); `provider`, the provider runs a subscription of its own, reports each
 * period (`subscription.renewed`) and stops it on request (`cancelSubscription`); `none`, one-off
 * payments only, so the plan is not sold through it.
 */
export type RecurringKind = 'saved_method' | 'provider' | 'none';

/**
 * What a provider can do, declared by the provider: the use cases decide by these facts and never
 * by the provider's name, so a new provider declares its own and changes no use case.
 */
export interface ProviderCapabilities {
  /** The ways to pay it serves, as the buyer picks them, in the order they are offered. */
  readonly methods: readonly TPaymentMethod[];
  /** The price regions it is offered in. */
  readonly regions: readonly TPaymentRegion[];
  /** The currencies it takes an order in (ISO 4217 numeric; CURRENCY_XTR for Telegram Stars). */
  readonly currencies: readonly number[];
  /** Offered only inside the Telegram Mini App, whose own payment sheet takes the payment. */
  readonly miniAppOnly: boolean;
  /**
   * It sends a fiscal receipt of every payment to the buyer's email (54-FZ) and refuses a payment
   * without one: none is started without an email (the account's, or one typed at checkout).
   */
  readonly receiptEmail: boolean;
  readonly recurring: RecurringKind;
  /**
   * The methods a free trial can start with: nothing is charged now and the card is kept for the
   * first charge when the trial ends (by a card check held and released, a card saved with nothing
   * charged, or a trial in the provider's own subscription). None: the first period is paid.
   */
  readonly trialMethods: readonly TPaymentMethod[];
  /** It refunds part of a payment; otherwise only all that is left of it. */
  readonly partialRefunds: boolean;
  /** Its refund is final when it answers (`refund` returns the refund's event), not on a later notice. */
  readonly refundsAtOnce: boolean;
  /** Money really moves (the test provider moves none): its purchases earn partner commissions. */
  readonly movesMoney: boolean;
  /**
   * Methods whose buyer comes back to Mirra's open invoice page (`/sberpay/<order>/?key=`) rather
   * than to the app: the bank's app may return them to another browser, signed out.
   */
  readonly invoicePageMethods: readonly TPaymentMethod[];
}

/**
 * One payment service. Every provider implements this, and the payments module (and the
 * subscriptions and wallet modules through it) never looks past it.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  readonly capabilities: ProviderCapabilities;
  /**
   * Minor units it holds on the buyer's card for an order and releases, never takes (a trial's
   * card check); absent: it holds nothing of its own.
   */
  heldOnCard?(order: { amount: number; saveMethod?: boolean | undefined }): number;
  /** Starts a payment for the order (idempotent per order uuid); returns where to send the buyer. */
  createPayment(order: ProviderOrder): Promise<CheckoutStarted>;
  /**
   * The events an inbound notification carries (none when it is one Mirra ignores), or null when it
   * does not verify: signature, source network, or the provider's own record disagrees.
   */
  parseWebhook(inbound: InboundWebhook): Promise<PaymentEvent[] | null>;
  /** The provider's current state of an order's payment (the reconciler's re-check); null if unknown. */
  fetchPayment(order: { uuid: string; providerPaymentId: string | null }): Promise<PaymentEvent | null>;
  /**
   * The buyer left the checkout through its cancel link: closes it so it can no longer be paid
   * (Stripe: the Checkout session is expired; a session already complete stays as it is). Absent:
   * the provider's page reports the cancel itself (YooKassa's `payment.canceled`, the test page).
   */
  closeCheckout?(order: { uuid: string; providerPaymentId: string | null }): Promise<void>;
  /**
   * Asks the provider to return the money (`refundAmount` of it, minor units; unset: all that is
   * left); the refund itself is applied when its event arrives. `alreadyRefunded` keys the request,
   * so a retried one never refunds twice and a later partial refund is a request of its own. A
   * provider whose answer means the money is back (`capabilities.refundsAtOnce`) answers the
   * refund's event, applied at once.
   */
  refund(
    order: ProviderOrder & { providerPaymentId: string; refundAmount?: number; alreadyRefunded: number },
  ): Promise<PaymentEvent | void>;
  /**
   * Charges a saved method with no buyer present (YooKassa `payment_method_id`), keyed by the new
   * order's uuid. Answers the payment's id and its final event when already final (null while
   * pending); its webhook follows either way. Absent: the provider cannot.
   */
  chargeSavedMethod?(
    order: ProviderOrder,
    savedMethodId: string,
  ): Promise<{ providerPaymentId: string; event: PaymentEvent | null }>;
  /**
   * Stops the provider's own renewals (Stripe: cancel at period end; Stars:
   * `editUserStarSubscription` is_canceled). Absent: the provider has no subscriptions of its own.
   */
  cancelSubscription?(subscription: { providerSubscriptionId: string; userId: number }): Promise<void>;
}
