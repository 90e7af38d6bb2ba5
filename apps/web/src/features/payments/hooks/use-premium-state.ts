import { useQuery } from '@tanstack/react-query';
import { subscriptionApi, subscriptionKeys } from '../api/subscription.api';

/** The person's premium subscription state (null while unknown, or for guests). */
export function usePremiumState({ enabled }: { enabled: boolean }) {
  const query = useQuery({
    queryKey: subscriptionKeys.mine(),
    queryFn: subscriptionApi.mine,
    enabled,
    staleTime: 60_000,
  });
  return query.data ?? null;
}
