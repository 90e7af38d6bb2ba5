import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { WalletDeps } from './wallet.deps.js';
import { getWalletBalances, listWalletTransactions } from './wallet.usecases.js';

const r = routes.wallet;

export function registerWalletRoutes(app: ZodApp, deps: WalletDeps): void {
  serve(app, r.balances, async (request) => getWalletBalances(deps, requireAuth(request).user.id));
  serve(app, r.transactions, async (request) =>
    listWalletTransactions(deps, requireAuth(request).user.id, request.params.currency, request.query),
  );
}
