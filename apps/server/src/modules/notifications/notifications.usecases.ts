import type { TNotification, TNotificationData, TNotificationKind } from '@mirra/contracts';
import type { NotificationsDeps } from './notifications.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import { notificationsRepository, type NotificationRow } from './notifications.repository.js';

/**
 * Tells a user something happened. Call it inside the transaction of the event itself, so the
 * notification exists if and only if the event does; `dedupeKey` (e.g. `royalty:<generation>`)
 * keeps a retried event from notifying twice. Returns whether a notification was added.
 */
export function notifyUser(
  tx: DbOrTx,
  notification: { userId: number; kind: TNotificationKind; data: TNotificationData; dedupeKey: string },
): Promise<boolean> {
  return notificationsRepository.insert(tx, {
    userId: notification.userId,
    kind: notification.kind,
    data: notification.data,
    dedupeKey: notification.dedupeKey,
  });
}

const toJson = (row: NotificationRow): TNotification => ({
  id: row.id,
  kind: row.kind as TNotificationKind,
  data: row.data,
  read: row.readAt !== null,
  created_at: row.createdAt.toISOString(),
});

export async function listNotifications(
  deps: Pick<NotificationsDeps, 'db'>,
  userId: number,
  cursor: string | undefined,
  limit: number,
) {
  const [{ page, next }, unread] = await Promise.all([
    readIdCursorPage(cursor, limit, (beforeId, take) =>
      notificationsRepository.listForUser(deps.db, userId, beforeId, take),
    ),
    notificationsRepository.countUnread(deps.db, userId),
  ]);
  return { results: page.map(toJson), next, unread };
}

export async function countUnreadNotifications(deps: Pick<NotificationsDeps, 'db'>, userId: number) {
  return { unread: await notificationsRepository.countUnread(deps.db, userId) };
}

export async function markNotificationsRead(
  deps: Pick<NotificationsDeps, 'db' | 'now'>,
  userId: number,
  ids: number[] | undefined,
) {
  await notificationsRepository.markRead(deps.db, userId, ids, deps.now());
  return countUnreadNotifications(deps, userId);
}
