import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { IconBookmark, IconEdit, IconGallery, IconSettings, IconShare } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { Spinner } from '../../components/ui/spinner';
import { ProfileCard, fullName } from '../../features/profile/components/profile-card';
import { useShareLink } from '../../lib/use-share-link';
import { useSession } from '../../lib/session';

const TABS = ['generations', 'drafts'] as const;

/** My profile: counts, share link, settings and edit, generations and drafts (kept alive). */
export function Page() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const share = useShareLink();
  const [tab, setTab] = useState<(typeof TABS)[number]>('generations');
  if (!user) {
    return (
      <PageFrame className="page--center">
        <Spinner size={32} label={t('common.loading')} />
      </PageFrame>
    );
  }
  const profileUrl = `${window.location.origin}/profile/${user.uuid}/`;
  return (
    <PageFrame testId="profile-page">
      <ProfileCard
        user={user}
        subtitle={user.email ?? undefined}
        actions={
          <>
            <ButtonLink
              to="/profile-edit/"
              theme="primary"
              size="sm"
              icon={<IconEdit size={18} />}
              data-testid="profile-edit-link"
            >
              {t('profile.edit')}
            </ButtonLink>
            <Button
              theme="light"
              size="sm"
              icon={<IconShare size={18} />}
              onClick={() => void share(profileUrl, fullName(user, 'Mirra'))}
            >
              {t('profile.share')}
            </Button>
            <ButtonLink
              to="/settings/"
              theme="light"
              size="sm"
              icon={<IconSettings size={18} />}
              aria-label={t('titles.settings')}
              data-testid="settings-link"
            >
              {t('titles.settings')}
            </ButtonLink>
          </>
        }
      />
      <div className="tabs tabs--center" role="tablist">
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={`tabs__tab${tab === name ? ' is-active' : ''}`}
            onClick={() => setTab(name)}
          >
            {t(`profile.tabs.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'generations' ? (
        <EmptyState
          icon={<IconGallery size={28} />}
          title={t('home.emptyTitle')}
          text={t('home.emptyText')}
          action={
            <ButtonLink to="/create/" theme="primary-outline">
              {t('home.emptyAction')}
            </ButtonLink>
          }
        />
      ) : (
        <EmptyState
          icon={<IconBookmark size={28} />}
          title={t('profile.draftsEmpty')}
          text={t('profile.draftsText')}
        />
      )}
    </PageFrame>
  );
}
