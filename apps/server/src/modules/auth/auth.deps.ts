import type { SharedDeps } from '../../shared/deps.js';
import type { SessionCache } from './session-cache.js';
import type { TokenService } from './tokens.js';

/** What the auth module is handed at start: its slice of the app's dependencies. */
export interface AuthDeps extends Pick<SharedDeps, 'db' | 'now'> {
  tokens: TokenService;
  sessionCache: SessionCache;
}
