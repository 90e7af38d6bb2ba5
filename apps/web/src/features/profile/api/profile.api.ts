import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { routes, type TDeleteAccountBody } from '@mirra/contracts';
import type { TProfileUpdateBody } from '../../../lib/api-types';

export const profileKeys = { byId: (id: string) => ['users', 'by_id', id] as const };

export const profileApi = {
  update: (body: TProfileUpdateBody) => api(routes.users.replaceMe, { body }),
  byId: (id: string) => api(routes.users.byId, { query: { id } }),
  setPassword: (currentPassword: string, newPassword: string) =>
    api(routes.users.setPassword, {
      body: { current_password: currentPassword, new_password: newPassword },
    }),
  deleteAccount: (body: TDeleteAccountBody) => api(routes.users.deleteMe, { body }),
  exportLink: () => api(routes.users.exportMe),
};

export function usePublicUser(id: string) {
  return useQuery({ queryKey: profileKeys.byId(id), queryFn: () => profileApi.byId(id) });
}
