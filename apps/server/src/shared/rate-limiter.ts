import { sql } from 'drizzle-orm';
import type { Db } from './db/client.js';
import { throttled } from './errors.js';

export interface RateLimit {
  /** What is being limited and for whom, e.g. `login:ip:1.2.3.4`. */
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL: one upsert per check, shared by every API process, so a
 * limit holds behind a load balancer. Throws `common.throttled` (429, Retry-After) when over.
 */
export function createRateLimiter(db: Db, clock: () => Date = () => new Date()) {
  return {
    async hit(limits: RateLimit[]): Promise<void> {
      const now = clock();
      for (const { key, limit, windowSeconds } of limits) {
        const result = await db.execute<{ hits: number; window_start: Date }>(sql`
          INSERT INTO rate_limit_counters (key, window_start, hits)
          VALUES (${key}, ${now.toISOString()}::timestamptz, 1)
          ON CONFLICT (key) DO UPDATE SET
            hits = CASE WHEN rate_limit_counters.window_start
                             <= ${now.toISOString()}::timestamptz - make_interval(secs => ${windowSeconds})
                        THEN 1 ELSE rate_limit_counters.hits + 1 END,
            window_start = CASE WHEN rate_limit_counters.window_start
                             <= ${now.toISOString()}::timestamptz - make_interval(secs => ${windowSeconds})
                        THEN ${now.toISOString()}::timestamptz ELSE rate_limit_counters.window_start END
          RETURNING hits, window_start`);
        const row = result.rows[0];
        if (row && row.hits > limit) {
          const windowEnds = new Date(row.window_start).getTime() + windowSeconds * 1000;
          throw throttled(Math.max(1, Math.ceil((windowEnds - now.getTime()) / 1000)));
        }
      }
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
