import type { TAdminPricing, TPricingSettings } from '@mirra/contracts';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import type { PricingDeps } from './pricing.deps.js';
import type { PricingView } from './pricing-settings.js';
import { mergePricing, overriddenPaths, overridesFor, readOverrides } from './pricing.models.js';
import { pricingRepository } from './pricing.repository.js';

function toAdminPricing(view: PricingView, defaults: TPricingSettings): TAdminPricing {
  return {
    version: view.version,
    updated_at: view.updatedAt?.toISOString() ?? null,
    settings: view.settings,
    defaults,
    overridden: view.overridden,
  };
}

/** The console's view: what is in force, the defaults, and which values override them. */
export async function pricingForStaff(deps: PricingDeps): Promise<TAdminPricing> {
  return toAdminPricing(await deps.pricing.view(), deps.pricing.defaults);
}

/**
 * Sets the catalogue and prices (checked by the route's schema): stores what differs from the
 * defaults as a new version and writes the audit entry, before and after, in the same
 * transaction. Every process reads the new values on its next request; what was already bought or
 * started keeps the price it was accepted at.
 */
export async function changePricing(
  deps: PricingDeps,
  staffUserId: number,
  wanted: TPricingSettings,
  audit: RecordStaffChange,
): Promise<TAdminPricing> {
  const overrides = overridesFor(deps.pricing.defaults, wanted);
  await deps.db.transaction(async (tx) => {
    await pricingRepository.lockChanges(tx);
    const before = await pricingRepository.latest(tx);
    const previous = readOverrides(before?.overrides ?? {}).overrides;
    const version = (before?.version ?? 0) + 1;
    await pricingRepository.insert(tx, { version, overrides, staffUserId });
    // The log shows the values in force on each side, and which of them the console had set.
    await audit(tx, {
      before: {
        version: before?.version ?? 0,
        settings: mergePricing(deps.pricing.defaults, previous),
        overridden: overriddenPaths(previous),
      },
      after: {
        version,
        settings: mergePricing(deps.pricing.defaults, overrides),
        overridden: overriddenPaths(overrides),
      },
    });
  });
  deps.pricing.forget();
  return pricingForStaff(deps);
}
