import type { z } from 'zod';
import type {
  TPartnerStatistics,
  TPartnerSummary,
  TTeamPage,
  TTops,
  ZCalculatorQuery,
  ZTeamQuery,
  ZTopsQuery,
} from '@mirra/contracts';
import { CURRENCY_RUB, CURRENCY_USD, WALLET_CURRENCIES } from '@mirra/contracts';
import type { PartnersDeps, PartnersRoutesDeps } from './partners.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { sql } from 'drizzle-orm';
import { AppError } from '../../shared/errors.js';
import { notifyUser } from '../notifications/index.js';
import type { PaidThrough, PaymentListener, PaymentOrderView } from '../payments/index.js';
import { findUserById, referralLink, type UserRow } from '../users/index.js';
import { cancelWalletEntry, DEFAULT_WALLET_CURRENCY, recordWalletEntry } from '../wallet/index.js';
import {
  estimateMonthlyIncome,
  levelProgress,
  monthStart,
  planCommissions,
  recentMonths,
  reversalFor,
} from './partners.models.js';
import { partnersRepository, type PartnerCommissionRow } from './partners.repository.js';

type Deps = PartnersDeps;

const monthKey = (at: Date) => monthStart(at).toISOString().slice(0, 10);
/** The wallet entry of one commission; its clawback and cancellation hang off the same key. */
export const commissionKey = (c: Pick<PartnerCommissionRow, 'orderUuid' | 'level'>) =>
  `referral:${c.orderUuid}:${c.level}`;

const displayName = (u: { firstName: string; lastName: string; username: string }) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ').trim() || u.username || '—';

/** A paid order as the commission rules see it. */
export interface PaidPurchase {
  orderUuid: string;
  buyerId: number;
  /** Minor units of `currency` (ISO 4217 numeric). */
  amount: number;
  currency: number;
  paidAt: Date;
}

/**
 * Only purchases earn commissions — packs, the unlimited package, premium periods and renewals,
 * whether paid through a provider or from the wallet balance; topping up one's own wallet does not
 * (that money earns when it is spent).
 */
/**
 * Purchases that pay commission: not wallet top-ups, and only in money the wallet holds — a Telegram
 * Stars purchase (XTR) has no wallet currency to pay a share in, and must still be granted. A
 * payment through a provider that moves no money (the test provider) earns nothing (unless a test
 * server says otherwise: PARTNER_TEST_PAYMENTS_EARN).
 */
const isRewarded = (deps: Deps, order: PaymentOrderView, paidThrough: PaidThrough | undefined) =>
  order.purpose !== 'wallet_topup' &&
  (WALLET_CURRENCIES as readonly number[]).includes(order.currency) &&
  (paidThrough?.movesMoney !== false || deps.config.partners.testPaymentsEarn);

const purchaseOf = (order: PaymentOrderView, fallbackPaidAt: Date): PaidPurchase => ({
  orderUuid: order.uuid,
  buyerId: order.userId,
  amount: order.amount,
  currency: order.currency,
  paidAt: order.paidAt ?? fallbackPaidAt,
});

/**
 * Records the commissions of one paid purchase inside the payment's transaction: the partners
 * above the buyer get their level's share in their wallet, frozen for the hold. A payment event
 * delivered twice finds the commissions of its order already there and adds nothing.
 */
export async function recordPurchaseCommissions(
  deps: Deps,
  tx: DbOrTx,
  purchase: PaidPurchase,
): Promise<void> {
  if (purchase.amount <= 0) return;
  const rules = deps.config.partners;
  const upline = await partnersRepository.findUpline(tx, purchase.buyerId, rules.levels.length);
  if (upline.length === 0) return;
  const planned = planCommissions(
    rules,
    { buyerId: purchase.buyerId, amount: purchase.amount, paidAt: purchase.paidAt },
    upline,
  );
  const inserted = await partnersRepository.insertCommissions(tx, purchase, planned);
  const month = monthKey(purchase.paidAt);
  for (const commission of inserted) {
    // The buyer's first purchase (not wholly refunded) makes them a paying member of this level.
    const payingBefore = await partnersRepository.hasOtherPaidPurchase(
      tx,
      commission.beneficiaryId,
      commission.buyerId,
      commission.orderUuid,
    );
    if (!payingBefore) {
      await partnersRepository.addToLevelCount(
        tx,
        { userId: commission.beneficiaryId, level: commission.level },
        { paying: 1 },
      );
    }
    await partnersRepository.addToMonth(
      tx,
      { userId: commission.beneficiaryId, month, currency: commission.currency },
      {
        income: commission.amount,
        turnover: commission.baseAmount,
        firstLineTurnover: commission.level === 1 ? commission.baseAmount : 0,
      },
    );
    if (commission.amount <= 0) continue;
    await recordWalletEntry(
      tx,
      {
        userId: commission.beneficiaryId,
        currency: commission.currency,
        amount: commission.amount,
        kind: 'referral_bonus',
        frozenUntil: commission.frozenUntil,
        ref: commission.orderUuid,
        counterpartyUserId: commission.buyerId,
        idempotencyKey: commissionKey(commission),
      },
      deps.now(),
    );
    await tellPartner(deps, tx, commission.beneficiaryId, {
      kind: 'commission_frozen',
      dedupeKey: `commission_frozen:${commission.id}`,
      amount: commission.amount,
      currency: commission.currency,
    });
  }
}

