import { useQuery } from '@tanstack/react-query';
import { subscriptionApi, subscriptionKeys } from '../api/subscription.api';

/** The signed-in person's premium subscription state (null while unknown). */
export function usePremiumState() {
  const query = useQuery({
    queryKey: subscriptionKeys.mine(),
    queryFn: subscriptionApi.mine,
    staleTime: 60_000,
  });
  return query.data ?? null;
}
