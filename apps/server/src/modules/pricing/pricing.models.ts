import { z } from 'zod';
import {
  ZCatalogueProducts,
  ZFreeTier,
  ZModePrices,
  ZPremiumPlanSettings,
  type TPricingSettings,
} from '@mirra/contracts';

/**
 * What the console stores: only the values that differ from the server's configuration. Mode
 * prices and free-tier values override one by one; the product list and the plan override whole
 * (a product's prices make sense only together with its credits or days).
 */
export const ZPricingOverrides = z.object({
  prices: ZModePrices.partial().optional(),
  free_tier: ZFreeTier.partial().optional(),
  catalogue: ZCatalogueProducts.optional(),
  plan: ZPremiumPlanSettings.optional(),
});
export type PricingOverrides = z.infer<typeof ZPricingOverrides>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Keys of an object whose value is not undefined (JSON drops the rest anyway). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The settings in force: the defaults with the stored overrides on top. */
export function mergePricing(defaults: TPricingSettings, overrides: PricingOverrides): TPricingSettings {
  return {
    prices: { ...defaults.prices, ...defined(overrides.prices ?? {}) },
    free_tier: { ...defaults.free_tier, ...defined(overrides.free_tier ?? {}) },
    catalogue: overrides.catalogue ?? defaults.catalogue,
    plan: overrides.plan ?? defaults.plan,
  };
}

/**
 * What to store for the settings an admin asks for: whatever differs from the defaults. A value
 * set back to its default follows the configuration again.
 */
export function overridesFor(defaults: TPricingSettings, wanted: TPricingSettings): PricingOverrides {
  const result: PricingOverrides = {};
  const prices = Object.fromEntries(
    Object.entries(wanted.prices).filter(
      ([key, value]) => defaults.prices[key as keyof typeof defaults.prices] !== value,
    ),
  );
  if (Object.keys(prices).length) result.prices = prices;
  const freeTier = Object.fromEntries(
    Object.entries(wanted.free_tier).filter(
      ([key, value]) => defaults.free_tier[key as keyof typeof defaults.free_tier] !== value,
    ),
  );
  if (Object.keys(freeTier).length) result.free_tier = freeTier;
  if (!same(normaliseProducts(wanted.catalogue), normaliseProducts(defaults.catalogue))) {
    result.catalogue = normaliseProducts(wanted.catalogue);
  }
  if (!same(normalisePlan(wanted.plan), normalisePlan(defaults.plan)))
    result.plan = normalisePlan(wanted.plan);
  return result;
}

/** The names of the overridden values, as the console marks them (`prices.simple`, `catalogue`). */
export function overriddenPaths(overrides: PricingOverrides): string[] {
  return [
    ...Object.keys(defined(overrides.prices ?? {})).map((key) => `prices.${key}`),
    ...Object.keys(defined(overrides.free_tier ?? {})).map((key) => `free_tier.${key}`),
    ...(overrides.catalogue ? ['catalogue'] : []),
    ...(overrides.plan ? ['plan'] : []),
  ];
}

/**
 * Reads what the database holds. A section that no longer passes the rules (a bound tightened
 * since it was saved) is dropped and its defaults apply, rather than the whole catalogue failing.
 */
export function readOverrides(stored: unknown): { overrides: PricingOverrides; dropped: string[] } {
  const record = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const overrides: PricingOverrides = {};
  const dropped: string[] = [];
  const sections = ZPricingOverrides.shape;
  for (const key of Object.keys(sections) as Array<keyof PricingOverrides>) {
    if (record[key] === undefined) continue;
    const parsed = sections[key].safeParse(record[key]);
    if (parsed.success) (overrides as Record<string, unknown>)[key] = parsed.data;
    else dropped.push(key);
  }
  return { overrides, dropped };
}

/** A product as stored and compared: the keys in one order, credits or days only where they count. */
function normaliseProducts(products: TPricingSettings['catalogue']): TPricingSettings['catalogue'] {
  return products.map((p) => ({
    id: p.id,
    kind: p.kind,
    credits: p.kind === 'credits' ? p.credits : 0,
    days: p.kind === 'unlimited' ? p.days : 0,
    prices: defined({ ru: p.prices.ru, intl: p.prices.intl, stars: p.prices.stars }),
  }));
}

function normalisePlan(plan: TPricingSettings['plan']): TPricingSettings['plan'] {
  return {
    id: plan.id,
    period_days: plan.period_days,
    trial_days: plan.trial_days,
    trial_credits: plan.trial_credits,
    credits: plan.credits,
    prices: defined({ ru: plan.prices.ru, intl: plan.prices.intl, xtr: plan.prices.xtr }),
  };
}
