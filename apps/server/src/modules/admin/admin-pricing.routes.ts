import { adminRoutes } from '@mirra/contracts';
import type { AdminDeps } from './admin.deps.js';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import { pricingForStaff } from '../pricing/index.js';
import { changePricingByStaff } from './admin.usecases.js';

/** Catalogue and prices (admins): read, and change with a reason, audited in the change's transaction. */
export function registerAdminPricingRoutes(app: ZodApp, deps: AdminDeps): void {
  serve(app, adminRoutes.pricing, async () => pricingForStaff(deps));
  serve(app, adminRoutes.changePricing, async (request) => {
    const { reason, ...wanted } = request.body;
    return changePricingByStaff(deps, requireAuth(request).user, wanted, reason);
  });
}
