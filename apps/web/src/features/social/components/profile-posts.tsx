import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconBookmark, IconGallery } from '../../../components/ui/icons';
import { postKeys, postsApi, DraftPostActions, FeedPostActions, PostList } from '../../posts';

/** A person's published posts, newest first, page by page. */
export function AuthorPosts({ uuid, isMe }: { uuid: string; isMe: boolean }) {
  const { t } = useTranslation();
  return (
    <PostList
      queryKey={postKeys.byAuthor(uuid)}
      fetchPage={(cursor) => postsApi.byAuthor(uuid, cursor)}
      actions={(post) => <FeedPostActions post={post} />}
      testId="profile-posts"
      empty={
        <EmptyState
          icon={<IconGallery size={28} />}
          title={t('profile.noPosts')}
          text={isMe ? t('social.profile.noPostsMine') : t('profile.noPostsText')}
        />
      }
    />
  );
}

/** My drafts: kept results nobody else sees, each ready to publish. */
export function MyDrafts() {
  const { t } = useTranslation();
  return (
    <PostList
      queryKey={postKeys.list('drafts', '')}
      fetchPage={(cursor) => postsApi.list('drafts', '', cursor)}
      actions={(post) => <DraftPostActions post={post} />}
      testId="profile-drafts"
      empty={
        <EmptyState
          icon={<IconBookmark size={28} />}
          title={t('profile.draftsEmpty')}
          text={t('profile.draftsText')}
        />
      }
    />
  );
}
