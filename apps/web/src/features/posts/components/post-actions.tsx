import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconBookmark, IconRepeat, IconEyeOff, IconSparkles } from '../../../components/ui/icons';
import type { TPost } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { useSession } from '../../../lib/session';
import { usePostMutations } from '../hooks/use-post-mutations';
import '../posts.css';

export const remixPath = (post: Pick<TPost, 'uuid' | 'recipe'>) =>
  `/generate/${post.recipe.mode}/post/${post.uuid}/`;

/** A feed card's actions: remix, save, and unpublish on my own posts. */
export function FeedPostActions({ post }: { post: TPost }) {
  const { t } = useTranslation();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const { save, unpublish } = usePostMutations();
  return (
    <>
      <Link
        to={remixPath(post)}
        className="post-action"
        aria-label={t('social.post.remix')}
        title={t('social.post.remix')}
        data-testid="post-card-remix"
      >
        <IconRepeat size={18} />
      </Link>
      {post.is_mine ? (
        <button
          type="button"
          className="post-action"
          aria-label={t('social.post.unpublish')}
          title={t('social.post.unpublish')}
          disabled={unpublish.isPending}
          onClick={() => unpublish.mutate(post)}
          data-testid="post-card-unpublish"
        >
          <IconEyeOff size={18} />
        </button>
      ) : (
        <button
          type="button"
          className={`post-action${post.is_saved ? ' is-active' : ''}`}
          aria-pressed={post.is_saved}
          aria-label={post.is_saved ? t('social.post.unsave') : t('social.post.save')}
          title={post.is_saved ? t('social.post.unsave') : t('social.post.save')}
          disabled={save.isPending}
          onClick={() =>
            isLoggedIn
              ? save.mutate({ post, isSaved: !post.is_saved })
              : useAppStore.getState().openAuthPopup(window.location.pathname + window.location.search)
          }
          data-testid="post-card-save"
        >
          <IconBookmark size={18} />
        </button>
      )}
    </>
  );
}

/** A draft's actions on my profile: publish it, or open it. */
export function DraftPostActions({ post }: { post: TPost }) {
  const { t } = useTranslation();
  const { publish } = usePostMutations();
  if (post.status === 'hidden') return null;
  return (
    <button
      type="button"
      className="post-action post-action--label"
      disabled={publish.isPending}
      onClick={() => publish.mutate(post)}
      data-testid="draft-publish"
    >
      <IconSparkles size={16} />
      {t('social.publish.publish')}
    </button>
  );
}
