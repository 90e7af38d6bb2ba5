import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import {
  IconAlert,
  IconBookmark,
  IconEyeOff,
  IconFace,
  IconImage,
  IconShare,
  IconShield,
  IconSparkles,
  IconWand,
} from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-error';
import { isVideoResult } from '../../../lib/image-variants';
import type { TPost } from '../../../lib/api-types';
import { useShareLink } from '../../../lib/use-share-link';
import { UserAvatar } from '../../../components/ui/user-avatar';
import { postKeys, postsApi } from '../api/posts.api';
import { usePostMutations } from '../hooks/use-post-mutations';
import { authorName, compactCount } from '../post-text';
import { remixPath } from './post-actions';
import { AiMarked } from '../../provenance';
import { PostImage } from './post-image';
import { ReportSheet } from './report-sheet';
import '../posts.css';

const POST_IMAGE_SIZES = '(max-width: 900px) 100vw, 600px';
const COUNTS = ['saves', 'views', 'repeats', 'remixes'] as const;

/**
 * /post/<uuid>/: the post, or 'Not found' when it is not there (or not mine to see). The page
 * supplies the Repeat action (`renderRepeat`): repeating makes a generation, which is the
 * generations feature's to do.
 */
export function PostView({
  uuid,
  renderRepeat,
  renderTools,
}: {
  uuid: string;
  renderRepeat(post: TPost): ReactNode;
  /** The picture tools, started with the post's picture (supplied by the route, as Repeat is). */
  renderTools?(post: TPost): ReactNode;
}) {
  const { t } = useTranslation();
  const post = useQuery({ queryKey: postKeys.one(uuid), queryFn: () => postsApi.get(uuid) });
  useCountedView(post.data);
  if (post.data)
    return <PostDetails post={post.data} renderRepeat={renderRepeat} renderTools={renderTools} />;
  if (post.error instanceof ApiError && (post.error.status === 404 || post.error.status === 400)) {
    return (
      <div className="page--center post-missing" data-testid="post-missing">
        <EmptyState
          icon={<IconImage size={30} />}
          title={t('messages.notFound')}
          text={t('post.missingText')}
          action={
            <ButtonLink to="/posts/top/" theme="primary">
              {t('social.post.toFeed')}
            </ButtonLink>
          }
        />
      </div>
    );
  }
  if (post.isError) return <LoadError query={post} />;
  return (
    <div className="center">
      <Spinner size={28} label={t('common.loading')} />
    </div>
  );
}

/**
 * A view is counted once per opening of someone else's published post (the server keeps one per
 * person and day, and never the author's own).
 */
function useCountedView(post: TPost | undefined) {
  const counted = useRef<string | null>(null);
  const shouldCount = Boolean(post && !post.is_mine && post.status === 'published');
  const uuid = post?.uuid ?? null;
  useEffect(() => {
    if (!shouldCount || !uuid || counted.current === uuid) return;
    counted.current = uuid;
    postsApi.view(uuid).catch(() => {
      // A lost view is not worth bothering anyone about.
    });
  }, [shouldCount, uuid]);
}

