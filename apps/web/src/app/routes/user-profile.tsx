import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { IconGallery, IconShare, IconUser } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { Spinner } from '../../components/ui/spinner';
import { usePublicUser } from '../../features/profile/api/profile.api';
import { fullName, ProfileCard } from '../../features/profile/components/profile-card';
import { useShareLink } from '../../lib/use-share-link';

/** Someone's public profile (also where a `p_<token>` start parameter leads). */
export function Page() {
  const { t } = useTranslation();
  const { uuid = '' } = useParams();
  const query = usePublicUser(uuid);
  const share = useShareLink();
  if (query.isPending) {
    return (
      <PageFrame className="page--center">
        <Spinner size={32} label={t('common.loading')} />
      </PageFrame>
    );
  }
  if (!query.data) {
    return (
      <PageFrame className="page--center" testId="user-profile-missing">
        <EmptyState
          icon={<IconUser size={30} />}
          title={t('profile.missingTitle')}
          text={t('profile.missingText')}
        />
      </PageFrame>
    );
  }
  const user = query.data;
  return (
    <PageFrame testId="user-profile-page">
      <ProfileCard
        user={user}
        actions={
          <Button
            theme="light"
            size="sm"
            icon={<IconShare size={18} />}
            onClick={() => void share(window.location.href, fullName(user, 'Mirra'))}
          >
            {t('profile.share')}
          </Button>
        }
      />
      <EmptyState
        icon={<IconGallery size={28} />}
        title={t('profile.noPosts')}
        text={t('profile.noPostsText')}
      />
    </PageFrame>
  );
}
