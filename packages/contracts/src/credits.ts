import { z } from 'zod';

export const CREDIT_ENTRY_KINDS = [
  'welcome_grant',
  'generation_charge',
  'generation_refund',
  'model_training_charge',
  'model_training_refund',
  'royalty',
  'purchase',
  'purchase_refund',
  'subscription_grant',
  /** Credits bought with one's own wallet money (partner earnings). */
  'wallet_transfer',
  'adjustment',
] as const;
export const ZCreditEntryKind = z.enum(CREDIT_ENTRY_KINDS);

export const ZCreditBalance = z.object({
  balance: z.number().int(),
  /** When the unlimited package (no free-tier pause) ends; null when none is running. */
  unlimited_until: z.iso.datetime().nullable(),
});

export const ZCreditEntry = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  kind: ZCreditEntryKind,
  /** What the entry is about, e.g. a generation uuid. */
  ref: z.string().nullable(),
  balance_after: z.number().int(),
  created_at: z.iso.datetime(),
});
export const ZCreditHistory = z.object({ results: z.array(ZCreditEntry), next: z.string().nullable() });
