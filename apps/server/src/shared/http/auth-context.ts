import type { FastifyRequest } from 'fastify';
import type { users } from '../db/schema.js';
import { notAuthenticated } from '../errors.js';

export type AuthMode = 'required' | 'optional' | 'none';

/** The signed-in caller of a request, set by the composition root's authentication hook. */
export interface AuthContext {
  user: typeof users.$inferSelect;
  /** The refresh-token family of a Bearer session; null for Telegram init data. */
  familyId: string | null;
  via: 'bearer' | 'telegram';
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route: `required` (401 without valid credentials), `optional`, `none`. */
    auth?: AuthMode;
  }
}

/** The signed-in caller of a `config.auth: 'required'` route. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw notAuthenticated();
  return request.auth;
}

/** Signed in with the Telegram Mini App's init data: the caller is inside the Mini App. */
export function viaMiniApp(auth: AuthContext): boolean {
  return auth.via === 'telegram';
}
