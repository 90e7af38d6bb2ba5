import type { AppDeps } from '../../app/deps.js';
import { reconcileCreditBalances } from './credits.usecases.js';

export function creditsJobHandlers(deps: AppDeps) {
  return {
    'credits:reconcile': async () => {
      await reconcileCreditBalances(deps);
    },
  };
}
