import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/ui/page';
import { Spinner } from '../../components/ui/spinner';
import { MyProfile } from '../../features/social';
import { useSession } from '../../lib/session';

/** My profile (/profile/, kept alive). */
export function Page() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  if (!user) {
    return (
      <PageFrame className="page--center">
        <Spinner size={32} label={t('common.loading')} />
      </PageFrame>
    );
  }
  return (
    <PageFrame testId="profile-page" width="wide">
      <MyProfile key={user.uuid} />
    </PageFrame>
  );
}
