import { z } from 'zod';
import { ZLogoutBody, ZRefreshBody, ZTokenPair } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { AuthDeps } from './auth.deps.js';
import { logout, refreshSession } from './sessions.usecases.js';

const tags = ['auth'];

/**
 * Token endpoints: refresh with rotation, logout. Signing in with a password is the users
 * module's (it owns the credentials); it registers `/api/token/login/` under the same tag.
 */
export function registerAuthRoutes(app: ZodApp, deps: AuthDeps): void {
  app.post(
    '/api/auth/refresh/',
    {
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new pair (the old one stops working)',
        body: ZRefreshBody,
        response: { 200: ZTokenPair },
      },
    },
    async (request) => refreshSession(deps, request.body.refresh),
  );

  app.post(
    '/api/token/logout/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Sign out: revokes this session’s tokens',
        body: ZLogoutBody,
        response: { 204: z.null() },
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const { user, familyId } = requireAuth(request);
      await logout(deps, { userId: user.id, familyId }, request.body.refresh);
      return reply.status(204).send(null);
    },
  );
}
