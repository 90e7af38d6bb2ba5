import { z } from 'zod';
import { STAFF_REASON_MAX_LENGTH } from './admin.js';
import { PRICING_BOUNDS, ZFreeTier, ZModePrices, wholeWithin as whole } from './pricing.js';

const productId = z
  .string()
  .regex(/^[a-z0-9_]{1,64}$/, { error: 'Use 1–64 small Latin letters, digits or _.' });

/** One product sold for money: a pack of credits or days of unlimited generation. */
export const ZCatalogueProduct = z
  .object({
    id: productId,
    kind: z.enum(['credits', 'unlimited']),
    credits: whole({ min: 0, max: PRICING_BOUNDS.packCredits.max }),
    days: whole({ min: 0, max: PRICING_BOUNDS.packDays.max }),
    /** Kopecks in Russia, cents elsewhere; `stars`: whole Stars in the Mini App (unset: not sold for Stars). */
    prices: z.object({
      ru: whole(PRICING_BOUNDS.ru),
      intl: whole(PRICING_BOUNDS.intl),
      stars: whole(PRICING_BOUNDS.stars).optional(),
    }),
  })
  .superRefine((product, ctx) => {
    if (product.kind === 'credits' && product.credits < PRICING_BOUNDS.packCredits.min) {
      ctx.addIssue({ code: 'custom', path: ['credits'], message: 'A pack gives at least 1 credit.' });
    }
    if (product.kind === 'unlimited' && product.days < PRICING_BOUNDS.packDays.min) {
      ctx.addIssue({ code: 'custom', path: ['days'], message: 'Unlimited lasts at least 1 day.' });
    }
  });
export type TCatalogueProduct = z.infer<typeof ZCatalogueProduct>;

export const ZCatalogueProducts = z
  .array(ZCatalogueProduct)
  .min(PRICING_BOUNDS.products.min, { error: 'Keep at least one product.' })
  .max(PRICING_BOUNDS.products.max, { error: `At most ${PRICING_BOUNDS.products.max} products.` })
  .superRefine((products, ctx) => {
    const seen = new Set<string>();
    products.forEach((product, index) => {
      if (seen.has(product.id)) {
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'Each product needs its own id.' });
      }
      seen.add(product.id);
    });
  });

/** The premium subscription: its period, trial, credits per period and price per region. */
export const ZPremiumPlanSettings = z.object({
  id: productId,
  period_days: whole(PRICING_BOUNDS.planPeriodDays),
  trial_days: whole(PRICING_BOUNDS.planTrialDays),
  trial_credits: whole(PRICING_BOUNDS.planCredits),
  credits: whole(PRICING_BOUNDS.planCredits),
  prices: z.object({
    ru: whole(PRICING_BOUNDS.ru),
    intl: whole(PRICING_BOUNDS.intl),
    xtr: whole(PRICING_BOUNDS.stars).optional(),
  }),
});
export type TPremiumPlanSettings = z.infer<typeof ZPremiumPlanSettings>;

export const ZPricingSettings = z.object({
  prices: ZModePrices,
  free_tier: ZFreeTier,
  catalogue: ZCatalogueProducts,
  plan: ZPremiumPlanSettings,
});
export type TPricingSettings = z.infer<typeof ZPricingSettings>;

/**
 * The catalogue and prices in force, the defaults from the server's configuration, and which
 * values the console overrides (`prices.simple`, `free_tier.daily_photos`, `catalogue`, `plan`…).
 */
export const ZAdminPricing = z.object({
  /** 0 until the console first changes anything; each change adds one. */
  version: z.number().int(),
  updated_at: z.string().nullable(),
  settings: ZPricingSettings,
  defaults: ZPricingSettings,
  overridden: z.array(z.string()),
});
export type TAdminPricing = z.infer<typeof ZAdminPricing>;

/** Everything the console shows, as it should now be, and why (kept in the audit log). */
export const ZAdminPricingBody = ZPricingSettings.extend({
  reason: z
    .string({ error: 'Say why.' })
    .trim()
    .min(1, { error: 'Say why.' })
    .max(STAFF_REASON_MAX_LENGTH, { error: `At most ${STAFF_REASON_MAX_LENGTH} characters.` }),
});
