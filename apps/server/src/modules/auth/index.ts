/**
 * The public face of the auth module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export {
  type AccountLinkPurpose,
  decodeUid,
  encodeUid,
  isAccountTokenValid,
  makeAccountToken,
} from './account-links.models.js';
export type { AuthDeps } from './auth.deps.js';
export { registerAuthRoutes } from './auth.routes.js';
export { hashPassword, verifyPassword } from './password-hashing.js';
export { findPasswordProblems } from './passwords.models.js';
export { createSessionCache, type SessionCache } from './session-cache.js';
export { issueSession, revokeUserSessions } from './sessions.usecases.js';
export { createTokenService, type TokenService } from './tokens.js';
