import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { QsDeps } from './qs.deps.js';
import { findQueryString, saveQueryString } from './qs.usecases.js';

/**
 * Saved query strings behind short ids: a Mini App link can only carry a 64-character start
 * parameter, so `qs_<id>` stands for a longer query the app then reloads with.
 */
export function registerQsRoutes(app: ZodApp, deps: QsDeps): void {
  serve(app, routes.qs.get, async (request) => findQueryString(deps, request.query.id));
  serve(app, routes.qs.create, async (request) =>
    saveQueryString(deps, requireAuth(request).user, request.body.qs),
  );
}