/**
 * A refund of (part of) a purchase, inside the refund's transaction: each commission shrinks to
 * its level's share of what the buyer kept. A frozen commission wholly refunded is cancelled in
 * the wallet; otherwise a clawback entry takes the difference back — from the frozen money while
 * the hold lasts, else from the available money even below zero: a debt the partner's later
 * income settles first.
 */
export async function reversePurchaseCommissions(
  deps: Deps,
  tx: DbOrTx,
  purchase: PaidPurchase & { refundedAmount: number; refundedAt: Date },
): Promise<void> {
  const commissions = await partnersRepository.lockOrderCommissions(tx, purchase.orderUuid);
  for (const c of commissions) {
    const refunded = Math.min(c.baseAmount, Math.max(0, purchase.refundedAmount));
    const refundedNow = refunded - c.refundedAmount;
    if (refundedNow <= 0) continue;
    const reversal = reversalFor(
      {
        amount: c.amount,
        basisPoints: c.basisPoints,
        baseAmount: c.baseAmount,
        alreadyReversed: c.reversedAmount,
      },
      refunded,
    );
    const whole = refunded >= c.baseAmount;
    let status = c.status;
    if (reversal > 0) {
      const cancelled =
        c.status === 'frozen' && whole && c.reversedAmount === 0
          ? (await cancelWalletEntry(tx, commissionKey(c), deps.now())).applied
          : false;
      if (!cancelled) {
        // During the hold the clawback is held as long as the commission it reduces: the frozen
        // money shrinks, the available money does not.
        const held = c.frozenUntil && c.frozenUntil.getTime() > deps.now().getTime() ? c.frozenUntil : null;
        await recordWalletEntry(
          tx,
          {
            userId: c.beneficiaryId,
            currency: c.currency,
            amount: -reversal,
            kind: 'clawback',
            frozenUntil: held,
            ref: c.orderUuid,
            counterpartyUserId: c.buyerId,
            allowNegative: true,
            idempotencyKey: `${commissionKey(c)}:clawback:${refunded}`,
          },
          deps.now(),
        );
      }
      if (whole) status = cancelled ? 'cancelled' : 'reversed';
    }
    await partnersRepository.updateCommission(tx, c.id, {
      status,
      refundedAmount: refunded,
      reversedAmount: c.reversedAmount + reversal,
      refundedAt: purchase.refundedAt,
    });
    // Wholly refunded, and nothing else bought: the buyer is no longer a paying member here.
    if (
      whole &&
      !(await partnersRepository.hasOtherPaidPurchase(tx, c.beneficiaryId, c.buyerId, c.orderUuid))
    ) {
      await partnersRepository.addToLevelCount(
        tx,
        { userId: c.beneficiaryId, level: c.level },
        { paying: -1 },
      );
    }
    await partnersRepository.addToMonth(
      tx,
      { userId: c.beneficiaryId, month: monthKey(c.paidAt), currency: c.currency },
      {
        income: -reversal,
        turnover: -refundedNow,
        firstLineTurnover: c.level === 1 ? -refundedNow : 0,
      },
    );
  }
}

