import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { walletAuditFindings } from './partners.tables.js';

export type WalletFinding = typeof walletAuditFindings.$inferInsert;

const rowsOf = <T>(result: { rows: unknown[] }) => result.rows as T[];

/**
 * The reconciliation's reads: each compares what the ledgers say with what is kept beside them.
 * They scan whole tables on purpose (once a night); nothing here runs on a request.
 */
export const reconcileRepository = {
  /**
   * Commissions whose wallet entries (the bonus, its cancellation, its clawbacks, all under the
   * commission's key) do not add up to the commission net of reversals — and wallet entries under
   * a commission key with no commission behind them.
   */
  async commissionEntryMismatches(db: DbOrTx) {
    const result = await db.execute(sql`
      WITH c AS (
        SELECT beneficiary_id AS user_id, currency,
          'referral:' || order_uuid || ':' || level AS key, (amount - reversed_amount)::bigint AS expected
        FROM partner_commissions WHERE amount > 0
      ),
      e AS (
        SELECT split_part(idempotency_key, ':', 1) || ':' || split_part(idempotency_key, ':', 2) || ':'
            || split_part(idempotency_key, ':', 3) AS key,
          min(user_id) AS user_id, count(DISTINCT (user_id, currency)) AS owners,
          coalesce(sum(amount) FILTER (WHERE status <> 'cancelled'), 0)::bigint AS actual
        FROM wallet_entries
        WHERE kind IN ('referral_bonus', 'clawback') AND idempotency_key LIKE 'referral:%'
        GROUP BY 1
      )
      SELECT coalesce(c.user_id, e.user_id) AS "userId", coalesce(c.key, e.key) AS key,
        c.expected, coalesce(e.actual, 0)::bigint AS actual
      FROM c FULL JOIN e ON e.key = c.key
      WHERE c.key IS NULL OR coalesce(e.actual, 0) <> c.expected OR e.owners > 1
        OR (e.user_id IS NOT NULL AND e.user_id <> c.user_id)`);
    return rowsOf<{ userId: string | number; key: string; expected: string | null; actual: string }>(
      result,
    ).map((r) => ({
      userId: Number(r.userId),
      key: r.key,
      expected: r.expected === null ? null : Number(r.expected),
      actual: Number(r.actual),
    }));
  },

  /**
   * Pay-out requests whose reserve entry (`payout:<uuid>`) is not what their status says: a
   * pending request holds a pending entry of minus its amount, a paid one an `out` entry, a
   * rejected one a cancelled entry; and reserve entries with no request.
   */
  async payoutReserveMismatches(db: DbOrTx) {
    const result = await db.execute(sql`
      WITH p AS (
        SELECT uuid::text AS uuid, user_id, currency, amount, status,
          CASE status WHEN 'pending' THEN 'pending' WHEN 'paid' THEN 'out' ELSE 'cancelled' END AS entry_status
        FROM payout_requests
      ),
      e AS (
        SELECT substr(idempotency_key, 8) AS uuid, user_id, currency, amount, status
        FROM wallet_entries WHERE kind = 'withdrawal' AND idempotency_key LIKE 'payout:%'
      )
      SELECT coalesce(p.user_id, e.user_id) AS "userId", coalesce(p.uuid, e.uuid) AS uuid,
        CASE WHEN p.uuid IS NULL THEN 'no request'
          ELSE p.status || ' ' || (-p.amount)::text || ' in ' || p.currency::text END AS expected,
        CASE WHEN e.uuid IS NULL THEN 'no entry'
          ELSE e.status || ' ' || e.amount::text || ' in ' || e.currency::text END AS actual
      FROM p FULL JOIN e ON e.uuid = p.uuid
      WHERE p.uuid IS NULL OR e.uuid IS NULL OR e.status <> p.entry_status OR e.amount <> -p.amount
        OR e.currency <> p.currency OR e.user_id <> p.user_id`);
    return rowsOf<{ userId: string | number; uuid: string; expected: string; actual: string }>(result).map(
      (r) => ({ ...r, userId: Number(r.userId) }),
    );
  },

  /** Partner months that differ from the same sums over the commissions. */
  async monthlyMismatches(db: DbOrTx) {
    const result = await db.execute(sql`
      WITH rebuilt AS (
        SELECT beneficiary_id AS user_id, date_trunc('month', paid_at AT TIME ZONE 'UTC')::date AS month,
          currency, sum(amount - reversed_amount)::bigint AS income,
          sum(base_amount - refunded_amount)::bigint AS turnover,
          coalesce(sum(base_amount - refunded_amount) FILTER (WHERE level = 1), 0)::bigint AS first_line
        FROM partner_commissions GROUP BY 1, 2, 3
      )
      SELECT coalesce(r.user_id, m.user_id) AS "userId", coalesce(r.month, m.month)::text AS month,
        coalesce(r.currency, m.currency) AS currency,
        coalesce(r.income, 0) AS "expectedIncome", coalesce(r.turnover, 0) AS "expectedTurnover",
        coalesce(r.first_line, 0) AS "expectedFirstLine",
        coalesce(m.income, 0) AS income, coalesce(m.turnover, 0) AS turnover,
        coalesce(m.first_line_turnover, 0) AS "firstLine"
      FROM rebuilt r FULL JOIN partner_monthly m
        ON m.user_id = r.user_id AND m.month = r.month AND m.currency = r.currency
      WHERE coalesce(r.income, 0) <> coalesce(m.income, 0)
        OR coalesce(r.turnover, 0) <> coalesce(m.turnover, 0)
        OR coalesce(r.first_line, 0) <> coalesce(m.first_line_turnover, 0)`);
    type Raw = Record<string, string | number>;
    return rowsOf<Raw>(result).map((r) => ({
      userId: Number(r.userId),
      month: String(r.month),
      currency: Number(r.currency),
      expected: {
        income: Number(r.expectedIncome),
        turnover: Number(r.expectedTurnover),
        firstLine: Number(r.expectedFirstLine),
      },
      actual: { income: Number(r.income), turnover: Number(r.turnover), firstLine: Number(r.firstLine) },
    }));
  },

  async setMonth(
    tx: DbOrTx,
    key: { userId: number; month: string; currency: number },
    values: { income: number; turnover: number; firstLine: number },
  ) {
    await tx.execute(sql`
      INSERT INTO partner_monthly (user_id, month, currency, income, turnover, first_line_turnover)
      VALUES (${key.userId}, ${key.month}::date, ${key.currency}, ${values.income}, ${values.turnover}, ${values.firstLine})
      ON CONFLICT (user_id, month, currency) DO UPDATE SET income = excluded.income,
        turnover = excluded.turnover, first_line_turnover = excluded.first_line_turnover`);
  },

  /** Paying members per partner and level that differ from the buyers with a purchase not wholly refunded. */
  async payingMismatches(db: DbOrTx) {
    const result = await db.execute(sql`
      WITH rebuilt AS (
        SELECT beneficiary_id AS user_id, level, count(DISTINCT buyer_id)::int AS paying
        FROM partner_commissions WHERE refunded_amount < base_amount GROUP BY 1, 2
      )
      SELECT coalesce(r.user_id, c.user_id) AS "userId", coalesce(r.level, c.level) AS level,
        coalesce(r.paying, 0) AS expected, coalesce(c.paying, 0) AS actual
      FROM rebuilt r FULL JOIN partner_level_counts c ON c.user_id = r.user_id AND c.level = r.level
      WHERE coalesce(r.paying, 0) <> coalesce(c.paying, 0)`);
    return rowsOf<Record<string, string | number>>(result).map((r) => ({
      userId: Number(r.userId),
      level: Number(r.level),
      expected: Number(r.expected),
      actual: Number(r.actual),
    }));
  },

  async setPaying(tx: DbOrTx, key: { userId: number; level: number }, paying: number) {
    await tx.execute(sql`
      INSERT INTO partner_level_counts (user_id, level, paying) VALUES (${key.userId}, ${key.level}, ${paying})
      ON CONFLICT (user_id, level) DO UPDATE SET paying = excluded.paying`);
  },

  /**
   * Team sizes per partner and level outside what the referral tree allows: at least the members
   * who joined before `settledBefore` (their new-partner job has long run) and at most all of them.
   */
  async memberMismatches(db: DbOrTx, depth: number, settledBefore: Date) {
    const result = await db.execute(sql`
      WITH RECURSIVE up(member_id, ancestor_id, level, joined) AS (
        SELECT id, referer_id, 1, date_joined FROM users WHERE referer_id IS NOT NULL
        UNION ALL
        SELECT up.member_id, u.referer_id, up.level + 1, up.joined FROM up JOIN users u ON u.id = up.ancestor_id
        WHERE u.referer_id IS NOT NULL AND up.level < ${depth}
      ),
      tree AS (
        SELECT ancestor_id AS user_id, level, count(*)::int AS everyone,
          (count(*) FILTER (WHERE joined < ${settledBefore.toISOString()}::timestamptz))::int AS settled
        FROM up GROUP BY 1, 2
      )
      SELECT coalesce(t.user_id, c.user_id) AS "userId", coalesce(t.level, c.level) AS level,
        coalesce(t.settled, 0) AS settled, coalesce(t.everyone, 0) AS everyone, coalesce(c.members, 0) AS actual
      FROM tree t FULL JOIN (SELECT * FROM partner_level_counts WHERE level <= ${depth}) c
        ON c.user_id = t.user_id AND c.level = t.level
      WHERE coalesce(c.members, 0) NOT BETWEEN coalesce(t.settled, 0) AND coalesce(t.everyone, 0)`);
    return rowsOf<Record<string, string | number>>(result).map((r) => ({
      userId: Number(r.userId),
      level: Number(r.level),
      settled: Number(r.settled),
      everyone: Number(r.everyone),
      actual: Number(r.actual),
    }));
  },

  /**
   * Holds back every writer of the partner aggregates (each adds to them inside the transaction
   * that records or refunds a commission) until the repair commits, so the rebuilt values and a
   * concurrent purchase's increment cannot overwrite one another.
   */
  async lockAggregates(tx: DbOrTx) {
    await tx.execute(sql`LOCK TABLE partner_monthly, partner_level_counts IN SHARE ROW EXCLUSIVE MODE`);
  },

  async recordFindings(db: DbOrTx, findings: WalletFinding[]) {
    if (findings.length) await db.insert(walletAuditFindings).values(findings);
  },
};
