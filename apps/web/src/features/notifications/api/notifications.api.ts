import { api } from '../../../lib/api-client';
import { routes, type TNotificationPreferencesBody } from '@mirra/contracts';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => ['notifications', 'list'] as const,
  unread: () => ['notifications', 'unread'] as const,
  preferences: () => ['notifications', 'preferences'] as const,
};

export const notificationsApi = {
  list: (cursor: string | null) => api(routes.notifications.list, { query: { cursor, limit: 20 } }),
  unread: () => api(routes.notifications.unread),
  /** Every notification read when `ids` is left out. */
  markRead: (ids?: number[]) => api(routes.notifications.markRead, { body: ids ? { ids } : {} }),
  preferences: () => api(routes.notifications.preferences),
  updatePreferences: (changes: TNotificationPreferencesBody['changes']) =>
    api(routes.notifications.updatePreferences, { body: { changes } }),
};