/** The payments module's listener: commissions on paid purchases, reversals on refunds. */
export function createPartnerPaymentListener(deps: Deps): PaymentListener {
  return {
    onPaid: async (tx, order, paidThrough) => {
      if (isRewarded(deps, order, paidThrough))
        await recordPurchaseCommissions(deps, tx, purchaseOf(order, deps.now()));
    },
    onRefunded: async (tx, order, paidThrough) => {
      if (!isRewarded(deps, order, paidThrough)) return;
      // A partial refund claws back the share of each commission the refunded money earned.
      await reversePurchaseCommissions(deps, tx, {
        ...purchaseOf(order, deps.now()),
        refundedAmount: order.status === 'refunded' ? order.amount : order.amountRefunded,
        refundedAt: order.refundedAt ?? deps.now(),
      });
    },
  };
}

/**
 * Marks commissions whose hold has passed as available and tells their partners (the wallet counts
 * the money as available from `frozen_until` by itself). Returns how many were released.
 */
export async function releaseDueCommissions(deps: Deps, batch = 500): Promise<number> {
  let released = 0;
  for (;;) {
    const count = await deps.db.transaction(async (tx) => {
      const due = await partnersRepository.lockDueCommissions(tx, deps.now(), batch);
      for (const c of due) {
        await partnersRepository.updateCommission(tx, c.id, { status: 'available', releasedAt: deps.now() });
        await tellPartner(deps, tx, c.beneficiaryId, {
          kind: 'commission_available',
          dedupeKey: `commission_available:${c.id}`,
          amount: c.amount - c.reversedAmount,
          currency: c.currency,
        });
      }
      return due.length;
    });
    released += count;
    if (count < batch) return released;
  }
}

/** A notice to a partner (in the app, and by the bot or email as they chose); false if already told. */
async function tellPartner(
  _deps: Deps,
  tx: DbOrTx,
  userId: number,
  notice: {
    kind: 'commission_frozen' | 'commission_available' | 'partner_joined' | 'payout_paid' | 'payout_rejected';
    dedupeKey: string;
    amount?: number;
    currency?: number;
    userName?: string;
  },
): Promise<boolean> {
  return notifyUser(tx, {
    userId,
    kind: notice.kind,
    data: {
      ...(notice.amount !== undefined ? { amount: notice.amount } : {}),
      ...(notice.currency !== undefined ? { currency: notice.currency } : {}),
      ...(notice.userName !== undefined ? { user_name: notice.userName } : {}),
    },
    dedupeKey: notice.dedupeKey,
  });
}

export { tellPartner };

/**
 * Someone joined through a partner's link: they count on every level of the team above them, and
 * the partner hears of it, in one transaction. The notice's key makes a repeated job count them once.
 */
export async function announceNewPartner(deps: Deps, userId: number): Promise<void> {
  const user = await findUserById(deps.db, userId);
  if (!user?.refererId) return;
  const refererId = user.refererId;
  await deps.db.transaction(async (tx) => {
    const told = await tellPartner(deps, tx, refererId, {
      kind: 'partner_joined',
      dedupeKey: `partner_joined:${user.id}`,
      userName: displayName(user),
    });
    if (!told) return;
    const upline = await partnersRepository.findUpline(tx, user.id, deps.config.partners.levels.length);
    for (const [i, partner] of upline.entries()) {
      await partnersRepository.addToLevelCount(tx, { userId: partner.userId, level: i + 1 }, { members: 1 });
    }
  });
}

/** The Mini App link carrying my `ref_` start parameter; null without a bot. */
export function telegramReflink(config: PartnersDeps['config'], code: string): string | null {
  const { botUsername, miniAppName } = config.telegram;
  if (!botUsername) return null;
  return `https://t.me/${botUsername}${miniAppName ? `/${miniAppName}` : ''}?startapp=ref_${code}`;
}

function contactOf(user: UserRow): string | null {
  if (user.telegramUsername) return `https://t.me/${user.telegramUsername}`;
  if (user.email) return `mailto:${user.email}`;
  return null;
}

