import { WALLET_CURRENCIES } from '@mirra/contracts';
import type { PayoutRequisites } from '../../shared/db/json-columns.js';
import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import {
  partnerCommissions,
  partnerLevelCounts,
  partnerMonthly,
  partnerProfiles,
  partnerTops,
  payoutRequests,
  payoutRequisites,
} from './partners.tables.js';
import type { PlannedCommission, Upline } from './partners.models.js';

export type PartnerCommissionRow = typeof partnerCommissions.$inferSelect;
export type PayoutRow = typeof payoutRequests.$inferSelect;

const rowsOf = <T>(result: { rows: unknown[] }) => result.rows as T[];

export const partnersRepository = {
  /**
   * The people above `userId`, nearest first, up to `depth`, each with their paying first-line
   * partners (people who joined through their link and have a purchase not wholly refunded).
   */
  async findUpline(db: DbOrTx, userId: number, depth: number): Promise<Upline[]> {
    const result = await db.execute(sql`
      WITH RECURSIVE chain(user_id, depth) AS (
        SELECT referer_id, 1 FROM users WHERE id = ${userId} AND referer_id IS NOT NULL
        UNION ALL
        SELECT u.referer_id, c.depth + 1 FROM chain c JOIN users u ON u.id = c.user_id
        WHERE u.referer_id IS NOT NULL AND c.depth < ${depth}
      )
      SELECT c.user_id AS "userId", coalesce(plc.paying, 0) AS "payingFirstLine"
      FROM chain c LEFT JOIN partner_level_counts plc ON plc.user_id = c.user_id AND plc.level = 1
      ORDER BY c.depth`);
    return rowsOf<{ userId: number; payingFirstLine: number }>(result).map((r) => ({
      userId: Number(r.userId),
      payingFirstLine: Number(r.payingFirstLine),
    }));
  },

  /** Adds to a partner's counts of one level of their team. */
  async addToLevelCount(
    tx: DbOrTx,
    key: { userId: number; level: number },
    delta: { members?: number; paying?: number },
  ): Promise<void> {
    const members = delta.members ?? 0;
    const paying = delta.paying ?? 0;
    if (members === 0 && paying === 0) return;
    await tx
      .insert(partnerLevelCounts)
      .values({ ...key, members: Math.max(0, members), paying: Math.max(0, paying) })
      .onConflictDoUpdate({
        target: [partnerLevelCounts.userId, partnerLevelCounts.level],
        set: {
          members: sql`greatest(0, ${partnerLevelCounts.members} + ${members})`,
          paying: sql`greatest(0, ${partnerLevelCounts.paying} + ${paying})`,
        },
      });
  },

  async listLevelCounts(db: DbOrTx, userId: number) {
    return db
      .select()
      .from(partnerLevelCounts)
      .where(eq(partnerLevelCounts.userId, userId))
      .orderBy(asc(partnerLevelCounts.level));
  },

  /** Whether the buyer has another purchase, not wholly refunded, that counts for this partner. */
  async hasOtherPaidPurchase(
    db: DbOrTx,
    beneficiaryId: number,
    buyerId: number,
    exceptOrder: string,
  ): Promise<boolean> {
    const result = await db.execute(sql`
      SELECT 1 FROM partner_commissions
      WHERE beneficiary_id = ${beneficiaryId} AND buyer_id = ${buyerId} AND order_uuid <> ${exceptOrder}
        AND refunded_amount < base_amount
      LIMIT 1`);
    return result.rows.length > 0;
  },

  /** Inserts the commissions of one order; a repeat of the same order inserts nothing. */
  async insertCommissions(
    tx: DbOrTx,
    order: { orderUuid: string; buyerId: number; currency: number; paidAt: Date },
    planned: PlannedCommission[],
  ): Promise<PartnerCommissionRow[]> {
    if (planned.length === 0) return [];
    return tx
      .insert(partnerCommissions)
      .values(
        planned.map((p) => ({
          orderUuid: order.orderUuid,
          buyerId: order.buyerId,
          beneficiaryId: p.beneficiaryId,
          level: p.level,
          basisPoints: p.basisPoints,
          baseAmount: p.baseAmount,
          amount: p.amount,
          currency: order.currency,
          status: p.status,
          frozenUntil: p.frozenUntil,
          paidAt: order.paidAt,
        })),
      )
      .onConflictDoNothing()
      .returning();
  },

  async lockOrderCommissions(tx: DbOrTx, orderUuid: string): Promise<PartnerCommissionRow[]> {
    return tx
      .select()
      .from(partnerCommissions)
      .where(eq(partnerCommissions.orderUuid, orderUuid))
      .orderBy(asc(partnerCommissions.level))
      .for('update');
  },

  async updateCommission(tx: DbOrTx, id: number, values: Partial<typeof partnerCommissions.$inferInsert>) {
    await tx.update(partnerCommissions).set(values).where(eq(partnerCommissions.id, id));
  },

  /** Frozen commissions whose hold has passed, oldest first, locked and skipped by other workers. */
  async lockDueCommissions(tx: DbOrTx, now: Date, limit: number): Promise<PartnerCommissionRow[]> {
    return tx
      .select()
      .from(partnerCommissions)
      .where(and(eq(partnerCommissions.status, 'frozen'), lte(partnerCommissions.frozenUntil, now)))
      .orderBy(asc(partnerCommissions.frozenUntil))
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  /** Adds to a partner's month (negative amounts for refunds and reversals). */
  async addToMonth(
    tx: DbOrTx,
    key: { userId: number; month: string; currency: number },
    delta: { income?: number; turnover?: number; firstLineTurnover?: number },
  ): Promise<void> {
    const income = delta.income ?? 0;
    const turnover = delta.turnover ?? 0;
    const firstLine = delta.firstLineTurnover ?? 0;
    if (income === 0 && turnover === 0 && firstLine === 0) return;
    await tx
      .insert(partnerMonthly)
      .values({ ...key, income, turnover, firstLineTurnover: firstLine })
      .onConflictDoUpdate({
        target: [partnerMonthly.userId, partnerMonthly.month, partnerMonthly.currency],
        set: {
          income: sql`${partnerMonthly.income} + ${income}`,
          turnover: sql`${partnerMonthly.turnover} + ${turnover}`,
          firstLineTurnover: sql`${partnerMonthly.firstLineTurnover} + ${firstLine}`,
        },
      });
  },

  async listMonths(db: DbOrTx, userId: number, currency: number) {
    return db
      .select()
      .from(partnerMonthly)
      .where(and(eq(partnerMonthly.userId, userId), eq(partnerMonthly.currency, currency)))
      .orderBy(asc(partnerMonthly.month));
  },

  /** Currencies the partner has any month in. */
  async listCurrencies(db: DbOrTx, userId: number): Promise<number[]> {
    const rows = await db
      .selectDistinct({ currency: partnerMonthly.currency })
      .from(partnerMonthly)
      .where(eq(partnerMonthly.userId, userId));
    return rows.map((r) => r.currency);
  },

  /** First-line referrals, and those of them with a purchase not wholly refunded. */
  async countFirstLine(db: DbOrTx, userId: number): Promise<{ referrals: number; paying: number }> {
    const [row] = await db
      .select()
      .from(partnerLevelCounts)
      .where(and(eq(partnerLevelCounts.userId, userId), eq(partnerLevelCounts.level, 1)));
    return { referrals: row?.members ?? 0, paying: row?.paying ?? 0 };
  },

  /** Money of the partner's commissions by state, in one currency. */
  async sumCommissions(db: DbOrTx, userId: number, currency: number) {
    const result = await db.execute(sql`
      SELECT
        coalesce(sum(amount - reversed_amount) FILTER (WHERE status = 'frozen'), 0)::bigint AS frozen,
        coalesce(sum(amount - reversed_amount) FILTER (WHERE status IN ('available', 'reversed')), 0)::bigint AS available
      FROM partner_commissions WHERE beneficiary_id = ${userId} AND currency = ${currency}
        AND status IN ('frozen', 'available', 'reversed')`);
    const [row] = rowsOf<{ frozen: string; available: string }>(result);
    return { frozen: Number(row?.frozen ?? 0), available: Number(row?.available ?? 0) };
  },

  /**
   * One page of the team, by level then join order (keyset on (level, id)), with each member's
   * turnover (net of refunds, in `currency`) as seen from this partner.
   */
  async listTeam(
    db: DbOrTx,
    userId: number,
    options: {
      depth: number;
      level: number | null;
      paid: boolean | null;
      search: string | null;
      currency: number;
      after: { level: number; id: number } | null;
      limit: number;
    },
  ) {
    const pattern = options.search ? `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const after = options.after;
    // Members are chosen (filters, keyset, limit) before their turnover is read, unless the paid
    // filter needs it: then it is read per member by index as the rows are filtered.
    // A member has paid when a purchase of theirs, not wholly refunded, earned this partner a
    // commission, or was paid in a currency no wallet holds (Telegram Stars): such a purchase
    // pays no commission but is still a purchase.
    const walletCurrencies = sql.join(
      WALLET_CURRENCIES.map((currency) => sql`${currency}::int`),
      sql`, `,
    );
    const sales = sql`
      LEFT JOIN LATERAL (
        SELECT coalesce(sum(pc.base_amount - pc.refunded_amount) FILTER (WHERE pc.currency = ${options.currency}), 0) AS turnover,
          bool_or(pc.refunded_amount < pc.base_amount) OR EXISTS (
            SELECT 1 FROM payment_orders po
            WHERE po.user_id = m.id AND po.status = 'paid' AND po.purpose <> 'wallet_topup'
              AND po.amount_refunded < po.amount AND po.currency NOT IN (${walletCurrencies})
          ) AS paid
        FROM partner_commissions pc WHERE pc.beneficiary_id = ${userId} AND pc.buyer_id = m.id
      ) s ON true`;
    const members = sql`
      WITH RECURSIVE team(id, level, uuid, first_name, last_name, username, telegram_photo_url, date_joined) AS (
        SELECT id, 1, uuid, first_name, last_name, username, telegram_photo_url, date_joined
        FROM users WHERE referer_id = ${userId}
        UNION ALL
        SELECT u.id, t.level + 1, u.uuid, u.first_name, u.last_name, u.username, u.telegram_photo_url, u.date_joined
        FROM team t JOIN users u ON u.referer_id = t.id WHERE t.level < ${options.depth}
      )
      -- The walk carries each member's columns, so no join back to users (whose size the planner
      -- would weigh against a misestimated team) is needed.
      SELECT t.level, t.id, t.uuid, t.first_name, t.last_name, t.username, t.telegram_photo_url, t.date_joined
      FROM team t
      WHERE (${options.level}::int IS NULL OR t.level = ${options.level}::int)
        AND (${pattern}::text IS NULL OR t.first_name ILIKE ${pattern} OR t.last_name ILIKE ${pattern}
          OR t.username ILIKE ${pattern} OR (t.first_name || ' ' || t.last_name) ILIKE ${pattern})
        AND (${after?.level ?? null}::int IS NULL
          OR (t.level, t.id) > (${after?.level ?? null}::int, ${after?.id ?? null}::bigint))`;
    const columns = sql`m.level, m.id, m.uuid, m.first_name AS "firstName", m.last_name AS "lastName",
        m.username, m.telegram_photo_url AS "avatarUrl", m.date_joined AS "dateJoined",
        coalesce(s.turnover, 0)::bigint AS turnover, coalesce(s.paid, false) AS paid`;
    const result =
      options.paid === null
        ? await db.execute(sql`
            SELECT ${columns}
            FROM (${members} ORDER BY t.level, t.id LIMIT ${options.limit}) m ${sales}
            ORDER BY m.level, m.id`)
        : await db.execute(sql`
            SELECT ${columns}
            FROM (${members}) m ${sales}
            WHERE coalesce(s.paid, false) = ${options.paid}::boolean
            ORDER BY m.level, m.id
            LIMIT ${options.limit}`);
    return rowsOf<{
      level: number;
      id: number;
      uuid: string;
      firstName: string;
      lastName: string;
      username: string;
      avatarUrl: string | null;
      dateJoined: Date | string;
      turnover: string | number;
      paid: boolean;
    }>(result).map((r) => ({
      ...r,
      level: Number(r.level),
      id: Number(r.id),
      turnover: Number(r.turnover),
      dateJoined: new Date(r.dateJoined),
    }));
  },

  async findProfile(db: DbOrTx, userId: number) {
    const [row] = await db.select().from(partnerProfiles).where(eq(partnerProfiles.userId, userId));
    return row;
  },

  async saveProfile(db: DbOrTx, userId: number, at: Date, values: { showContact: boolean }) {
    await db
      .insert(partnerProfiles)
      .values({ userId, ...values, updatedAt: at })
      .onConflictDoUpdate({ target: partnerProfiles.userId, set: { ...values, updatedAt: at } });
  },

  /** Replaces one tops list with a fresh ranking, in one statement set inside the caller's transaction. */
  async replaceTops(
    tx: DbOrTx,
    key: { period: 'month' | 'all'; metric: 'income' | 'team'; currency: number },
    at: Date,
    source: ReturnType<typeof sql>,
    limit: number,
  ): Promise<void> {
    await tx
      .delete(partnerTops)
      .where(
        and(
          eq(partnerTops.period, key.period),
          eq(partnerTops.metric, key.metric),
          eq(partnerTops.currency, key.currency),
        ),
      );
    await tx.execute(sql`
      INSERT INTO partner_tops (period, metric, currency, rank, user_id, value, computed_at)
      SELECT ${key.period}, ${key.metric}, ${key.currency},
        row_number() OVER (ORDER BY ranked.value DESC, ranked.user_id), ranked.user_id, ranked.value, ${at}
      FROM (${source}) AS ranked(user_id, value)
      WHERE ranked.value > 0
      ORDER BY ranked.value DESC, ranked.user_id
      LIMIT ${limit}`);
  },

  async listTops(
    db: DbOrTx,
    key: { period: 'month' | 'all'; metric: 'income' | 'team'; currency: number },
    limit: number,
  ) {
    const result = await db.execute(sql`
      SELECT t.rank, t.value, t.computed_at AS "computedAt", u.uuid, u.first_name AS "firstName",
        u.last_name AS "lastName", u.username, u.telegram_photo_url AS "avatarUrl", u.id
      FROM partner_tops t JOIN users u ON u.id = t.user_id
      WHERE t.period = ${key.period} AND t.metric = ${key.metric} AND t.currency = ${key.currency}
      ORDER BY t.rank LIMIT ${limit}`);
    return rowsOf<{
      rank: number;
      value: string | number;
      computedAt: Date | string;
      uuid: string;
      firstName: string;
      lastName: string;
      username: string;
      avatarUrl: string | null;
      id: number;
    }>(result).map((r) => ({
      ...r,
      rank: Number(r.rank),
      value: Number(r.value),
      id: Number(r.id),
      computedAt: new Date(r.computedAt),
    }));
  },

  /** Money paid out to the partner's requisites (pay-outs an admin marked paid), in one currency. */
  async sumPaidOut(db: DbOrTx, userId: number, currency: number): Promise<number> {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${payoutRequests.amount}), 0)::bigint` })
      .from(payoutRequests)
      .where(
        and(
          eq(payoutRequests.userId, userId),
          eq(payoutRequests.currency, currency),
          eq(payoutRequests.status, 'paid'),
        ),
      );
    return Number(row?.total ?? 0);
  },

  async findPayoutByClientKey(db: DbOrTx, userId: number, clientKey: string) {
    const [row] = await db
      .select()
      .from(payoutRequests)
      .where(and(eq(payoutRequests.userId, userId), eq(payoutRequests.clientKey, clientKey)));
    return row;
  },

  async insertPayout(tx: DbOrTx, values: typeof payoutRequests.$inferInsert): Promise<PayoutRow> {
    const [row] = await tx.insert(payoutRequests).values(values).returning();
    return row!;
  },

  async lockPayout(tx: DbOrTx, uuid: string) {
    const [row] = await tx.select().from(payoutRequests).where(eq(payoutRequests.uuid, uuid)).for('update');
    return row;
  },

  async updatePayout(tx: DbOrTx, uuid: string, values: Partial<typeof payoutRequests.$inferInsert>) {
    const [row] = await tx
      .update(payoutRequests)
      .set(values)
      .where(eq(payoutRequests.uuid, uuid))
      .returning();
    return row!;
  },

  async listPayouts(db: DbOrTx, filter: { userId?: number; status?: 'pending' }, limit: number) {
    return db
      .select()
      .from(payoutRequests)
      .where(
        and(
          filter.userId !== undefined ? eq(payoutRequests.userId, filter.userId) : undefined,
          filter.status ? eq(payoutRequests.status, filter.status) : undefined,
        ),
      )
      .orderBy(filter.status ? asc(payoutRequests.createdAt) : desc(payoutRequests.createdAt))
      .limit(limit);
  },

  async saveRequisites(tx: DbOrTx, userId: number, at: Date, requisites: PayoutRequisites) {
    await tx
      .insert(payoutRequisites)
      .values({ userId, requisites, updatedAt: at })
      .onConflictDoUpdate({ target: payoutRequisites.userId, set: { requisites, updatedAt: at } });
  },

  async findRequisites(db: DbOrTx, userId: number) {
    const [row] = await db.select().from(payoutRequisites).where(eq(payoutRequisites.userId, userId));
    return row?.requisites;
  },

  async findActiveUserIdByUuid(db: DbOrTx, uuid: string): Promise<number | null> {
    const result = await db.execute(sql`SELECT id FROM users WHERE uuid = ${uuid} AND is_active`);
    const row = result.rows[0] as { id: number | string } | undefined;
    return row ? Number(row.id) : null;
  },
};
