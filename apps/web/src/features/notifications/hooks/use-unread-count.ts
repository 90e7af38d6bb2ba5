import { useQuery } from '@tanstack/react-query';
import { STALE } from '../../../lib/query-client';
import { notificationKeys, notificationsApi } from '../api/notifications.api';

/** How often the unread count is asked for while the app is in front (one indexed count each time). */
export const UNREAD_POLL_MS = STALE.minutes(1);

/**
 * The unread count for the menu badge: asked for on start, every minute while the page is visible
 * (TanStack pauses the interval in the background), and again when the window regains focus.
 */
export function useUnreadCount(enabled: boolean) {
  const query = useQuery({
    queryKey: notificationKeys.unread(),
    queryFn: notificationsApi.unread,
    enabled,
    staleTime: STALE.seconds(20),
    refetchInterval: UNREAD_POLL_MS,
    refetchOnWindowFocus: true,
  });
  return enabled ? (query.data?.unread ?? 0) : 0;
}
