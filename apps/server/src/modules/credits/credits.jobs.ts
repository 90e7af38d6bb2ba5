import type { CreditsDeps } from './credits.deps.js';
import { reconcileCreditBalances } from './credits.usecases.js';

export function creditsJobHandlers(deps: CreditsDeps) {
  return {
    'credits:reconcile': async () => {
      await reconcileCreditBalances(deps);
    },
  };
}