export async function getPartnerSummary(deps: PartnersRoutesDeps, user: UserRow): Promise<TPartnerSummary> {
  const rules = deps.config.partners;
  const [teamByLevel, profile, curatorRow, pricing] = await Promise.all([
    partnersRepository.listLevelCounts(deps.db, user.id),
    partnersRepository.findProfile(deps.db, user.id),
    user.refererId ? findUserById(deps.db, user.refererId) : Promise.resolve(undefined),
    deps.pricing.current(),
  ]);
  const payingFirstLine = teamByLevel.find((row) => row.level === 1)?.paying ?? 0;
  let curator: TPartnerSummary['curator'] = null;
  if (curatorRow) {
    const curatorProfile = await partnersRepository.findProfile(deps.db, curatorRow.id);
    curator = {
      uuid: curatorRow.uuid,
      name: displayName(curatorRow),
      username: curatorRow.username,
      avatar_url: curatorRow.telegramPhotoUrl,
      contact_url: curatorProfile?.showContact ? contactOf(curatorRow) : null,
    };
  }
  return {
    reflink: referralLink(deps.config.publicUrl, user.referralCode),
    reflink_telegram: telegramReflink(deps.config, user.referralCode),
    referral_code: user.referralCode,
    curator,
    levels: levelProgress(rules, payingFirstLine).map((level) => {
      const team = teamByLevel.find((row) => row.level === level.level);
      return {
        level: level.level,
        percent: level.basisPoints / 100,
        min_paying_first_line: level.minPayingFirstLine,
        unlocked: level.unlocked,
        missing: level.missing,
        team: team?.members ?? 0,
        team_paid: team?.paying ?? 0,
      };
    }),
    hold_days: rules.holdDays,
    show_contact: profile?.showContact ?? false,
    paying_first_line: payingFirstLine,
    // The calculator starts from the plan's price in each wallet currency (roubles, dollars): the
    // figure is declared once, in the plan, so it follows the console's changes and the currency.
    calculator_average: {
      [String(CURRENCY_RUB)]: pricing.plan.prices.ru,
      [String(CURRENCY_USD)]: pricing.plan.prices.intl,
    },
  };
}

export async function savePartnerSettings(deps: Deps, userId: number, values: { showContact: boolean }) {
  await partnersRepository.saveProfile(deps.db, userId, deps.now(), values);
}

const currencyOf = (requested: number | undefined) => {
  const currency = requested ?? DEFAULT_WALLET_CURRENCY;
  if (!(WALLET_CURRENCIES as readonly number[]).includes(currency)) {
    throw new AppError({ code: 'wallet.currency_unknown', detail: 'Unknown currency.' });
  }
  return currency;
};

export async function getPartnerStatistics(
  deps: Deps,
  userId: number,
  requestedCurrency: number | undefined,
): Promise<TPartnerStatistics> {
  const currency = currencyOf(requestedCurrency);
  const now = deps.now();
  const [months, firstLine, currencies, payouts] = await Promise.all([
    partnersRepository.listMonths(deps.db, userId, currency),
    partnersRepository.countFirstLine(deps.db, userId),
    partnersRepository.listCurrencies(deps.db, userId),
    partnersRepository.sumPaidOut(deps.db, userId, currency),
  ]);
  const byMonth = new Map(months.map((m) => [m.month.slice(0, 7), m]));
  const thisMonth = byMonth.get(monthKey(now).slice(0, 7));
  return {
    currency,
    payedPartners: firstLine.paying,
    payouts,
    referals: firstLine.referrals,
    turnoverMonth: thisMonth?.turnover ?? 0,
    turnoverAll: months.reduce((sum, m) => sum + m.turnover, 0),
    firstLineTurnover: months.reduce((sum, m) => sum + m.firstLineTurnover, 0),
    income: months.reduce((sum, m) => sum + m.income, 0),
    months: recentMonths(now, 12).map((month) => ({
      month,
      income: byMonth.get(month)?.income ?? 0,
      turnover: byMonth.get(month)?.turnover ?? 0,
    })),
    currencies: [...new Set([DEFAULT_WALLET_CURRENCY, ...currencies])].sort(),
  };
}

const TEAM_PAGE = 30;

export async function listTeam(
  deps: Deps,
  userId: number,
  query: z.output<typeof ZTeamQuery>,
): Promise<TTeamPage> {
  const currency = currencyOf(query.currency);
  const after = parseTeamCursor(query.cursor);
  const rows = await partnersRepository.listTeam(deps.db, userId, {
    // A level asked for needs the tree walked no deeper than it.
    depth: Math.min(query.level ?? Infinity, deps.config.partners.levels.length),
    level: query.level ?? null,
    paid: query.paid === undefined ? null : query.paid === 'true',
    search: query.search || null,
    currency,
    after,
    limit: TEAM_PAGE + 1,
  });
  const page = rows.slice(0, TEAM_PAGE);
  const last = page[page.length - 1];
  return {
    currency,
    results: page.map((row) => ({
      uuid: row.uuid,
      level: row.level,
      name: displayName(row),
      username: row.username,
      avatar_url: row.avatarUrl,
      date_joined: row.dateJoined.toISOString(),
      paid: row.paid,
      turnover: row.turnover,
    })),
    next: rows.length > TEAM_PAGE && last ? `${last.level}.${last.id}` : null,
  };
}

