import type { SharedDeps } from '../../shared/deps.js';
import type { PricingSettings } from '../pricing/index.js';

/** What the partner programme is handed at start: its slice of the app's dependencies. */
export type PartnersDeps = Pick<SharedDeps, 'config' | 'db' | 'logger' | 'now'>;

/** What its routes read besides: the plan in force, whose price starts the income calculator. */
export type PartnersRoutesDeps = PartnersDeps & { pricing: Pick<PricingSettings, 'current'> };
