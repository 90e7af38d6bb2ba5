import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { AuthDeps } from './auth.deps.js';
import { logout, refreshSession } from './sessions.usecases.js';

/**
 * Token endpoints: refresh with rotation, logout. Signing in with a password is the users
 * module's (it owns the credentials); it registers `/api/token/login/` under the same tag.
 */
export function registerAuthRoutes(app: ZodApp, deps: AuthDeps): void {
  serve(app, routes.auth.refresh, async (request) => refreshSession(deps, request.body.refresh));
  serve(app, routes.auth.logout, async (request) => {
    const { user, familyId } = requireAuth(request);
    await logout(deps, { userId: user.id, familyId }, request.body.refresh);
    return null;
  });
}
