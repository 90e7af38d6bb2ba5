import { z } from 'zod';

/** Price regions: Russia pays in roubles, everyone else in US dollars. */
export const PAYMENT_REGIONS = ['ru', 'intl'] as const;
export const ZPaymentRegion = z.enum(PAYMENT_REGIONS);
export type TPaymentRegion = z.infer<typeof ZPaymentRegion>;

/** ISO 4217 numeric currency ids. */
export const CURRENCY_RUB = 643;
export const CURRENCY_USD = 840;

/** `balance`: paid from the wallet, in one transaction, with no provider. */
export const PAYMENT_METHODS = ['test', 'balance'] as const;
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
});
export type TPaymentProduct = z.infer<typeof ZPaymentProduct>;

export const ZPaymentCatalogue = z.object({
  region: ZPaymentRegion,
  currency: z.number().int(),
  products: z.array(ZPaymentProduct),
  methods: z.array(ZPaymentMethod),
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
  /** For the wallet top-up (`product: 'wallet_top_up'`): how much, in minor units of `currency`. */
  amount: z.number().int().positive().optional(),
  currency: z.number().int().optional(),
});

/** The product id of a wallet top-up (the amount is the buyer's, within WALLET_PAY_IN_LIMITS). */
export const WALLET_TOP_UP_PRODUCT = 'wallet_top_up';

export const PAYMENT_PURPOSES = ['product', 'subscription', 'wallet_topup'] as const;
export const ZPaymentPurpose = z.enum(PAYMENT_PURPOSES);

export const PAYMENT_ORDER_STATUSES = ['pending', 'paid', 'failed', 'cancelled', 'refunded'] as const;
export const ZPaymentOrderStatus = z.enum(PAYMENT_ORDER_STATUSES);

export const ZPaymentOrderCreated = z.object({ uuid: z.uuid(), confirmation_url: z.string() });

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
export const ZTestCheckoutBody = z.object({ action: z.enum(['pay', 'decline', 'cancel', 'refund']) });
