import { api } from '../../../lib/api-client';
import type { TProfile, TSubscriptionState } from '../../../lib/api-types';

export const socialKeys = {
  profile: (uuid: string) => ['profiles', uuid] as const,
};

export const socialApi = {
  profile: (uuid: string) => api.get<TProfile>(`/api/users/${uuid}/`),
  subscribe: (uuid: string) => api.post<TSubscriptionState>(`/api/users/${uuid}/subscribe/`),
  unsubscribe: (uuid: string) => api.delete<TSubscriptionState>(`/api/users/${uuid}/subscribe/`),
};
