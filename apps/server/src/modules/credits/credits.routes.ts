import { ZCreditBalance, ZCreditHistory, ZCursorQuery } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { CreditsDeps } from './credits.deps.js';
import { getCreditBalance, getCreditHistory } from './credits.usecases.js';

const tags = ['credits'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];

export function registerCreditsRoutes(app: ZodApp, deps: CreditsDeps): void {
  app.get(
    '/api/credits/',
    {
      config: { auth: 'required' },
      schema: { tags, summary: 'My credit balance', response: { 200: ZCreditBalance }, security },
    },
    async (request) => ({ balance: await getCreditBalance(deps, requireAuth(request).user.id) }),
  );

  app.get(
    '/api/credits/history/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'My credit entries, newest first',
        querystring: ZCursorQuery,
        response: { 200: ZCreditHistory },
        security,
      },
    },
    async (request) =>
      getCreditHistory(deps, requireAuth(request).user.id, request.query.cursor, request.query.limit ?? 20),
  );
}
