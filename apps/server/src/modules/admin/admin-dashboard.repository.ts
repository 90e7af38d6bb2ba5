import { CURRENCY_USD } from '@mirra/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';

/** Counts rows come back as strings (bigint sums): read them as numbers. */
const num = (value: unknown) => Number(value ?? 0);

/**
 * Read-only counts over the whole service for the console home. Each query is one aggregate;
 * none of them locks or writes anything.
 */
export const adminDashboardRepository = {
  async users(db: DbOrTx, today: Date, weekStart: Date) {
    const { rows } = await db.execute<{ total: string; new_today: string; new_7d: string }>(sql`
      SELECT count(*) AS total,
             count(*) FILTER (WHERE date_joined >= ${today.toISOString()}) AS new_today,
             count(*) FILTER (WHERE date_joined >= ${weekStart.toISOString()}) AS new_7d
      FROM users`);
    const row = rows[0];
    return { total: num(row?.total), new_today: num(row?.new_today), new_7d: num(row?.new_7d) };
  },

  /** Generations created since `since`, counted by status, engine and mode together. */
  async generationsSince(db: DbOrTx, since: Date) {
    const { rows } = await db.execute<{ status: number; engine: string; mode: string; n: string }>(sql`
      SELECT status, engine, mode, count(*) AS n
      FROM generations
      WHERE created_at >= ${since.toISOString()}
      GROUP BY status, engine, mode`);
    return rows.map((row) => ({ status: row.status, engine: row.engine, mode: row.mode, count: num(row.n) }));
  },

  /**
   * graphile-worker's waiting jobs (not locked, attempts left) and how long, by the database's
   * clock (the one jobs are due by), the oldest due one has waited.
   */
  async queue(db: DbOrTx) {
    const { rows } = await db.execute<{ depth: string; oldest_age: string | null }>(sql`
      SELECT count(*) AS depth,
             floor(extract(epoch FROM now() - min(run_at) FILTER (WHERE run_at <= now()))) AS oldest_age
      FROM graphile_worker._private_jobs
      WHERE locked_at IS NULL AND attempts < max_attempts`);
    const row = rows[0];
    const age = row?.oldest_age;
    return {
      depth: num(row?.depth),
      oldestAgeSeconds: age === null || age === undefined ? null : Math.max(0, num(age)),
    };
  },

  /** Money paid since `from` (and today) and refunded since `from`, by provider and currency. */
  async revenue(db: DbOrTx, today: Date, from: Date) {
    const { rows } = await db.execute<{
      provider: string;
      currency: number;
      today: string | null;
      last_30d: string | null;
      refunded_30d: string | null;
    }>(sql`
      SELECT provider, currency,
             sum(amount) FILTER (WHERE paid_at >= ${today.toISOString()}) AS today,
             sum(amount) FILTER (WHERE paid_at >= ${from.toISOString()}) AS last_30d,
             sum(amount) FILTER (WHERE refunded_at >= ${from.toISOString()}) AS refunded_30d
      FROM payment_orders
      WHERE paid_at >= ${from.toISOString()} OR refunded_at >= ${from.toISOString()}
      GROUP BY provider, currency
      ORDER BY provider, currency`);
    return rows.map((row) => ({
      provider: row.provider,
      currency: Number(row.currency),
      today: num(row.today),
      last_30d: num(row.last_30d),
      refunded_30d: num(row.refunded_30d),
    }));
  },

  /**
   * Generations since `from` by mode and engine, and digital-model trainings started since then
   * (mode `training`), with what the providers billed and the credits kept (refunded work gave its
   * credits back), split into today and the whole window. A training's provider cost is kept with
   * each LoRA it trained (`provider_loras -> engine -> costUsd`).
   */
  async costsSince(db: DbOrTx, today: Date, from: Date) {
    const { rows } = await db.execute<{
      mode: string;
      engine: string;
      n_today: string;
      cost_today: string | null;
      credits_today: string | null;
      n: string;
      cost: string | null;
      credits: string | null;
    }>(sql`
      SELECT mode, engine,
             count(*) FILTER (WHERE created_at >= ${today.toISOString()}) AS n_today,
             sum(provider_cost_usd) FILTER (WHERE created_at >= ${today.toISOString()}) AS cost_today,
             sum(cost) FILTER (WHERE created_at >= ${today.toISOString()} AND NOT refunded) AS credits_today,
             count(*) AS n,
             sum(provider_cost_usd) AS cost,
             sum(cost) FILTER (WHERE NOT refunded) AS credits
      FROM (
        SELECT mode, engine, created_at, provider_cost_usd::float8 AS provider_cost_usd, cost, refunded
        FROM generations
        WHERE created_at >= ${from.toISOString()}
        UNION ALL
        SELECT 'training', engine, training_started_at,
               (SELECT sum((lora ->> 'costUsd')::float8) FROM jsonb_each(provider_loras) AS l(name, lora)),
               cost, refunded
        FROM models
        WHERE training_started_at >= ${from.toISOString()}
      ) AS work
      GROUP BY mode, engine`);
    return rows.map((row) => ({
      mode: row.mode,
      engine: row.engine,
      today: { count: num(row.n_today), costUsd: num(row.cost_today), credits: num(row.credits_today) },
      window: { count: num(row.n), costUsd: num(row.cost), credits: num(row.credits) },
    }));
  },

  /**
   * US-dollar orders paid since `from` (not refunded) that sold credits for money: cents paid and
   * credits sold. A free trial's credits were given, not sold, so they value nothing.
   */
  async creditSales(db: DbOrTx, from: Date) {
    const { rows } = await db.execute<{ cents: string | null; credits: string | null }>(sql`
      SELECT sum(amount) AS cents, sum(credits) AS credits
      FROM payment_orders
      WHERE status = 'paid' AND currency = ${CURRENCY_USD} AND credits > 0 AND amount > 0
        AND paid_at >= ${from.toISOString()}`);
    return { cents: num(rows[0]?.cents), credits: num(rows[0]?.credits) };
  },

  /**
   * Distinct people who created a generation or whose last sign-in falls in the window. The last
   * sign-in is all users keep, which is enough: anyone who signed in since `since` has it there.
   */
  async activeUsers(db: DbOrTx, today: Date, weekStart: Date) {
    const { rows } = await db.execute<{ today: string; week: string }>(sql`
      WITH active AS (
        SELECT user_id, created_at AS at FROM generations WHERE created_at >= ${weekStart.toISOString()}
        UNION ALL
        SELECT id, last_login FROM users WHERE last_login >= ${weekStart.toISOString()}
      )
      SELECT count(DISTINCT user_id) FILTER (WHERE at >= ${today.toISOString()}) AS today,
             count(DISTINCT user_id) AS week
      FROM active`);
    return { today: num(rows[0]?.today), last_7d: num(rows[0]?.week) };
  },

  /**
   * Finished face pictures whose likeness was checked, since `from`, by engine: how many, and how
   * many ended refunded for too little likeness.
   */
  async likenessRefunds(db: DbOrTx, from: Date) {
    const { rows } = await db.execute<{ engine: string; checked: string; refunded: string }>(sql`
      SELECT engine, count(*) AS checked,
             count(*) FILTER (WHERE error_code = 'generations.likeness_failed') AS refunded
      FROM generations
      WHERE created_at >= ${from.toISOString()} AND likeness IS NOT NULL AND status IN (100, -100, -200)
      GROUP BY engine`);
    return rows.map((row) => ({
      engine: row.engine,
      checked: num(row.checked),
      refunded: num(row.refunded),
    }));
  },

  /** Today's engine-given failure reasons, most frequent first. */
  async failureReasons(db: DbOrTx, today: Date, limit: number) {
    const { rows } = await db.execute<{ reason: string; n: string }>(sql`
      SELECT error_reason AS reason, count(*) AS n
      FROM generations
      WHERE created_at >= ${today.toISOString()} AND error_reason IS NOT NULL
      GROUP BY error_reason
      ORDER BY n DESC, reason
      LIMIT ${limit}`);
    return rows.map((row) => ({ reason: row.reason, count: num(row.n) }));
  },

  async pendingPayouts(db: DbOrTx) {
    const { rows } = await db.execute<{ currency: number; n: string; amount: string }>(sql`
      SELECT currency, count(*) AS n, sum(amount) AS amount
      FROM payout_requests WHERE status = 'pending'
      GROUP BY currency ORDER BY currency`);
    return rows.map((row) => ({
      currency: Number(row.currency),
      count: num(row.n),
      amount: num(row.amount),
    }));
  },

  /** Per UTC day since `from`: sign-ups, generations (and failed ones), money paid by currency. */
  async daily(db: DbOrTx, from: Date) {
    const since = from.toISOString();
    const [signups, generations, revenue] = await Promise.all([
      db.execute<{ day: string; n: string }>(sql`
        SELECT to_char(date_joined AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS n
        FROM users WHERE date_joined >= ${since} GROUP BY day`),
      db.execute<{ day: string; n: string; failed: string }>(sql`
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS n,
               count(*) FILTER (WHERE status < 0) AS failed
        FROM generations WHERE created_at >= ${since} GROUP BY day`),
      db.execute<{ day: string; currency: number; amount: string }>(sql`
        SELECT to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, sum(amount) AS amount
        FROM payment_orders WHERE paid_at >= ${since} GROUP BY day, currency`),
    ]);
    return {
      signups: signups.rows.map((row) => ({ day: row.day, count: num(row.n) })),
      generations: generations.rows.map((row) => ({
        day: row.day,
        count: num(row.n),
        failed: num(row.failed),
      })),
      revenue: revenue.rows.map((row) => ({
        day: row.day,
        currency: Number(row.currency),
        amount: num(row.amount),
      })),
    };
  },
};
