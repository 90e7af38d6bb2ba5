/**
 * The public face of the pricing module: the catalogue and prices in force (generation prices by
 * mode, the free tier, the packs and the premium plan), read by generations, payments,
 * subscriptions and the public config, and changed from the staff console.
 */
export type { PricingDeps } from './pricing.deps.js';
export { createPricingSettings, type PricingSettings } from './pricing-settings.js';
export { changePricing, pricingForStaff } from './pricing.usecases.js';
