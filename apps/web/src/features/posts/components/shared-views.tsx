import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconImage, IconLock, IconShield } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { UserAvatar } from '../../../components/ui/user-avatar';
import { ApiError } from '../../../lib/api-error';
import { useAppStore } from '../../../lib/app-store';
import type { TPost } from '../../../lib/api-types';
import { postKeys, postsApi, sharesApi } from '../api/posts.api';
import { authorName } from '../post-text';
import { PostImage } from './post-image';
import '../sharing.css';

/** The smallest still of a picture or a video (its poster): a blurred glimpse needs no more. */
const glimpseOf = (image: TPost['image']) =>
  image.variants[0]?.url ?? (image.content_type?.startsWith('video/') ? null : image.url);

/**
 * A guest on a post's page, behind the sign-in sheet: the picture blurred and who made it, so the
 * sheet explains itself. The post stays for people signed in; a post that is not public shows
 * nothing of it.
 */
export function PostGuestView({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const openAuthPopup = useAppStore((s) => s.openAuthPopup);
  const post = useQuery({ queryKey: postKeys.one(uuid), queryFn: () => postsApi.get(uuid), retry: false });
  const name = post.data ? authorName(post.data.author, t('profile.noName')) : '';
  const glimpse = post.data ? glimpseOf(post.data.image) : null;
  const glimpseText = post.data ? t('social.sharing.guestText', { name }) : null;
  // The sign-in popup covers a phone's screen: it shows the glimpse too, so it explains itself.
  useEffect(() => {
    if (glimpseText === null) return;
    useAppStore.getState().setAuthGlimpse({ picture: glimpse, text: glimpseText });
    return () => useAppStore.getState().setAuthGlimpse(null);
  }, [glimpse, glimpseText]);
  const signIn = (
    <Button theme="primary" onClick={() => openAuthPopup(window.location.pathname + window.location.search)}>
      {t('auth.signIn')}
    </Button>
  );
  if (!post.data) {
    if (post.isPending) {
      return (
        <div className="center">
          <Spinner size={28} label={t('common.loading')} />
        </div>
      );
    }
    return (
      <div className="page page--center" data-testid="sign-in-required">
        <EmptyState
          tone="brand"
          icon={<IconLock size={30} />}
          title={t('auth.requiredTitle')}
          text={t('auth.requiredText')}
          action={signIn}
        />
      </div>
    );
  }
  return (
    <div className="post-teaser" data-testid="post-guest-view">
      {glimpse && (
        <div className="post-teaser__picture">
          <img
            src={glimpse}
            width={post.data.image.width}
            height={post.data.image.height}
            alt=""
            className="post-teaser__img"
            data-testid="post-guest-picture"
          />
        </div>
      )}
      <div className="post-teaser__author" data-testid="post-guest-author">
        <UserAvatar
          name={name}
          uuid={post.data.author.uuid}
          avatarUrl={post.data.author.avatar_url}
          size={40}
        />
        <span className="post-teaser__author-name">{name}</span>
      </div>
      <p className="post-teaser__text">{glimpseText}</p>
      {signIn}
      {/* Whoever it shows can ask for its removal without an account. */}
      <ButtonLink
        to={`/takedown/?post=${encodeURIComponent(post.data.share_url)}`}
        theme="light"
        icon={<IconShield size={18} />}
        data-testid="post-takedown"
      >
        {t('takedown.open')}
      </ButtonLink>
    </div>
  );
}

/** /s/<token>/: a result its owner shared by link, or that it is no longer shared. */
export function SharedResultView({ token }: { token: string }) {
  const { t } = useTranslation();
  const shared = useQuery({
    queryKey: postKeys.shared(token),
    queryFn: () => sharesApi.get(token),
    retry: false,
  });
  const cta = (
    <ButtonLink to="/" theme="primary" size="lg" block>
      {t('social.sharing.cta')}
    </ButtonLink>
  );
  if (shared.data) {
    const name = authorName(shared.data.author, t('profile.noName'));
    const title = t('social.sharing.by', { name });
    return (
      <article className="shared-result" data-testid="shared-result">
        <PostImage
          image={shared.data.image}
          alt={title}
          sizes="(max-width: 900px) 100vw, 600px"
          eager
          className="shared-result__img"
          testId="shared-image"
        />
        <div className="post-teaser__author" data-testid="shared-author">
          <UserAvatar
            name={name}
            uuid={shared.data.author.uuid}
            avatarUrl={shared.data.author.avatar_url}
            size={40}
          />
          <span className="post-teaser__author-name">{name}</span>
        </div>
        {cta}
      </article>
    );
  }
  if (shared.error instanceof ApiError && [400, 404, 410].includes(shared.error.status)) {
    const revoked = shared.error.status === 410;
    return (
      <div className="page page--center" data-testid={revoked ? 'share-revoked' : 'share-missing'}>
        <EmptyState
          icon={<IconImage size={30} />}
          title={t(revoked ? 'social.sharing.goneTitle' : 'social.sharing.missingTitle')}
          text={t(revoked ? 'social.sharing.goneText' : 'social.sharing.missingText')}
          action={cta}
        />
      </div>
    );
  }
  if (shared.isError) return <LoadError query={shared} />;
  return (
    <div className="center">
      <Spinner size={28} label={t('common.loading')} />
    </div>
  );
}
