import { PageFrame } from '../../components/ui/page';
import { NotificationPreferences } from '../../features/notifications';

/** Settings → Notifications: which notices reach me in the app, from the Telegram bot, by email. */
export function Page() {
  return (
    <PageFrame width="narrow" testId="notification-settings-page">
      <NotificationPreferences />
    </PageFrame>
  );
}
