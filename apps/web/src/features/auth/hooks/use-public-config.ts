import { useQuery } from '@tanstack/react-query';
import { STALE } from '../../../lib/query-client';
import { authApi } from '../api/auth.api';

export const authKeys = { config: ['config'] as const, geo: ['geo'] as const };

export function usePublicConfig() {
  return useQuery({ queryKey: authKeys.config, queryFn: authApi.config, staleTime: STALE.minutes(30) });
}

/** The visitor's country decides which offer and privacy documents are linked. */
export function useGeo() {
  return useQuery({ queryKey: authKeys.geo, queryFn: authApi.geo, staleTime: STALE.infinity, retry: false });
}
