import type { PartnersDeps } from './partners.deps.js';
import { toTask } from '../../shared/jobs.js';
import { announceNewPartnerJob } from '../users/index.js';
import { announceNewPartner, computeTops, releaseDueCommissions } from './partners.usecases.js';
import { reconcilePartnerWallets } from './reconcile.usecases.js';

/** The partner programme's jobs: the welcome of a new partner, and the scheduled ones. */
export function partnersJobHandlers(deps: PartnersDeps) {
  return {
    [announceNewPartnerJob.name]: toTask(announceNewPartnerJob, ({ userId }) =>
      announceNewPartner(deps, userId),
    ),
    /** Commissions whose hold ended become available, and their partners hear of it. */
    'partners:release_commissions': async () => {
      await releaseDueCommissions(deps);
    },
    /** The tops lists, recomputed from the monthly aggregates. */
    'partners:compute_tops': async () => {
      await computeTops(deps);
    },
    /** Nightly: commissions, pay-outs and aggregates checked against the wallet ledger. */
    'partners:reconcile': async () => {
      await reconcilePartnerWallets(deps);
    },
  };
}
