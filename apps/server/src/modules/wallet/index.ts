/**
 * The public face of the wallet module (money, not credits): the only file other modules and the
 * composition root import from it.
 *
 * The ledger: `wallet_entries`, integer minor units per ISO 4217 numeric currency (643 roubles,
 * the default; 840 US dollars), each entry with a signed amount, a status (`pending`, `in`, `out`,
 * `cancelled`), a kind (`pay_in`, `purchase`, `transfer`, `withdrawal`, `referral_bonus`, `refund`,
 * `clawback`, `adjustment`), an optional `frozen_until` hold and a unique idempotency key. Every
 * function taking a `tx` runs in the caller's transaction under the wallet's row lock, and applies
 * its key once (a repeat returns `applied: false`). Balances are sums over the ledger:
 * - available: settled money not held, minus pay-outs reserved (never below zero through spends);
 * - frozen: money in still held (`frozen_until` in the future);
 * - pending: money on its way in (a top-up not yet paid);
 * - reserved: money set aside for pay-outs in progress.
 *
 * Used by: payments (top-ups, paying from the balance, refunds), the partner programme
 * (commissions with a hold: `recordWalletEntry({kind: 'referral_bonus', frozenUntil})`; a refund
 * during the hold: `cancelWalletEntry`; after it: `recordWalletEntry({kind: 'clawback', amount < 0,
 * allowNegative: true})`; pay-outs: `reserveWalletMoney` then `settleWalletEntry` when sent or
 * `cancelWalletEntry` when refused; transfers: `transferWalletMoney`).
 */
export type { WalletDeps } from './wallet.deps.js';
export { walletJobHandlers } from './wallet.jobs.js';
export type { WalletEntryRow } from './wallet.repository.js';
export { registerWalletRoutes } from './wallet.routes.js';
export {
  cancelWalletEntry,
  DEFAULT_WALLET_CURRENCY,
  getWalletBalance,
  getWalletBalances,
  listRecentWalletEntries,
  lockWallet,
  recordWalletEntry,
  releaseFrozen,
  reserveWalletMoney,
  settleWalletEntry,
  transferWalletMoney,
  type WalletChange,
  type WalletEntryInput,
} from './wallet.usecases.js';
