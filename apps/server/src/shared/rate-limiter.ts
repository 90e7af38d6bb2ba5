import { sql } from 'drizzle-orm';
import type { Db } from './db/client.js';
import { AppError, throttled } from './errors.js';

/** Keys marked by `remember` start with this; the cleanup keeps them REMEMBERED_DAYS, not a day. */
export const REMEMBERED_KEY_PREFIX = 'remembered:';
export const REMEMBERED_DAYS = 90;

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
  const limiter = {
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

    /**
     * Refuses like `hit` when a counter is already over its limit, without counting this request:
     * for limits that count only what went wrong (failed sign-ins), recorded with `count`.
     */
    async check(limits: RateLimit[]): Promise<void> {
      const now = clock();
      for (const { key, limit, windowSeconds } of limits) {
        const result = await db.execute<{ hits: number; window_start: Date }>(sql`
          SELECT hits, window_start FROM rate_limit_counters
          WHERE key = ${key}
            AND window_start > ${now.toISOString()}::timestamptz - make_interval(secs => ${windowSeconds})`);
        const row = result.rows[0];
        if (row && row.hits >= limit) {
          const windowEnds = new Date(row.window_start).getTime() + windowSeconds * 1000;
          throw throttled(Math.max(1, Math.ceil((windowEnds - now.getTime()) / 1000)));
        }
      }
    },

    /** Counts one more against each limit without refusing (what `check` later reads). */
    async count(limits: RateLimit[]): Promise<void> {
      await limiter.hit(limits).catch((error: unknown) => {
        if (!(error instanceof AppError && error.code === 'common.throttled')) throw error;
      });
    },

    /**
     * Marks `key` as seen now (an address that signed in to an account), for `isRemembered`; kept
     * REMEMBERED_DAYS after the last mark.
     */
    async remember(key: string): Promise<void> {
      const now = clock().toISOString();
      await db.execute(sql`
        INSERT INTO rate_limit_counters (key, window_start, hits)
        VALUES (${REMEMBERED_KEY_PREFIX + key}, ${now}::timestamptz, 1)
        ON CONFLICT (key) DO UPDATE SET window_start = ${now}::timestamptz, hits = 1`);
    },

    /**
     * Marks `key` as used, kept like `remember`: true for the one caller that marked it first
     * (a single-use link), false for every later or concurrent one.
     */
    async claimOnce(key: string): Promise<boolean> {
      const result = await db.execute(sql`
        INSERT INTO rate_limit_counters (key, window_start, hits)
        VALUES (${REMEMBERED_KEY_PREFIX + key}, ${clock().toISOString()}::timestamptz, 1)
        ON CONFLICT (key) DO NOTHING
        RETURNING key`);
      return result.rows.length === 1;
    },

    /** Whether `key` was marked by `remember` within the last REMEMBERED_DAYS. */
    async isRemembered(key: string): Promise<boolean> {
      const result = await db.execute(sql`
        SELECT 1 FROM rate_limit_counters
        WHERE key = ${REMEMBERED_KEY_PREFIX + key}
          AND window_start > ${clock().toISOString()}::timestamptz - make_interval(days => ${REMEMBERED_DAYS})`);
      return result.rows.length > 0;
    },
  };
  return limiter;
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
