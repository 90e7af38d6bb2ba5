import { PageFrame } from '../../components/ui/page';
import { NotificationsList } from '../../features/notifications';

/** My notifications (/notifications). */
export function Page() {
  return (
    <PageFrame width="narrow" testId="notifications-page">
      <NotificationsList />
    </PageFrame>
  );
}
