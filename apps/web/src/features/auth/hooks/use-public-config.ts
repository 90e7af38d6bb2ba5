import { useQuery } from '@tanstack/react-query';
import { queryClient, STALE } from '../../../lib/query-client';
import { authApi } from '../api/auth.api';

export const authKeys = { config: ['config'] as const, geo: ['geo'] as const };

const publicConfigQuery = {
  queryKey: authKeys.config,
  queryFn: authApi.config,
  staleTime: STALE.minutes(30),
};

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}

/** The public configuration outside components, from the same cache (one request per load). */
export function fetchPublicConfig() {
  return queryClient.fetchQuery(publicConfigQuery);
}

/** The visitor's country decides which offer and privacy documents are linked. */
export function useGeo() {
  return useQuery({ queryKey: authKeys.geo, queryFn: authApi.geo, staleTime: STALE.infinity, retry: false });
}