function parseTeamCursor(cursor: string | undefined): { level: number; id: number } | null {
  const match = cursor ? /^(\d{1,2})\.(\d{1,18})$/.exec(cursor) : null;
  return match ? { level: Number(match[1]), id: Number(match[2]) } : null;
}

const TOPS_SIZE = 100;
const TOPS_CACHE_MS = 60_000;
const topsCache = new Map<string, { at: number; value: Omit<TTops, 'results'> & { rows: TopRow[] } }>();
type TopRow = Awaited<ReturnType<typeof partnersRepository.listTops>>[number];

/**
 * The tops list: read from the ranking the scheduled job keeps (and kept a minute in this process),
 * so a request costs one indexed read of at most a hundred rows at any number of users.
 */
export async function getTops(
  deps: Deps,
  viewerId: number,
  query: z.output<typeof ZTopsQuery>,
): Promise<TTops> {
  const currency = query.by === 'team' ? 0 : currencyOf(query.currency);
  const key = `${query.period}:${query.by}:${currency}`;
  let cached = topsCache.get(key);
  if (!cached || Date.now() - cached.at > TOPS_CACHE_MS) {
    const rows = await partnersRepository.listTops(
      deps.db,
      { period: query.period, metric: query.by, currency },
      TOPS_SIZE,
    );
    cached = {
      at: Date.now(),
      value: {
        period: query.period,
        by: query.by,
        currency,
        computed_at: rows[0]?.computedAt.toISOString() ?? null,
        rows,
      },
    };
    topsCache.set(key, cached);
  }
  const { rows, ...rest } = cached.value;
  return {
    ...rest,
    results: rows.map((row) => ({
      rank: row.rank,
      uuid: row.uuid,
      name: displayName(row),
      username: row.username,
      avatar_url: row.avatarUrl,
      value: row.value,
      is_me: row.id === viewerId,
    })),
  };
}

/** Forgets this process's copy of the tops (after a recomputation in tests and benchmarks). */
export function forgetCachedTops(): void {
  topsCache.clear();
}

/**
 * Recomputes every tops list from the monthly aggregates and the referer index: income (by
 * currency) this month and ever, and people brought this month and ever. A scheduled job.
 */
export async function computeTops(deps: Deps): Promise<void> {
  const now = deps.now();
  const month = monthKey(now);
  await deps.db.transaction(async (tx) => {
    for (const currency of WALLET_CURRENCIES) {
      await partnersRepository.replaceTops(
        tx,
        { period: 'month', metric: 'income', currency },
        now,
        sql`SELECT user_id, income FROM partner_monthly WHERE month = ${month} AND currency = ${currency}`,
        TOPS_SIZE,
      );
      await partnersRepository.replaceTops(
        tx,
        { period: 'all', metric: 'income', currency },
        now,
        sql`SELECT user_id, sum(income)::bigint FROM partner_monthly WHERE currency = ${currency} GROUP BY user_id`,
        TOPS_SIZE,
      );
    }
    await partnersRepository.replaceTops(
      tx,
      { period: 'month', metric: 'team', currency: 0 },
      now,
      sql`SELECT referer_id, count(*)::bigint FROM users
          WHERE referer_id IS NOT NULL AND date_joined >= ${monthStart(now)} GROUP BY referer_id`,
      TOPS_SIZE,
    );
    await partnersRepository.replaceTops(
      tx,
      { period: 'all', metric: 'team', currency: 0 },
      now,
      sql`SELECT referer_id, count(*)::bigint FROM users WHERE referer_id IS NOT NULL GROUP BY referer_id`,
      TOPS_SIZE,
    );
  });
  forgetCachedTops();
}

export function calculateIncome(
  deps: Deps,
  payingFirstLine: number,
  query: z.output<typeof ZCalculatorQuery>,
) {
  const estimate = estimateMonthlyIncome(deps.config.partners, {
    partners: query.partners.split(',').map(Number),
    averagePurchase: query.average,
    payingFirstLine,
  });
  return { levels: estimate.perLevel, total: estimate.total, hold_days: deps.config.partners.holdDays };
}

export async function countPayingFirstLine(deps: Deps, userId: number): Promise<number> {
  return (await partnersRepository.countFirstLine(deps.db, userId)).paying;
}
