import { adminRoutes, type TPricingSettings } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const adminPricingKeys = { pricing: () => ['admin', 'pricing'] as const };

/** The console's catalogue and prices: read them, and set them with a reason (audited). */
export const adminPricingApi = {
  get: () => api(adminRoutes.pricing),
  change: (settings: TPricingSettings, reason: string) =>
    api(adminRoutes.changePricing, { body: { ...settings, reason } }),
};
