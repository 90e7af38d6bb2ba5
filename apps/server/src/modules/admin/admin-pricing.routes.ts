import { adminRoutes } from '@mirra/contracts';
import type { AdminDeps } from './admin.deps.js';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import { changePricing, pricingForStaff } from '../pricing/index.js';
import { adminRepository } from './admin.repository.js';

/** The audit log's name for a change of the catalogue and prices, and its (only) target. */
export const PRICING_AUDIT = {
  action: 'pricing.change',
  targetKind: 'pricing',
  targetId: 'catalogue',
} as const;

/** Catalogue and prices (admins): read, and change with a reason, audited in the change's transaction. */
export function registerAdminPricingRoutes(app: ZodApp, deps: AdminDeps): void {
  serve(app, adminRoutes.pricing, async () => pricingForStaff(deps));
  serve(app, adminRoutes.changePricing, async (request) => {
    const staff = requireAuth(request).user;
    const { reason, ...wanted } = request.body;
    return changePricing(deps, staff.id, wanted, (tx, change) =>
      adminRepository.insertAudit(tx, {
        staffUserId: staff.id,
        action: PRICING_AUDIT.action,
        targetKind: PRICING_AUDIT.targetKind,
        targetId: PRICING_AUDIT.targetId,
        reason,
        before: change.before,
        after: change.after,
      }),
    );
  });
}
