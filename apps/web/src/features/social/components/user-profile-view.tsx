import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconEdit, IconUser } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-error';
import { fullName, ProfileCard } from '../../profile';
import { useProfile } from '../hooks/use-profile';
import { countsOf } from '../subscription';
import { ShareProfileButton, SubscribeButton } from './profile-actions';
import { AuthorPosts } from './profile-posts';
import { UserAvatar } from '../../../components/ui/user-avatar';
import '../social.css';

/** Someone's profile (/profile/<uuid>/, also where a `p_<uuid>` start parameter leads). */
export function UserProfileView({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const profile = useProfile(uuid);
  if (profile.isPending) {
    return (
      <div className="center">
        <Spinner size={32} label={t('common.loading')} />
      </div>
    );
  }
  if (profile.isError) {
    const missing = profile.error instanceof ApiError && [400, 404].includes(profile.error.status);
    return missing ? (
      <div data-testid="user-profile-missing">
        <EmptyState
          icon={<IconUser size={30} />}
          title={t('profile.missingTitle')}
          text={t('profile.missingText')}
        />
      </div>
    ) : (
      <LoadError query={profile} />
    );
  }
  const person = profile.data;
  const name = fullName(person, t('profile.noName'));
  return (
    <>
      <ProfileCard
        user={person}
        counts={countsOf(person)}
        avatar={
          person.avatar_url ? (
            <UserAvatar name={name} uuid={person.uuid} avatarUrl={person.avatar_url} size={88} />
          ) : undefined
        }
        actions={
          <>
            <SubscribeButton profile={person} />
            {person.is_me && (
              <ButtonLink to="/profile/" theme="primary" size="sm" icon={<IconEdit size={18} />}>
                {t('social.profile.mine')}
              </ButtonLink>
            )}
            <ShareProfileButton profile={person} name={name} />
          </>
        }
      />
      <h2 className="profile-section-title">{t('social.profile.posts')}</h2>
      <AuthorPosts uuid={person.uuid} isMe={person.is_me} />
    </>
  );
}
