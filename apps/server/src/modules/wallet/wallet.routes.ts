import { z } from 'zod';
import {
  ZWalletBalances,
  ZWalletCurrency,
  ZWalletTransactions,
  ZWalletTransactionsQuery,
} from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { WalletDeps } from './wallet.deps.js';
import { getWalletBalances, listWalletTransactions } from './wallet.usecases.js';

const tags = ['wallet'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];

export function registerWalletRoutes(app: ZodApp, deps: WalletDeps): void {
  app.get(
    '/api/wallet/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'My wallet: available, frozen, pending and reserved money per currency',
        response: { 200: ZWalletBalances },
        security,
      },
    },
    async (request) => getWalletBalances(deps, requireAuth(request).user.id),
  );

  app.get(
    '/api/wallet/transactions/:currency/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'My wallet transactions in one currency, newest first',
        params: z.object({ currency: ZWalletCurrency }),
        querystring: ZWalletTransactionsQuery,
        response: { 200: ZWalletTransactions },
        security,
      },
    },
    async (request) =>
      listWalletTransactions(deps, requireAuth(request).user.id, request.params.currency, request.query),
  );
}
