import type { SharedDeps } from '../../shared/deps.js';
import type { SessionCache, TokenService } from '../auth/index.js';
import type { GoogleVerifier } from './google-verifier.js';

/** What the google module is handed at start: its slice of the app's dependencies. */
export interface GoogleDeps extends Pick<SharedDeps, 'config' | 'db' | 'now'> {
  tokens: TokenService;
  sessionCache: SessionCache;
  /** Null when no Google client id is configured. */
  google: GoogleVerifier | null;
}
