import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { IconCheck, IconShare, IconUsers } from '../../../components/ui/icons';
import type { TProfile } from '../../../lib/api-types';
import { isInTelegram } from '../../../lib/telegram';
import { useShareLink } from '../../../lib/use-share-link';
import { useSubscription } from '../hooks/use-profile';
import { profileShareUrl } from '../subscription';

/** Subscribe / unsubscribe to someone (not shown on my own profile). */
export function SubscribeButton({ profile }: { profile: TProfile }) {
  const { t } = useTranslation();
  const subscription = useSubscription(profile.uuid);
  if (profile.is_me) return null;
  return (
    <Button
      theme={profile.is_subscribed ? 'light' : 'primary'}
      size="sm"
      icon={profile.is_subscribed ? <IconCheck size={18} /> : <IconUsers size={18} />}
      aria-pressed={profile.is_subscribed}
      disabled={subscription.isPending}
      onClick={() => subscription.mutate(!profile.is_subscribed)}
      data-testid="profile-subscribe"
    >
      {profile.is_subscribed ? t('social.profile.subscribed') : t('social.profile.subscribe')}
    </Button>
  );
}

/** Shares a profile: inside Telegram its Mini App link (`p_<uuid>`), elsewhere its web address. */
export function ShareProfileButton({ profile, name }: { profile: TProfile; name: string }) {
  const { t } = useTranslation();
  const share = useShareLink();
  return (
    <Button
      theme="light"
      size="sm"
      icon={<IconShare size={18} />}
      onClick={() => void share(profileShareUrl(profile, isInTelegram()), name)}
      data-testid="profile-share"
    >
      {t('profile.share')}
    </Button>
  );
}
