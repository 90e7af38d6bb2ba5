import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import {
  IconBell,
  IconCheck,
  IconFace,
  IconSparkles,
  IconUsers,
  IconWallet,
  IconAlert,
  IconCrown,
} from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { ListMore } from '../../../components/ui/paged-list-parts';
import { Spinner } from '../../../components/ui/spinner';
import type { TNotification, TNotificationKind } from '../../../lib/api-types';
import { useAction } from '../../../lib/use-action';
import { creditKeys } from '../../credits';
import { useLoadMoreOnView } from '../../../lib/use-load-more-on-view';
import { useNow } from '../../../lib/use-now';
import { notificationKeys, notificationsApi } from '../api/notifications.api';
import { formatRelative } from '../../../lib/dates';
import { describeNotification } from '../notification-text';
import '../notifications.css';

const KIND_ICONS: Record<TNotificationKind, typeof IconBell> = {
  new_subscriber: IconUsers,
  royalty: IconWallet,
  model_ready: IconFace,
  generation_finished: IconSparkles,
  post_removed: IconAlert,
  partner_joined: IconUsers,
  commission_frozen: IconWallet,
  commission_available: IconWallet,
  payout_paid: IconWallet,
  payout_rejected: IconAlert,
  post_restored: IconCheck,
  subscription_renewal_failed: IconCrown,
};

/**
 * My notifications, newest first, page by page. Opening the list marks everything read (the
 * badge goes) while the ones that were new stay highlighted for this visit.
 */
export function NotificationsList() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useInfiniteQuery({
    queryKey: notificationKeys.list(),
    queryFn: ({ pageParam }) => notificationsApi.list(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
    // Every visit reads the list afresh: what is marked read must be what this visit shows.
    refetchOnMount: 'always',
  });
  const sentinel = useLoadMoreOnView(list);
  const markRead = useAction({
    run: (ids: number[]) => notificationsApi.markRead(ids),
    onSuccess: (state) => {
      // A count read a moment before (still on its way) must not bring the badge back.
      void queryClient
        .cancelQueries({ queryKey: notificationKeys.unread() })
        .then(() => queryClient.setQueryData(notificationKeys.unread(), state));
    },
  });
  const unread = list.data?.pages[0]?.unread ?? 0;
  const items = list.data?.pages.flatMap((page) => page.results) ?? [];
  const marked = useRef(false);
  const markShownRead = markRead.mutate;
  const fresh = list.isFetchedAfterMount;
  const shownUnread = items.filter((item) => !item.read).map((item) => item.id);
  const shownUnreadKey = shownUnread.join(',');
  useEffect(() => {
    if (fresh && shownUnreadKey && !marked.current) {
      marked.current = true;
      markShownRead(shownUnreadKey.split(',').map(Number));
    }
  }, [fresh, shownUnreadKey, markShownRead]);
  // "5 minutes ago" moves on while the page is open.
  const now = useNow(true, 30_000);
  // A royalty may have just arrived: the balance on the profile should show it.
  const hasRoyalty = items.some((item) => item.kind === 'royalty' && !item.read);
  useEffect(() => {
    if (hasRoyalty) void queryClient.invalidateQueries({ queryKey: creditKeys.all });
  }, [hasRoyalty, queryClient]);

  if (list.isPending) {
    return (
      <div className="center">
        <Spinner size={28} label={t('common.loading')} />
      </div>
    );
  }
  if (!list.data) return <LoadError query={list} />;
  if (items.length === 0) {
    return (
      <EmptyState
        icon={<IconBell size={28} />}
        title={t('notifications.emptyTitle')}
        text={t('notifications.emptyText')}
      />
    );
  }
  return (
    <>
      <div className="notifications-head">
        <span className="muted-note">
          {unread > 0
            ? t('social.notifications.unread', { count: unread })
            : t('social.notifications.allRead')}
        </span>
        {unread > 0 && markRead.isSuccess && (
          <span className="notifications-head__done">
            <IconCheck size={16} /> {t('social.notifications.markedRead')}
          </span>
        )}
      </div>
      <ul className="list notifications" data-testid="notifications-list">
        {items.map((item) => (
          <NotificationRow key={item.id} notification={item} now={now} />
        ))}
      </ul>
      <ListMore list={list} sentinel={sentinel} />
    </>
  );
}

function NotificationRow({ notification, now }: { notification: TNotification; now: number }) {
  const { t, i18n } = useTranslation();
  const text = describeNotification(notification, i18n.language);
  const values = {
    ...text.values,
    ...Object.fromEntries(Object.entries(text.terms).map(([k, key]) => [k, t(key)])),
  };
  const Icon = KIND_ICONS[notification.kind];
  const body = (
    <>
      <span className={`list__icon notification__icon notification__icon--${notification.kind}`}>
        <Icon size={20} />
      </span>
      <span className="list__label">
        <span className="notification__text">{t(text.key, values)}</span>
        <span className="list__sub">{formatRelative(notification.created_at, now, i18n.language)}</span>
      </span>
      {!notification.read && (
        <span className="notification__dot" aria-label={t('social.notifications.new')} />
      )}
    </>
  );
  const className = `list__row notification${notification.read ? '' : ' is-unread'}`;
  return (
    <li>
      {text.href ? (
        <Link to={text.href} className={className} data-testid="notification" data-kind={notification.kind}>
          {body}
        </Link>
      ) : (
        <div className={className} data-testid="notification" data-kind={notification.kind}>
          {body}
        </div>
      )}
    </li>
  );
}
