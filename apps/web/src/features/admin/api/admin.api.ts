import { routes } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const adminKeys = {
  all: ['admin'] as const,
  me: () => ['admin', 'me'] as const,
  reports: () => ['admin', 'reports'] as const,
  users: (q: string) => ['admin', 'users', q] as const,
  user: (uuid: string) => ['admin', 'user', uuid] as const,
  failed: () => ['admin', 'generations', 'failed'] as const,
};

/** The staff console's requests; every one answers 404 to anyone who is not staff. */
export const adminApi = {
  me: () => api(routes.admin.me),
  reports: () => api(routes.admin.reports),
  restorePost: (uuid: string, reason: string) =>
    api(routes.admin.restorePost, { params: { uuid }, body: { reason } }),
  removePost: (uuid: string, reason: string) =>
    api(routes.admin.removePost, { params: { uuid }, body: { reason } }),
  removePostAndBan: (uuid: string, reason: string) =>
    api(routes.admin.removePostAndBan, { params: { uuid }, body: { reason } }),
  searchUsers: (q: string) => api(routes.admin.searchUsers, { query: { q } }),
  user: (uuid: string) => api(routes.admin.user, { params: { uuid } }),
  ban: (uuid: string, reason: string) => api(routes.admin.banUser, { params: { uuid }, body: { reason } }),
  unban: (uuid: string, reason: string) =>
    api(routes.admin.unbanUser, { params: { uuid }, body: { reason } }),
  changeCredits: (uuid: string, body: { delta: number; reason: string; idempotency_key: string }) =>
    api(routes.admin.changeCredits, { params: { uuid }, body }),
  deleteModel: (uuid: string, reason: string) =>
    api(routes.admin.deleteModel, { params: { uuid }, body: { reason } }),
  failedGenerations: () => api(routes.admin.failedGenerations),
  refundGeneration: (uuid: string, reason: string) =>
    api(routes.admin.refundGeneration, { params: { uuid }, body: { reason } }),
};
