import { z } from 'zod';
import { ZEmail } from './fields.js';
import { ZPaymentMethod, ZPaymentMethodFacts, ZPaymentRegion } from './payments.js';

/** Where a premium subscription stands. */
export const PREMIUM_STATUSES = ['none', 'pending', 'trialing', 'active', 'past_due', 'expired'] as const;
export const ZPremiumStatus = z.enum(PREMIUM_STATUSES);
export type TPremiumStatus = z.infer<typeof ZPremiumStatus>;

/** The premium plan as sold in the person's region. */
export const ZPremiumPlan = z.object({
  id: z.string(),
  /** Days between charges. */
  period_days: z.number().int(),
  /** Days of the free trial (0: none). */
  trial_days: z.number().int(),
  /** Credits granted each period. */
  credits: z.number().int(),
  /** Credits granted with the trial. */
  trial_credits: z.number().int(),
  /** Each period's price in minor units of `currency`. */
  amount: z.number().int(),
  currency: z.number().int(),
  /** The price in Telegram Stars inside the Mini App (null: not sold for Stars). */
  stars: z.number().int().nullable(),
});
export type TPremiumPlan = z.infer<typeof ZPremiumPlan>;

export const ZPremiumState = z.object({
  plan: ZPremiumPlan,
  region: ZPaymentRegion,
  /** Ways to pay the plan on this server (renewals need a method that can be charged again). */
  methods: z.array(ZPaymentMethod),
  status: ZPremiumStatus,
  /** True while premium's features are on. */
  premium: z.boolean(),
  /** Whether the person may still start the trial (once per account and per Telegram id). */
  trial_available: z.boolean(),
  /** The methods the trial can start with (they keep the card for the first charge after it). */
  trial_methods: z.array(ZPaymentMethod),
  ...ZPaymentMethodFacts.shape,
  /** Renewals are on (false after cancelling: access runs to `access_until`). */
  auto_renew: z.boolean(),
  access_until: z.iso.datetime().nullable(),
  next_charge_at: z.iso.datetime().nullable(),
  /** The price each renewal charges, fixed at the start (minor units). */
  amount: z.number().int().nullable(),
  currency: z.number().int().nullable(),
  /** Failed renewal attempts since the last successful charge. */
  failed_attempts: z.number().int(),
});
export type TPremiumState = z.infer<typeof ZPremiumState>;

export const ZPremiumCheckout = z.object({
  method: ZPaymentMethod,
  agree_offer: z.boolean().default(false),
  agree_privacy: z.boolean().default(false),
  /** The app path to come back to after paying. */
  return: z.string().max(512).optional(),
  /**
   * The plan's price the buyer was shown (minor units, or whole Stars with CURRENCY_XTR): refused
   * with `payments.price_changed` when the server would charge anything else.
   */
  amount: z.number().int().positive().optional(),
  currency: z.number().int().optional(),
  /** The 54-FZ receipt's email for YooKassa when the account has none (kept on the order only). */
  email: ZEmail.optional(),
});

/** Where to pay (a provider's page), or null when nothing had to be paid (renewals switched back on). */
export const ZPremiumCheckoutStarted = z.object({
  uuid: z.uuid().nullable(),
  confirmation_url: z.string().nullable(),
});
