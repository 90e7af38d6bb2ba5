import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { CreditsDeps } from './credits.deps.js';
import { getCreditHistory, getCreditStanding } from './credits.usecases.js';

export function registerCreditsRoutes(app: ZodApp, deps: CreditsDeps): void {
  serve(app, routes.credits.balance, async (request) =>
    getCreditStanding(deps, requireAuth(request).user.id),
  );
  serve(app, routes.credits.history, async (request) =>
    getCreditHistory(deps, requireAuth(request).user.id, request.query.cursor, request.query.limit ?? 20),
  );
}
