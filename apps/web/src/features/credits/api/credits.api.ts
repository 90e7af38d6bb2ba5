import type { QueryClient } from '@tanstack/react-query';
import { routes } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const creditKeys = {
  all: ['credits'] as const,
  balance: () => ['credits', 'balance'] as const,
  history: () => ['credits', 'history'] as const,
};

/**
 * Query meta for what moves with the balance besides it: a price line (it shows the balance) and
 * the list of paid things a charge adds to. A charge or a refund refreshes them all.
 */
export const MOVES_WITH_BALANCE = { movesWithBalance: true } as const;

/** The balance changed (or may have): refresh it and every query marked MOVES_WITH_BALANCE. */
export function refreshBalance(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: creditKeys.all });
  void queryClient.invalidateQueries({ predicate: (query) => query.meta?.movesWithBalance === true });
}

export const creditsApi = {
  balance: () => api(routes.credits.balance),
  history: (cursor: string | null) => api(routes.credits.history, { query: { cursor, limit: 20 } }),
};
