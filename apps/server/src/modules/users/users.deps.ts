import type { SharedDeps } from '../../shared/deps.js';
import type { SessionCache, TokenService } from '../auth/index.js';

/** What the users module is handed at start: its slice of the app's dependencies. */
export interface UsersDeps extends Pick<
  SharedDeps,
  'config' | 'db' | 'linkSecret' | 'mailer' | 'rateLimiter' | 'now' | 'storage'
> {
  tokens: TokenService;
  sessionCache: SessionCache;
}
