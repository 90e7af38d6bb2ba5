import { z } from 'zod';
import { ZEmail } from './fields.js';

/** Price regions: Russia pays in roubles, everyone else in US dollars. */
export const PAYMENT_REGIONS = ['ru', 'intl'] as const;
export const ZPaymentRegion = z.enum(PAYMENT_REGIONS);
export type TPaymentRegion = z.infer<typeof ZPaymentRegion>;

/** ISO 4217 numeric currency ids. */
export const CURRENCY_RUB = 643;
export const CURRENCY_USD = 840;
/** Telegram Stars (`XTR`), which ISO 4217 has no number for: amounts are whole Stars. */
export const CURRENCY_XTR = 0;

/**
 * Ways to pay the buyer picks: the `test` provider, YooKassa's bank card, SberPay and SBP, Stripe
 * Checkout, Cryptomus (cryptocurrency), Telegram Stars (inside the Mini App only), and `balance`:
 * paid from the wallet, in one transaction, with no provider.
 */
export const PAYMENT_METHODS = [
  'test',
  'yookassa_bank_card',
  'yookassa_sberbank',
  'yookassa_sbp',
  'stripe',
  'cryptomus',
  'stars',
  'balance',
] as const;
export const ZPaymentMethod = z.enum(PAYMENT_METHODS);
export type TPaymentMethod = z.infer<typeof ZPaymentMethod>;

export const ZPaymentProduct = z.object({
  id: z.string(),
  kind: z.enum(['credits', 'unlimited']),
  /** Credits a pack grants (0 for the unlimited package). */
  credits: z.number().int(),
  /** Days the unlimited package lasts (0 for a pack). */
  days: z.number().int(),
  /** In minor units of `currency` (kopecks, cents). */
  amount: z.number().int(),
  currency: z.number().int(),
  /** The price in Telegram Stars inside the Mini App (0: not sold for Stars). */
  stars: z.number().int(),
});
export type TPaymentProduct = z.infer<typeof ZPaymentProduct>;

/**
 * What the providers of the offered ways to pay say of them, so the client asks for what each
 * needs without knowing providers: `receipt_email_methods` send a fiscal receipt to the buyer's
 * email and take no payment without one (an account with none types it); `stars_methods` are
 * priced in Telegram Stars and paid in Telegram's own payment sheet (the answer's
 * `confirmation_url` is an invoice link the Mini App opens).
 */
export const ZPaymentMethodFacts = z.object({
  receipt_email_methods: z.array(ZPaymentMethod),
  stars_methods: z.array(ZPaymentMethod),
});
export type TPaymentMethodFacts = z.infer<typeof ZPaymentMethodFacts>;

export const ZPaymentCatalogue = z.object({
  region: ZPaymentRegion,
  currency: z.number().int(),
  products: z.array(ZPaymentProduct),
  methods: z.array(ZPaymentMethod),
  ...ZPaymentMethodFacts.shape,
});
export type TPaymentCatalogue = z.infer<typeof ZPaymentCatalogue>;

export const ZPaymentRegionChange = z.object({ region: ZPaymentRegion });

export const ZPaymentOrderCreate = z.object({
  product: z.string().min(1).max(64),
  method: ZPaymentMethod,
  agree_offer: z.boolean().default(false),
  agree_privacy: z.boolean().default(false),
  /** The app path to come back to after paying (`/…`); anything else returns home. */
  return: z.string().max(512).optional(),
  /**
   * The price the buyer was shown and agreed to (minor units of `currency`; whole Stars with
   * CURRENCY_XTR): the server refuses with `payments.price_changed` when it would charge anything
   * else. For the wallet top-up (`product: 'wallet_top_up'`): how much to pay in.
   */
  amount: z.number().int().positive().optional(),
  currency: z.number().int().optional(),
  /**
   * Where YooKassa sends the 54-FZ receipt when the account has no email (a Telegram-only
   * account): kept on the order, the account's own email is not changed.
   */
  email: ZEmail.optional(),
});

/** The product id of a wallet top-up (the amount is the buyer's, within WALLET_PAY_IN_LIMITS). */
export const WALLET_TOP_UP_PRODUCT = 'wallet_top_up';

export const PAYMENT_PURPOSES = ['product', 'subscription', 'wallet_topup'] as const;
export const ZPaymentPurpose = z.enum(PAYMENT_PURPOSES);

export const PAYMENT_ORDER_STATUSES = ['pending', 'paid', 'failed', 'cancelled', 'refunded'] as const;
export const ZPaymentOrderStatus = z.enum(PAYMENT_ORDER_STATUSES);

/**
 * Where to pay: a page to open (`confirmation_url`), or for Stars the invoice link the Mini App
 * opens with its invoice call.
 */
export const ZPaymentOrderCreated = z.object({ uuid: z.uuid(), confirmation_url: z.string() });

/** An invoice's live state, as the open `/sberpay/<invoice>/` page shows it (no sign-in needed). */
export const ZPaymentInvoiceState = z.object({
  uuid: z.uuid(),
  status: ZPaymentOrderStatus,
  amount: z.number().int(),
  currency: z.number().int(),
  product: z.string(),
  /**
   * Minor units held on the card to check it and released, never taken (a trial's card check:
   * `amount` is 0); 0 when nothing is held.
   */
  held: z.number().int().nonnegative(),
  /** Where to go back to in the app once it is paid. */
  return_path: z.string(),
});
export type TPaymentInvoiceState = z.infer<typeof ZPaymentInvoiceState>;

export const ZPaymentOrder = z.object({
  uuid: z.uuid(),
  product: z.string(),
  status: ZPaymentOrderStatus,
  amount: z.number().int(),
  currency: z.number().int(),
  credits: z.number().int(),
  unlimited_days: z.number().int(),
  purpose: ZPaymentPurpose,
  created_at: z.iso.datetime(),
});
export type TPaymentOrder = z.infer<typeof ZPaymentOrder>;

export const ZPaymentOrderParams = z.object({ uuid: z.uuid() });
/** The test provider's checkout page opens only with its own token beside the order's uuid. */
export const ZTestCheckoutQuery = z.object({ token: z.string().max(64).optional() });
/** A button of the test provider's checkout page, posted as a form. */
export const ZTestCheckoutBody = z.object({
  action: z.enum(['pay', 'pay_decline_later', 'decline', 'cancel', 'refund']),
});

/** The SberPay return page's key (`key`, not `token`: the web app takes `token` on load for sign-in). */
export const ZPaymentInvoiceQuery = z.object({ key: z.string().max(64).optional() });
