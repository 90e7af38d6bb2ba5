import type { TPricingSettings } from '@mirra/contracts';
import type { Db } from '../../shared/db/client.js';
import type { NotificationHub } from '../../shared/db/notifications.js';
import type { Logger } from '../../shared/logger.js';
import { mergePricing, overriddenPaths, readOverrides, type PricingOverrides } from './pricing.models.js';
import { pricingRepository } from './pricing.repository.js';

/** Channel fed by the trigger on `pricing_settings` (migration 0031_pricing_settings). */
export const PRICING_CHANGES_CHANNEL = 'mirra_pricing_changes';

/** What is in force now, with where it came from. */
export interface PricingView {
  version: number;
  updatedAt: Date | null;
  settings: TPricingSettings;
  overrides: PricingOverrides;
  overridden: string[];
}

/**
 * The catalogue and prices every module reads instead of the configuration: the defaults (from
 * the environment and the built-in catalogue) with the console's newest change on top.
 *
 * Each process keeps one copy. Correctness comes from PostgreSQL: a change NOTIFYs every listening
 * process, which drops its copy, so the next quote, checkout or generation reads the new values; the
 * process that made the change drops its own at once. While the LISTEN connection is down (and in
 * a process without one, a worker) nothing is kept and every read goes to the database; `ttlMs`
 * bounds how long a copy lives even if a notification were lost.
 */
export function createPricingSettings(options: {
  db: Db;
  hub: NotificationHub | null;
  defaults: TPricingSettings;
  logger: Pick<Logger, 'warn'>;
  ttlMs?: number;
  clock?: () => number;
}) {
  const { db, hub, defaults, logger } = options;
  const ttlMs = options.ttlMs ?? 30_000;
  const clock = options.clock ?? Date.now;
  let cached: { view: PricingView; expiresAt: number } | undefined;
  // Bumped on every change heard: a read that started before it must not keep what it read.
  let generation = 0;
  const forget = () => {
    generation++;
    cached = undefined;
  };
  hub?.subscribe(PRICING_CHANGES_CHANNEL, forget, forget);

  async function load(): Promise<PricingView> {
    const row = await pricingRepository.latest(db);
    if (!row) return { version: 0, updatedAt: null, settings: defaults, overrides: {}, overridden: [] };
    const { overrides, dropped } = readOverrides(row.overrides);
    if (dropped.length) {
      logger.warn(
        { version: row.version, dropped },
        'stored pricing sections fail the rules; defaults apply',
      );
    }
    return {
      version: row.version,
      updatedAt: row.createdAt,
      settings: mergePricing(defaults, overrides),
      overrides,
      overridden: overriddenPaths(overrides),
    };
  }

  async function view(): Promise<PricingView> {
    const now = clock();
    if (cached && cached.expiresAt > now && hub?.isListening()) return cached.view;
    const startedAt = generation;
    const loaded = await load();
    if (hub?.isListening() && generation === startedAt) cached = { view: loaded, expiresAt: now + ttlMs };
    return loaded;
  }

  return {
    /** The server's configuration: what applies where the console changed nothing. */
    defaults,
    view,
    /** The settings in force now. */
    async current(): Promise<TPricingSettings> {
      return (await view()).settings;
    },
    /** Drops this process's copy, after a change it made (others hear of it by NOTIFY). */
    forget,
  };
}

export type PricingSettings = ReturnType<typeof createPricingSettings>;
