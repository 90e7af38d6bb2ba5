import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TPost } from '../../../lib/api-types';
import { UserAvatar } from '../../../components/ui/user-avatar';
import { authorName } from '../post-text';
import { PostImage } from './post-image';
import { AiMark } from '../../provenance';
import '../posts.css';

/** Each column of the grid is at most this wide, so the browser picks a rendition to match. */
export const POST_CARD_SIZES = '(max-width: 560px) 50vw, (max-width: 1100px) 33vw, 300px';

/** One post in a grid: the picture and its title or prompt (both to the post), its author, and actions. */
export function PostCard({
  post,
  actions,
  eager = false,
}: {
  post: TPost;
  actions?: ReactNode;
  /** On the first screen: loaded at once with high priority instead of lazily. */
  eager?: boolean;
}) {
  const { t } = useTranslation();
  const name = authorName(post.author, t('profile.noName'));
  const caption = post.title || post.prompt;
  return (
    <article className="post-card" data-testid="post-card" data-uuid={post.uuid} data-status={post.status}>
      <Link
        to={`/post/${post.uuid}/`}
        className="post-card__picture"
        aria-label={caption || t('titles.post')}
      >
        <PostImage
          image={post.image}
          alt=""
          sizes={POST_CARD_SIZES}
          eager={eager}
          className="post-card__img"
        />
        <AiMark />
        {post.status !== 'published' && (
          <span className="post-card__badge">{t(`social.post.status.${post.status}`)}</span>
        )}
      </Link>
      <div className="post-card__body">
        {caption && (
          <Link to={`/post/${post.uuid}/`} className="post-card__caption" data-testid="post-card-caption">
            {caption}
          </Link>
        )}
        <div className="post-card__foot">
          <Link
            to={`/profile/${post.author.uuid}/`}
            className="post-card__author"
            data-testid="post-card-author"
          >
            <UserAvatar name={name} uuid={post.author.uuid} avatarUrl={post.author.avatar_url} size={22} />
            <span className="post-card__name">{name}</span>
          </Link>
          {actions && <div className="post-card__actions">{actions}</div>}
        </div>
      </div>
    </article>
  );
}
