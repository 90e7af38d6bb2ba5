import {
  NOTIFICATION_CATEGORY_OF,
  type TNotification,
  type TNotificationData,
  type TNotificationKind,
  type TNotificationPreferences,
  type TNotificationPreferencesBody,
} from '@mirra/contracts';
import type { NotificationsDeps } from './notifications.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { translate } from '../../shared/i18n/messages.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import { addJob } from '../../shared/jobs.js';
import { formatMoney } from '../../shared/money-format.js';
import { sendBotMessage } from '../telegram/index.js';
import { findUserById } from '../users/index.js';
import { deliverNotificationJob } from './notifications.jobs.definitions.js';
import {
  reachableChannels,
  resolvePreferences,
  toPreferencesJson,
  wordNotice,
  type PreferenceMatrix,
} from './notifications.models.js';
import { notificationsRepository, type NotificationRow } from './notifications.repository.js';

/**
 * Tells a user something happened, on every channel their preferences allow: the in-app list, the
 * Telegram bot (when linked and allowed to write) and email (when the account has one). Call it
 * inside the transaction of the event itself, so the notice exists if and only if the event does;
 * `dedupeKey` (e.g. `royalty:<generation>`) keeps a retried event from notifying twice. A notice
 * turned off in the app is still recorded (hidden, already read) so its key keeps deduplicating.
 * Returns whether the event was new.
 */
export async function notifyUser(
  tx: DbOrTx,
  notification: { userId: number; kind: TNotificationKind; data: TNotificationData; dedupeKey: string },
): Promise<boolean> {
  const [prefs, user] = await Promise.all([
    loadPreferences(tx, notification.userId),
    findUserById(tx, notification.userId),
  ]);
  const wanted = prefs[NOTIFICATION_CATEGORY_OF[notification.kind]];
  const id = await notificationsRepository.insert(tx, {
    userId: notification.userId,
    kind: notification.kind,
    data: notification.data,
    dedupeKey: notification.dedupeKey,
    inApp: wanted.in_app,
  });
  if (id === null) return false;
  const reachable = user ? reachableChannels(user) : { telegram: false, email: false };
  for (const channel of ['telegram', 'email'] as const) {
    if (wanted[channel] && reachable[channel]) {
      await addJob(tx, deliverNotificationJob, { notificationId: id, channel });
    }
  }
  return true;
}

async function loadPreferences(db: DbOrTx, userId: number): Promise<PreferenceMatrix> {
  return resolvePreferences(await notificationsRepository.listPreferences(db, userId));
}

export async function getNotificationPreferences(
  deps: Pick<NotificationsDeps, 'db'>,
  user: Parameters<typeof reachableChannels>[0] & { id: number },
): Promise<TNotificationPreferences> {
  return toPreferencesJson(await loadPreferences(deps.db, user.id), user);
}

export async function updateNotificationPreferences(
  deps: Pick<NotificationsDeps, 'db' | 'now'>,
  user: Parameters<typeof reachableChannels>[0] & { id: number },
  body: TNotificationPreferencesBody,
): Promise<TNotificationPreferences> {
  await notificationsRepository.savePreferences(deps.db, user.id, body.changes, deps.now());
  return getNotificationPreferences(deps, user);
}

/**
 * Sends one notice to the bot or by email, if the user still wants it there and can still be
 * reached there; otherwise does nothing. Failures throw for the job's retry.
 */
export async function deliverNotification(
  deps: NotificationsDeps,
  notificationId: number,
  channel: 'telegram' | 'email',
): Promise<void> {
  const row = await notificationsRepository.findById(deps.db, notificationId);
  if (!row) return;
  const user = await findUserById(deps.db, row.userId);
  if (!user || user.deletedAt || user.bannedAt) return;
  const kind = row.kind as TNotificationKind;
  const prefs = await loadPreferences(deps.db, user.id);
  if (!prefs[NOTIFICATION_CATEGORY_OF[kind]][channel] || !reachableChannels(user)[channel]) {
    deps.logger.debug({ notificationId, channel }, 'notice not sent: the channel is turned off');
    return;
  }
  const wording = wordNotice(kind, row.data);
  const amount = wording.money
    ? formatMoney(wording.money.amount, wording.money.currency, user.language)
    : (wording.args.amount ?? '');
  const text = translate(user.language, wording.key, {
    ...wording.args,
    amount,
    days: String(deps.config.partners.holdDays),
  });
  const link = `${deps.config.publicUrl}${wording.path}`;
  if (channel === 'telegram') {
    await sendBotMessage(deps, {
      chatId: user.telegramId!,
      text,
      openAppUrl: link,
      openAppLabel: translate(user.language, wording.buttonKey),
    });
    return;
  }
  await deps.mailer.send({
    to: user.email!,
    subject: translate(user.language, 'email.notice.subject'),
    text: translate(user.language, 'email.notice.body', {
      name: user.firstName ? `, ${user.firstName}` : '',
      text,
      link,
      settings: `${deps.config.publicUrl}/settings/notifications/`,
    }),
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
