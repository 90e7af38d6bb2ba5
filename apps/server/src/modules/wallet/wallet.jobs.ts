import type { WalletDeps } from './wallet.deps.js';
import { releaseFrozen } from './wallet.usecases.js';

export function walletJobHandlers(deps: WalletDeps) {
  return {
    // Cron: notes the money whose hold has ended.
    'wallet:release_frozen': async () => {
      await releaseFrozen(deps);
    },
  };
}
