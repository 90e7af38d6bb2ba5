import { z } from 'zod';
import { ZLoginBody, ZLogoutBody, ZRefreshBody, ZTokenPair } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { AuthDeps } from './auth.deps.js';
import { loginWithPassword } from '../users/index.js';
import { logout, refreshSession } from './sessions.usecases.js';

const tags = ['auth'];

/** Token endpoints (spec §7): login, refresh with rotation, logout. */
export function registerAuthRoutes(app: ZodApp, deps: AuthDeps): void {
  app.post(
    '/api/token/login/',
    {
      schema: {
        tags,
        summary: 'Sign in with email and password',
        body: ZLoginBody,
        response: { 200: ZTokenPair },
      },
    },
    async (request) => loginWithPassword(deps, request.body, request.ip),
  );

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
