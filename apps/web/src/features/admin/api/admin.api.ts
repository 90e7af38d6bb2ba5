import { adminRoutes, routePath, type AccountPostChoice } from '@mirra/contracts';
import { api, readResponseBody } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';

/** The audit log's filters as the form holds them (empty: not filtered). */
export interface AuditFilter {
  staff: string;
  action: string;
  target: string;
  from: string;
  to: string;
}

export const adminKeys = {
  all: ['admin'] as const,
  me: () => ['admin', 'me'] as const,
  dashboard: () => ['admin', 'dashboard'] as const,
  health: () => ['admin', 'health'] as const,
  reports: () => ['admin', 'reports'] as const,
  users: (q: string) => ['admin', 'users', q] as const,
  user: (uuid: string) => ['admin', 'user', uuid] as const,
  money: (uuid: string) => ['admin', 'user', uuid, 'money'] as const,
  failed: () => ['admin', 'generations', 'failed'] as const,
  payouts: () => ['admin', 'payouts'] as const,
  payments: (q: string) => ['admin', 'payments', q] as const,
  audit: (filter: AuditFilter) => ['admin', 'audit', filter] as const,
};

/** The staff console's requests; every one answers 404 to anyone who is not staff. */
export const adminApi = {
  me: () => api(adminRoutes.me),
  dashboard: () => api(adminRoutes.dashboard),
  health: () => api(adminRoutes.health),
  reports: () => api(adminRoutes.reports),
  restorePost: (uuid: string, reason: string) =>
    api(adminRoutes.restorePost, { params: { uuid }, body: { reason } }),
  removePost: (uuid: string, reason: string) =>
    api(adminRoutes.removePost, { params: { uuid }, body: { reason } }),
  removePostAndBan: (uuid: string, reason: string) =>
    api(adminRoutes.removePostAndBan, { params: { uuid }, body: { reason } }),
  searchUsers: (q: string) => api(adminRoutes.searchUsers, { query: { q } }),
  user: (uuid: string) => api(adminRoutes.user, { params: { uuid } }),
  userMoney: (uuid: string) => api(adminRoutes.userMoney, { params: { uuid } }),
  searchPayments: (q: string, cursor?: string) =>
    api(adminRoutes.searchPayments, { query: { ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) } }),
  refundOrder: (uuid: string, reason: string) =>
    api(adminRoutes.refundOrder, { params: { uuid }, body: { reason } }),
  ban: (uuid: string, reason: string) => api(adminRoutes.banUser, { params: { uuid }, body: { reason } }),
  unban: (uuid: string, reason: string) => api(adminRoutes.unbanUser, { params: { uuid }, body: { reason } }),
  changeCredits: (uuid: string, body: { delta: number; reason: string; idempotency_key: string }) =>
    api(adminRoutes.changeCredits, { params: { uuid }, body }),
  deleteUser: (uuid: string, reason: string, posts: AccountPostChoice) =>
    api(adminRoutes.deleteUser, { params: { uuid }, body: { reason, posts } }),
  exportUser,
  deleteModel: (uuid: string, reason: string) =>
    api(adminRoutes.deleteModel, { params: { uuid }, body: { reason } }),
  failedGenerations: () => api(adminRoutes.failedGenerations),
  retryGeneration: (uuid: string, reason: string, engine: string | null) =>
    api(adminRoutes.retryGeneration, { params: { uuid }, body: { reason, engine } }),
  payouts: () => api(adminRoutes.payouts),
  audit: (filter: AuditFilter, cursor?: string) =>
    api(adminRoutes.audit, {
      query: {
        ...Object.fromEntries(Object.entries(filter).filter(([, value]) => value.trim() !== '')),
        ...(cursor ? { cursor } : {}),
      },
    }),
  approvePayout: (uuid: string, reason: string, reference: string) =>
    api(adminRoutes.approvePayout, { params: { uuid }, body: { reason, reference } }),
  rejectPayout: (uuid: string, reason: string) =>
    api(adminRoutes.rejectPayout, { params: { uuid }, body: { reason } }),
  refundGeneration: (uuid: string, reason: string) =>
    api(adminRoutes.refundGeneration, { params: { uuid }, body: { reason } }),
};

/**
 * A person's data as the ZIP the server answers in the body (not a link: staff are signed in and the
 * file never passes through a URL someone else could open), handed to the browser as a download.
 */
async function exportUser(uuid: string, reason: string): Promise<void> {
  const path = routePath(adminRoutes.exportUser, { uuid });
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'include',
    headers: { ...(await api.authorizedHeaders(path)), 'Content-Type': 'application/json' },
    body: JSON.stringify({ reason }),
  });
  if (!response.ok) {
    const { json, text } = await readResponseBody(response);
    throw new ApiError(response.status, json, text);
  }
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `mirra-data-${uuid}.zip`;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has handed the file to the browser; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