function PostDetails({
  post,
  renderRepeat,
  renderTools,
}: {
  post: TPost;
  renderRepeat(post: TPost): ReactNode;
  renderTools?(post: TPost): ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const share = useShareLink();
  const { save, unpublish, publish } = usePostMutations();
  const [reporting, setReporting] = useState(false);
  const name = authorName(post.author, t('profile.noName'));
  const caption = post.title || post.prompt || t(`modes.${post.recipe.mode}.title`);
  return (
    <article className="post-view" data-testid="post-view" data-status={post.status}>
      <div className="post-view__picture">
        <AiMarked>
          <PostImage
            image={post.image}
            alt={caption}
            sizes={POST_IMAGE_SIZES}
            eager
            className="post-view__img"
            testId="post-image"
          />
        </AiMarked>
      </div>
      <div className="post-view__info">
        <Link to={`/profile/${post.author.uuid}/`} className="post-view__author" data-testid="post-author">
          <UserAvatar name={name} uuid={post.author.uuid} avatarUrl={post.author.avatar_url} size={40} />
          <span className="post-view__author-name">{name}</span>
        </Link>
        {post.title && (
          <h1 className="post-view__title" data-testid="post-title">
            {post.title}
          </h1>
        )}
        {post.status !== 'published' && (
          <Alert tone="info">{t(`social.post.statusNote.${post.status}`)}</Alert>
        )}
        {post.prompt && (
          <section className="post-view__prompt">
            <h2 className="post-view__label">{t('social.post.prompt')}</h2>
            <p data-testid="post-prompt">{post.prompt}</p>
            <p className="muted-note">
              {t(`modes.${post.recipe.mode}.title`)}
              {post.recipe.style
                ? ` · ${t(`styles.${post.recipe.style}`, { defaultValue: post.recipe.style })}`
                : ''}
            </p>
          </section>
        )}
        <dl className="post-view__counts">
          {COUNTS.map((kind) => {
            const count = post[`${kind}_count`];
            return (
              <div key={kind} className="post-view__count" data-testid={`post-count-${kind}`}>
                <dt>{t(`social.post.counts.${kind}`, { count })}</dt>
                <dd>{compactCount(count, i18n.language)}</dd>
              </div>
            );
          })}
        </dl>

        <div className="post-view__main-actions">
          {renderRepeat(post)}
          <ButtonLink
            to={remixPath(post)}
            theme="light"
            size="lg"
            block
            icon={<IconWand size={20} />}
            data-testid="post-remix"
          >
            {t('social.post.remix')}
          </ButtonLink>
        </div>
        <p className="muted-note">{t('social.post.royaltyNote')}</p>

        <div className="post-view__actions">
          {/* A face goes onto a picture: a video post offers no face swap. */}
          {!isVideoResult({ content_type: post.image.content_type ?? '' }) && (
            <ButtonLink
              to={`/generate/face_swap/post/${post.uuid}/`}
              theme="light"
              icon={<IconFace size={18} />}
              data-testid="post-face-swap"
            >
              {t('social.post.faceSwap')}
            </ButtonLink>
          )}
          {!isVideoResult({ content_type: post.image.content_type ?? '' }) && renderTools?.(post)}
          {post.status === 'published' && (
            <Button
              theme={post.is_saved ? 'primary-outline' : 'light'}
              icon={<IconBookmark size={18} />}
              aria-pressed={post.is_saved}
              // One at a time: a save and an unsave in flight together could end in either order.
              disabled={save.isPending}
              onClick={() => save.mutate({ post, isSaved: !post.is_saved })}
              data-testid="post-save"
            >
              {post.is_saved ? t('social.post.saved') : t('social.post.save')}
            </Button>
          )}
          {post.status === 'published' && (
            <Button
              theme="light"
              icon={<IconShare size={18} />}
              onClick={() => void share(post.share_url, caption)}
              data-testid="post-share"
            >
              {t('result.share')}
            </Button>
          )}
          {post.is_mine && post.status === 'published' && (
            <Button
              theme="light"
              icon={<IconEyeOff size={18} />}
              loading={unpublish.isPending}
              onClick={() => unpublish.mutate(post)}
              data-testid="post-unpublish"
            >
              {t('social.post.unpublish')}
            </Button>
          )}
          {post.is_mine && post.status === 'draft' && (
            <Button
              theme="primary-outline"
              icon={<IconSparkles size={18} />}
              loading={publish.isPending}
              onClick={() => publish.mutate(post)}
              data-testid="post-publish"
            >
              {t('social.publish.publish')}
            </Button>
          )}
          {!post.is_mine && (
            <Button
              theme="light"
              icon={<IconAlert size={18} />}
              onClick={() => setReporting(true)}
              data-testid="post-report"
            >
              {t('social.report.open')}
            </Button>
          )}
          {!post.is_mine && post.status === 'published' && (
            <ButtonLink
              to={`/takedown/?post=${encodeURIComponent(post.share_url)}`}
              theme="light"
              icon={<IconShield size={18} />}
              data-testid="post-takedown"
            >
              {t('takedown.open')}
            </ButtonLink>
          )}
        </div>
      </div>
      {reporting && <ReportSheet postUuid={post.uuid} onClose={() => setReporting(false)} />}
    </article>
  );
}
