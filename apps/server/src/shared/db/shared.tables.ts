import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Fixed-window counters shared by every API process (so limits hold behind a load balancer). */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});

/**
 * The job worker pools that ever started, by graphile-worker's pool id (what it writes into a
 * job's locked_by). While a pool's process lives, a session of its own holds an advisory lock on
 * (WORKER_POOL_LOCK_NAMESPACE, id); PostgreSQL drops that lock the moment the process dies, so a
 * row whose lock can be taken is a dead pool, and the jobs it had locked can run again at once.
 */
export const jobWorkerPools = pgTable('job_worker_pools', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  poolId: text('pool_id').notNull().unique(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});
