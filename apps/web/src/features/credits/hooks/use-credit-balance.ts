import { useQuery } from '@tanstack/react-query';
import { creditKeys, creditsApi } from '../api/credits.api';

/** My credit balance (shared by every place that shows it); `enabled: false` holds the request back. */
export function useCreditBalance(options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: creditKeys.balance(), queryFn: creditsApi.balance, enabled: options.enabled });
}
