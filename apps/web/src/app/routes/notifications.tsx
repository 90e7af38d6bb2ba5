import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/ui/empty-state';
import { IconBell } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';

export function Page() {
  const { t } = useTranslation();
  return (
    <PageFrame width="narrow" testId="notifications-page">
      <EmptyState
        icon={<IconBell size={28} />}
        title={t('notifications.emptyTitle')}
        text={t('notifications.emptyText')}
      />
    </PageFrame>
  );
}
