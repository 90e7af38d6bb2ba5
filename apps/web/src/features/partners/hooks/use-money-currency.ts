import { DEFAULT_WALLET_CURRENCY_ID, WALLET_CURRENCIES } from '@mirra/contracts';
import { useSyncExternalStore } from 'react';
import { readStored, STORAGE_KEYS, writeStored } from '../../../lib/storage';

const listeners = new Set<() => void>();

const isWalletCurrency = (value: number) => (WALLET_CURRENCIES as readonly number[]).includes(value);

/** The wallet currency the person chose last (the wallet's own switch sets it too), else roubles. */
export function readMoneyCurrency(): number {
  const stored = Number(readStored(STORAGE_KEYS.walletCurrency));
  return isWalletCurrency(stored) ? stored : DEFAULT_WALLET_CURRENCY_ID;
}

/** Remembers the currency the partner screens show money in; every screen showing money follows. */
export function chooseMoneyCurrency(currency: number): void {
  if (!isWalletCurrency(currency) || currency === readMoneyCurrency()) return;
  writeStored(STORAGE_KEYS.walletCurrency, String(currency));
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The currency money is shown in on the partner and wallet screens, and its setter. Each currency's
 * sums are its own (the server keeps per-currency ledgers): nothing is converted.
 */
export function useMoneyCurrency(): [number, (currency: number) => void] {
  const currency = useSyncExternalStore(subscribe, readMoneyCurrency, readMoneyCurrency);
  return [currency, chooseMoneyCurrency];
}
