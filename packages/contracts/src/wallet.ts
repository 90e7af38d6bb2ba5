import { z } from 'zod';

/** Currencies a wallet holds, by ISO 4217 numeric id: 643 roubles (the default), 840 US dollars. */
export const WALLET_CURRENCIES = [643, 840] as const;
export const ZWalletCurrency = z.coerce
  .number()
  .int()
  .refine((id) => (WALLET_CURRENCIES as readonly number[]).includes(id), { message: 'Unknown currency.' });

/** A wallet entry's status: cancelled, pending, out (money left), in (money arrived). */
export const WALLET_ENTRY_STATUSES = ['cancelled', 'pending', 'out', 'in'] as const;
export const ZWalletEntryStatus = z.enum(WALLET_ENTRY_STATUSES);
export type TWalletEntryStatus = z.infer<typeof ZWalletEntryStatus>;

/** What moved the money. */
export const WALLET_ENTRY_KINDS = [
  /** A top-up through a payment provider. */
  'pay_in',
  /** Something bought from the catalogue with the balance. */
  'purchase',
  /** Money between two people. */
  'transfer',
  /** A pay-out to the person's requisites. */
  'withdrawal',
  /** A partner's commission on a purchase made by someone they brought. */
  'referral_bonus',
  /** Money given back (a refunded top-up leaves, a refunded purchase returns). */
  'refund',
  /** A commission taken back because the purchase it came from was refunded. */
  'clawback',
  /** A correction by the service. */
  'adjustment',
] as const;
export const ZWalletEntryKind = z.enum(WALLET_ENTRY_KINDS);
export type TWalletEntryKind = z.infer<typeof ZWalletEntryKind>;

/** The wallet screen's filters. */
export const WALLET_FILTERS = ['purchases', 'transfers', 'withdrawals', 'frozen', 'referral'] as const;
export const ZWalletFilter = z.enum(WALLET_FILTERS);
export type TWalletFilter = z.infer<typeof ZWalletFilter>;

/** One currency of a wallet, in minor units (kopecks, cents). */
export const ZWalletBalance = z.object({
  currency: z.number().int(),
  /** Can be spent or paid out now. */
  available: z.number().int(),
  /** Arrived but held until `frozen_until` (partner commissions). */
  frozen: z.number().int(),
  /** On its way in (a top-up not yet paid). */
  pending: z.number().int(),
  /** Set aside for pay-outs in progress (already left `available`). */
  reserved: z.number().int(),
  /**
   * The part of `available` that can be paid out: earned commission only. Money topped up (or
   * received from another person) is for spending in Mirra, not cash.
   */
  payable: z.number().int(),
});
export type TWalletBalance = z.infer<typeof ZWalletBalance>;

export const ZWalletBalances = z.object({
  default_currency: z.number().int(),
  balances: z.array(ZWalletBalance),
});
export type TWalletBalances = z.infer<typeof ZWalletBalances>;

export const ZWalletEntry = z.object({
  id: z.number().int(),
  currency: z.number().int(),
  /** Signed minor units: positive in, negative out. */
  amount: z.number().int(),
  status: ZWalletEntryStatus,
  kind: ZWalletEntryKind,
  frozen_until: z.iso.datetime().nullable(),
  /** True while the hold lasts. */
  frozen: z.boolean(),
  ref: z.string().nullable(),
  created_at: z.iso.datetime(),
});
export type TWalletEntry = z.infer<typeof ZWalletEntry>;

export const ZWalletTransactionsQuery = z.object({
  filter: ZWalletFilter.optional(),
  cursor: z.string().max(32).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});

export const ZWalletTransactions = z.object({ results: z.array(ZWalletEntry), next: z.string().nullable() });
export type TWalletTransactions = z.infer<typeof ZWalletTransactions>;

/** Top-up limits in minor units, per currency. */
export const WALLET_PAY_IN_LIMITS: Record<number, { min: number; max: number }> = {
  643: { min: 10_000, max: 10_000_000 },
  840: { min: 100, max: 100_000 },
};

export const ZWalletCurrencyParams = z.object({ currency: ZWalletCurrency });
