import {
  ZCalculatorQuery,
  ZCalculatorResult,
  ZCreditRates,
  ZCreditsTransfer,
  ZCreditsTransferBody,
  ZPartnerSettingsBody,
  ZPartnerStatistics,
  ZPartnerStatisticsQuery,
  ZPartnerSummary,
  ZPayout,
  ZPayoutBody,
  ZPayouts,
  ZTeamPage,
  ZTeamQuery,
  ZTops,
  ZTopsQuery,
  ZUserTransfer,
  ZUserTransferBody,
} from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { PartnersDeps } from './partners.deps.js';
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

const tags = ['partners'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];
const auth = { auth: 'required' as const };

/** The partner programme: my place in it, statistics, team, tops, calculator, pay-outs, transfers. */
export function registerPartnersRoutes(app: ZodApp, deps: PartnersDeps): void {
  app.get(
    '/api/partners/me/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'My reflinks, curator, levels with what unlocks them, and the hold',
        response: { 200: ZPartnerSummary },
        security,
      },
    },
    async (request) => getPartnerSummary(deps, requireAuth(request).user),
  );

  app.put(
    '/api/partners/me/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Whether my downline may see how to contact me',
        body: ZPartnerSettingsBody,
        response: { 200: ZPartnerSummary },
        security,
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      await savePartnerSettings(deps, user.id, { showContact: request.body.show_contact });
      return getPartnerSummary(deps, user);
    },
  );

  app.get(
    '/api/partners/statistics/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'My partner statistics and the last 12 months of income and turnover',
        querystring: ZPartnerStatisticsQuery,
        response: { 200: ZPartnerStatistics },
        security,
      },
    },
    async (request) => getPartnerStatistics(deps, requireAuth(request).user.id, request.query.currency),
  );

  app.get(
    '/api/partners/calculator/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Monthly income from expected partners per level and their average purchase',
        querystring: ZCalculatorQuery,
        response: { 200: ZCalculatorResult },
        security,
      },
    },
    async (request) => {
      const paying = await countPayingFirstLine(deps, requireAuth(request).user.id);
      return calculateIncome(deps, paying, request.query);
    },
  );

  app.get(
    '/api/linear/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'My team by level, with the paid filter, search and each partner’s turnover',
        querystring: ZTeamQuery,
        response: { 200: ZTeamPage },
        security,
      },
    },
    async (request) => listTeam(deps, requireAuth(request).user.id, request.query),
  );

  app.get(
    '/api/linear/top/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'The tops list: rank, name, avatar and income or team size over a period',
        querystring: ZTopsQuery,
        response: { 200: ZTops },
        security,
      },
    },
    async (request) => getTops(deps, requireAuth(request).user.id, request.query),
  );

  app.get(
    '/api/wallet/payouts/',
    {
      config: auth,
      schema: {
        tags: ['wallet'],
        summary: 'My pay-out requests, the requisites saved from the last one, and the minimums',
        response: { 200: ZPayouts },
        security,
      },
    },
    async (request) => {
      const userId = requireAuth(request).user.id;
      const [results, saved] = await Promise.all([
        listPayouts(deps, userId),
        getSavedRequisites(deps, userId),
      ]);
      return {
        results,
        saved,
        minimum: Object.fromEntries(
          Object.entries(deps.config.partners.payoutMin).map(([currency, min]) => [currency, min]),
        ),
      };
    },
  );

  app.post(
    '/api/wallet/payouts/',
    {
      config: auth,
      schema: {
        tags: ['wallet'],
        summary: 'Request a pay-out: the money is reserved until it is paid or rejected',
        body: ZPayoutBody,
        response: { 201: ZPayout },
        security,
      },
    },
    async (request, reply) => {
      const payout = await requestPayout(deps, requireAuth(request).user.id, request.body);
      return reply.status(201).send(payout);
    },
  );

  app.get(
    '/api/wallet/transfers/credits/',
    {
      config: auth,
      schema: {
        tags: ['wallet'],
        summary: 'How many credits one unit of each wallet currency buys',
        response: { 200: ZCreditRates },
        security,
      },
    },
    async () => ({
      rates: Object.fromEntries(Object.entries(deps.config.partners.creditsPerUnit)),
    }),
  );

  app.post(
    '/api/wallet/transfers/credits/',
    {
      config: auth,
      schema: {
        tags: ['wallet'],
        summary: 'Buy my own credits with wallet money at the configured rate',
        body: ZCreditsTransferBody,
        response: { 200: ZCreditsTransfer },
        security,
      },
    },
    async (request) => transferToCredits(deps, requireAuth(request).user.id, request.body),
  );

  app.post(
    '/api/wallet/transfers/user/',
    {
      config: auth,
      schema: {
        tags: ['wallet'],
        summary: 'Send wallet money to another Mirra user by their profile',
        body: ZUserTransferBody,
        response: { 200: ZUserTransfer },
        security,
      },
    },
    async (request) => transferToUser(deps, requireAuth(request).user.id, request.body),
  );
}
