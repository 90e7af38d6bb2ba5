import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notAuthenticated } from '../shared/errors.js';
import type { AuthContext } from '../shared/http/auth-context.js';
import { requireStaff, staffLevelOf } from '../shared/http/staff-guard.js';
import { findActiveUserForSession, pickReferralCode } from '../modules/users/index.js';
import { authenticateTelegramInitData } from '../modules/telegram/index.js';
import type { AppDeps } from './deps.js';

/**
 * Reads the Authorization header: `TG <initData>` from the Mini App, validated by HMAC
 * and freshness, or `Bearer <access>`. Routes declare `config.auth`; by default none is needed.
 */
export function registerAuthentication(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('auth', null);
  // Staff routes are checked before the body is read: someone below the route's level gets the
  // 404 of a missing route whatever they send, never a parse or validation error revealing it.
  app.addHook('onRequest', async (request) => {
    const level = staffLevelOf(request);
    if (!level) return;
    const auth = await resolveAuth(deps, request).catch(() => null);
    request.auth = requireStaff(auth, level);
  });
  app.addHook('preHandler', async (request) => {
    const mode = request.routeOptions.config.auth ?? 'none';
    if (mode === 'none' || staffLevelOf(request)) return;
    try {
      request.auth = await resolveAuth(deps, request);
    } catch (error) {
      // A stale or broken header on a public route is treated as no header at all.
      if (mode === 'optional') return;
      throw error;
    }
    if (mode === 'required' && !request.auth) throw notAuthenticated();
  });
}

async function resolveAuth(deps: AppDeps, request: FastifyRequest): Promise<AuthContext | null> {
  const header = request.headers.authorization;
  if (!header) return null;
  const space = header.indexOf(' ');
  const scheme = (space === -1 ? header : header.slice(0, space)).toLowerCase();
  const credentials = space === -1 ? '' : header.slice(space + 1).trim();
  if (scheme === 'tg' || scheme === 'tma') {
    const user = await authenticateTelegramInitData(
      deps,
      credentials,
      pickReferralCode(null, request.cookies),
    );
    return { user, familyId: null, via: 'telegram' };
  }
  if (scheme === 'bearer' && credentials) {
    const claims = await deps.tokens.verify(credentials, 'access', deps.now()).catch((error: unknown) => {
      throw error instanceof AppError ? withBearerChallenge(error) : error;
    });
    const user = await deps.sessionCache.resolve(claims.userId, claims.familyId, () =>
      findActiveUserForSession(deps.db, claims.userId, claims.familyId),
    );
    if (!user) {
      throw new AppError({
        code: 'auth.token_revoked',
        detail: 'Given token not valid for any token type',
        headers: BEARER_CHALLENGE,
      });
    }
    return { user, familyId: claims.familyId, via: 'bearer' };
  }
  throw new AppError({
    code: 'auth.token_invalid',
    detail: 'Given token not valid for any token type',
    headers: BEARER_CHALLENGE,
  });
}

// Every 401 for a Bearer credential names the scheme to use, whatever was wrong with the token
// (forged, expired, wrong type, revoked), so a refusal reads the same whichever check failed.
const BEARER_CHALLENGE = { 'www-authenticate': 'Bearer realm="api"' };

function withBearerChallenge(error: AppError): AppError {
  return new AppError({
    code: error.code,
    detail: error.detail,
    fields: error.fields,
    extra: error.extra,
    statusCode: error.statusCode,
    headers: { ...error.headers, ...BEARER_CHALLENGE },
    cause: error,
  });
}
