import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/button';
import { IconEdit, IconSettings } from '../../../components/ui/icons';
import { useSession } from '../../../lib/session';
import { fullName, ProfileCard } from '../../profile';
import { useProfile } from '../hooks/use-profile';
import { countsOf } from '../subscription';
import { CreditsButton } from '../../credits';
import { GenerationsGrid } from '../../generations';
import { ShareProfileButton } from './profile-actions';
import { AuthorPosts, MyDrafts } from './profile-posts';
import { UserAvatar } from '../../../components/ui/user-avatar';
import { useScrollHint } from '../../../components/ui/use-scroll-hint';
import '../social.css';

const TABS = ['posts', 'drafts', 'generations'] as const;
type MyProfileTab = (typeof TABS)[number];

/**
 * My profile (/profile/, kept alive): counts, share link, edit and settings, my credits, and my
 * published posts, drafts and generations.
 */
export function MyProfile() {
  const { t } = useTranslation();
  const tabsRef = useScrollHint<HTMLDivElement>();
  const user = useSession((s) => s.user)!;
  const profile = useProfile(user.uuid);
  const [tab, setTab] = useState<MyProfileTab>('posts');
  const name = fullName(user, 'Mirra');
  return (
    <>
      <ProfileCard
        user={user}
        subtitle={user.email ?? undefined}
        counts={profile.data ? countsOf(profile.data) : null}
        avatar={
          profile.data?.avatar_url ? (
            <UserAvatar name={name} uuid={user.uuid} avatarUrl={profile.data.avatar_url} size={88} />
          ) : undefined
        }
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
            {profile.data && <ShareProfileButton profile={profile.data} name={name} />}
            <CreditsButton />
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
      <div className="tabs tabs--center" role="tablist" ref={tabsRef}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={`tabs__tab${tab === name ? ' is-active' : ''}`}
            onClick={() => setTab(name)}
            data-testid={`profile-tab-${name}`}
          >
            {t(name === 'posts' ? 'social.profile.posts' : `profile.tabs.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'posts' ? (
        <AuthorPosts uuid={user.uuid} isMe />
      ) : tab === 'drafts' ? (
        <MyDrafts />
      ) : (
        <GenerationsGrid />
      )}
    </>
  );
}
