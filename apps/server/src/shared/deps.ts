import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { NotificationHub } from './db/notifications.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mailer/mailer.js';
import type { RateLimiter } from './rate-limiter.js';
import type { MediaUrls } from './storage/media-urls.js';
import type { Storage } from './storage/storage.js';

/**
 * The plumbing every module may be handed, built once at start by the composition root. A module
 * declares its own `<Name>Deps` slice: a Pick of these plus the services other modules provide.
 */
export interface SharedDeps {
  config: Config;
  database: Database;
  db: Db;
  logger: Logger;
  /** Secret for account links (activation, password reset); same source as the JWT secret. */
  linkSecret: string;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** Cross-process change notifications (LISTEN/NOTIFY); null where a process runs without. */
  notifications: NotificationHub | null;
  /** Uploaded photos and results (DATA_DIR/media by default). */
  storage: Storage;
  mediaUrls: MediaUrls;
  /** The one clock: every timestamp a use case or repository writes comes from here. */
  now: () => Date;
}
