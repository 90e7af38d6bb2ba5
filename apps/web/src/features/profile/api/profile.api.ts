import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { TProfileUpdateBody, TPublicUser, TUser } from '../../../lib/api-types';

export const profileKeys = { byId: (id: string) => ['users', 'by_id', id] as const };

export const profileApi = {
  update: (body: TProfileUpdateBody) => api.put<TUser>('/api/users/me/', body),
  byId: (id: string) => api.get<TPublicUser>('/api/users/by_id/', { query: { id } }),
  setPassword: (currentPassword: string, newPassword: string) =>
    api.post<null>('/api/users/set_password/', {
      current_password: currentPassword,
      new_password: newPassword,
    }),
};

export function usePublicUser(id: string) {
  return useQuery({ queryKey: profileKeys.byId(id), queryFn: () => profileApi.byId(id) });
}
