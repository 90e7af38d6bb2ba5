import { api } from '../../../lib/api-client';
import type { TNotificationList, TUnreadCount } from '../../../lib/api-types';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => ['notifications', 'list'] as const,
  unread: () => ['notifications', 'unread'] as const,
};

export const notificationsApi = {
  list: (cursor: string | null) =>
    api.get<TNotificationList>('/api/notifications/', { query: { cursor, limit: 20 } }),
  unread: () => api.get<TUnreadCount>('/api/notifications/unread/'),
  /** Every notification read when `ids` is left out. */
  markRead: (ids?: number[]) => api.post<TUnreadCount>('/api/notifications/read/', ids ? { ids } : {}),
};
