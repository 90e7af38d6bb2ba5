import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconBell } from '../../../components/ui/icons';
import { useUnreadCount } from '../hooks/use-unread-count';
import '../notifications.css';

/** The header's bell: it leads to /notifications and shows how many are unread. */
export default function NotificationsBell() {
  const { t } = useTranslation();
  const unread = useUnreadCount(true);
  const label = unread > 0 ? `${t('titles.notifications')}: ${unread}` : t('titles.notifications');
  return (
    <Link
      to="/notifications"
      className="icon-btn notifications-bell"
      aria-label={label}
      data-testid="header-notifications"
    >
      <IconBell size={22} />
      {unread > 0 && (
        <span className="notifications-bell__badge" data-testid="unread-badge">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
