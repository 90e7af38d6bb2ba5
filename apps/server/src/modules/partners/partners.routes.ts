import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { PartnersRoutesDeps } from './partners.deps.js';
import { getWalletBalances } from '../wallet/index.js';
import {
  calculateIncome,
  countPayingFirstLine,
  getPartnerStatistics,
  getPartnerSummary,
  getTops,
  listTeam,
  savePartnerSettings,
} from './partners.usecases.js';
import {
  getSavedRequisites,
  listPayouts,
  requestPayout,
  transferToCredits,
  transferToUser,
} from './payouts.usecases.js';

const r = routes.partners;
const p = routes.payouts;

/** The partner programme: my place in it, statistics, team, tops, calculator, pay-outs, transfers. */
export function registerPartnersRoutes(app: ZodApp, deps: PartnersRoutesDeps): void {
  serve(app, r.me, async (request) => getPartnerSummary(deps, requireAuth(request).user));
  serve(app, r.saveSettings, async (request) => {
    const { user } = requireAuth(request);
    await savePartnerSettings(deps, user.id, { showContact: request.body.show_contact });
    return getPartnerSummary(deps, user);
  });
  serve(app, r.statistics, async (request) =>
    getPartnerStatistics(deps, requireAuth(request).user.id, request.query.currency),
  );
  serve(app, r.calculator, async (request) => {
    const paying = await countPayingFirstLine(deps, requireAuth(request).user.id);
    return calculateIncome(deps, paying, request.query);
  });
  serve(app, r.team, async (request) => listTeam(deps, requireAuth(request).user.id, request.query));
  serve(app, r.tops, async (request) => getTops(deps, requireAuth(request).user.id, request.query));

  serve(app, p.list, async (request) => {
    const userId = requireAuth(request).user.id;
    const [results, saved, wallet] = await Promise.all([
      listPayouts(deps, userId),
      getSavedRequisites(deps, userId),
      getWalletBalances(deps, userId),
    ]);
    return {
      results,
      saved,
      balances: wallet.balances,
      minimum: Object.fromEntries(Object.entries(deps.config.partners.payoutMin)),
    };
  });
  serve(app, p.request, async (request) => requestPayout(deps, requireAuth(request).user.id, request.body));
  serve(app, p.creditRates, async () => ({
    rates: Object.fromEntries(Object.entries(deps.config.partners.creditsPerUnit)),
  }));
  serve(app, p.toCredits, async (request) =>
    transferToCredits(deps, requireAuth(request).user.id, request.body),
  );
  serve(app, p.toUser, async (request) => transferToUser(deps, requireAuth(request).user.id, request.body));
}
