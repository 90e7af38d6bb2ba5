import {
  ADMIN_DASHBOARD_DAYS,
  GenerationStatus,
  type TAdminDashboard,
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
