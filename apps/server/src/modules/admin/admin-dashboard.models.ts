import {
  ADMIN_DASHBOARD_DAYS,
  GenerationStatus,
  type TAdminDashboard,
  type TAdminMarginRow,
  type TGenerationMode,
  type TGenerationStatus,
} from '@mirra/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The windows the console home counts in: today, the last 7 and the last 30 days (UTC). */
export function dashboardWindows(now: Date) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const from = new Date(today.getTime() - (ADMIN_DASHBOARD_DAYS - 1) * DAY_MS);
  const days = Array.from({ length: ADMIN_DASHBOARD_DAYS }, (_, index) =>
    new Date(from.getTime() + index * DAY_MS).toISOString().slice(0, 10),
  );
  return { today, weekStart: new Date(today.getTime() - 6 * DAY_MS), from, days };
}

const FINISHED: readonly number[] = [
  GenerationStatus.COMPLETED,
  GenerationStatus.ERROR,
  GenerationStatus.FAILED,
];
const isFailed = (status: number) => status === GenerationStatus.ERROR || status === GenerationStatus.FAILED;

type Counted = { status: number; engine: string; mode: string; count: number };

function sumBy<K extends string | number>(rows: Counted[], key: (row: Counted) => K) {
  const totals = new Map<K, { count: number; failed: number }>();
  for (const row of rows) {
    const entry = totals.get(key(row)) ?? { count: 0, failed: 0 };
    entry.count += row.count;
    if (isFailed(row.status)) entry.failed += row.count;
    totals.set(key(row), entry);
  }
  return [...totals.entries()].sort(
    (a, b) => b[1].count - a[1].count || String(a[0]).localeCompare(String(b[0])),
  );
}

/** Today's generations by status, engine and mode, and the share of finished ones that failed. */
export function summariseGenerations(rows: Counted[]): TAdminDashboard['generations_today'] {
  const finished = rows.filter((row) => FINISHED.includes(row.status)).reduce((n, row) => n + row.count, 0);
  const failed = rows.filter((row) => isFailed(row.status)).reduce((n, row) => n + row.count, 0);
  return {
    by_status: sumBy(rows, (row) => row.status).map(([status, { count }]) => ({
      status: status as TGenerationStatus,
      count,
    })),
    by_engine: sumBy(rows, (row) => row.engine).map(([engine, { count, failed }]) => ({
      engine,
      count,
      failed,
    })),
    by_mode: sumBy(rows, (row) => row.mode).map(([mode, { count }]) => ({
      mode: mode as TGenerationMode,
      count,
    })),
    finished,
    failed,
    failure_rate: finished === 0 ? null : failed / finished,
  };
}

/**
 * The share of face pictures refunded for too little likeness, per engine: the most refunded share
 * first (what staff look into), then by engine name.
 */
export function likenessRefundShares(
  rows: Array<{ engine: string; checked: number; refunded: number }>,
): TAdminDashboard['likeness_refunds'] {
  return rows
    .map((row) => ({ ...row, share: row.checked === 0 ? null : row.refunded / row.checked }))
    .sort((a, b) => (b.share ?? 0) - (a.share ?? 0) || a.engine.localeCompare(b.engine));
}

/** Lays per-day rows onto the chart's days: a day with no row is a real zero. */
export function dailySeries(
  days: string[],
  daily: {
    signups: Array<{ day: string; count: number }>;
    generations: Array<{ day: string; count: number; failed: number }>;
    revenue: Array<{ day: string; currency: number; amount: number }>;
  },
): TAdminDashboard['series'] {
  const at = <T extends { day: string }>(rows: T[], value: (row: T) => number) => {
    const byDay = new Map(rows.map((row) => [row.day, value(row)]));
    return days.map((day) => byDay.get(day) ?? 0);
  };
  const currencies = [...new Set(daily.revenue.map((row) => row.currency))].sort((a, b) => a - b);
  return {
    days,
    signups: at(daily.signups, (row) => row.count),
    generations: at(daily.generations, (row) => row.count),
    failed: at(daily.generations, (row) => row.failed),
    revenue: currencies.map((currency) => ({
      currency,
      amounts: at(
        daily.revenue.filter((row) => row.currency === currency),
        (row) => row.amount,
      ),
    })),
  };
}

/** Dollars per credit from credits sold for dollars; null when none were sold (nothing to value by). */
export function creditPriceUsd(sales: { cents: number; credits: number }): number | null {
  return sales.credits > 0 ? sales.cents / 100 / sales.credits : null;
}

type Spent = { count: number; costUsd: number; credits: number };
const cents = (usd: number) => Math.round(usd * 100) / 100;

/**
 * Cost and value per mode and engine for today and the whole window, largest cost first; a
 * mode/engine with nothing today is left out of today's table.
 */
export function marginTables(
  rows: Array<{ mode: string; engine: string; today: Spent; window: Spent }>,
  priceUsd: number | null,
): TAdminDashboard['margin'] {
  const table = (pick: (row: (typeof rows)[number]) => Spent): TAdminMarginRow[] =>
    rows
      .map((row) => ({ row, spent: pick(row) }))
      .filter(({ spent }) => spent.count > 0)
      .map(({ row, spent }) => {
        const value = priceUsd === null ? null : cents(spent.credits * priceUsd);
        return {
          mode: row.mode as TAdminMarginRow['mode'],
          engine: row.engine,
          count: spent.count,
          cost_usd: cents(spent.costUsd),
          credits: spent.credits,
          value_usd: value,
          margin_usd: value === null ? null : cents(value - spent.costUsd),
        };
      })
      .sort(
        (a, b) =>
          b.cost_usd - a.cost_usd ||
          b.count - a.count ||
          a.mode.localeCompare(b.mode) ||
          a.engine.localeCompare(b.engine),
      );
  return {
    credit_price_usd: priceUsd,
    today: table((row) => row.today),
    last_30d: table((row) => row.window),
  };
}
