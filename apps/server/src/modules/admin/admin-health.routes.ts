import { adminRoutes, type TAdminHealth } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';

/**
 * The console's health page. The ops module owns the probes (`/readyz` and `/metrics` read the same
 * ones) and hands this reader in, so the page never checks anything in a way of its own.
 */
export function registerAdminHealthRoute(
  app: ZodApp,
  deps: { now: () => Date; readHealth: (now: Date) => Promise<TAdminHealth> },
): void {
  serve(app, adminRoutes.health, () => deps.readHealth(deps.now()));
}
