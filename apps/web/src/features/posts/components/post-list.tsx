import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import type { TPost, TPostList } from '../../../lib/api-types';
import { describeError } from '../../../lib/error-messages';
import { useLoadMoreOnView } from '../../generations/hooks/use-load-more-on-view';
import { uniquePosts } from '../post-pages';
import { PostGrid } from './post-grid';
import '../posts.css';

/**
 * A list of posts by keyset pages: the grid, more pages as its end comes into view, a skeleton
 * first, the empty state, and a retry after a failure.
 */
export function PostList({
  queryKey,
  fetchPage,
  empty,
  actions,
  testId,
}: {
  queryKey: QueryKey;
  fetchPage(cursor: string | null): Promise<TPostList>;
  empty: ReactNode;
  actions?: (post: TPost) => ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const list = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
  });
  const sentinel = useLoadMoreOnView(list);
  if (list.isPending) {
    return (
      <div className="post-grid post-grid--loading" aria-busy="true">
        {[0, 1, 2, 3].map((column) => (
          <div key={column} className="post-grid__column">
            <span
              className="post-card post-card--skeleton"
              style={{ aspectRatio: column % 2 ? '3 / 4' : '1' }}
            />
          </div>
        ))}
      </div>
    );
  }
  if (list.isError) {
    return (
      <div className="stack">
        <Alert>{describeError(t, list.error).alert}</Alert>
        <Button theme="light" size="sm" onClick={() => void list.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  const posts = uniquePosts(list.data.pages);
  if (posts.length === 0) return <>{empty}</>;
  return (
    <>
      <PostGrid posts={posts} actions={actions} testId={testId} />
      {list.hasNextPage && (
        <div ref={sentinel} className="center post-grid__more" data-testid="posts-more">
          {list.isFetchingNextPage ? (
            <Spinner size={24} label={t('common.loading')} />
          ) : (
            <Button theme="light" size="sm" onClick={() => void list.fetchNextPage()}>
              {t('common.more')}
            </Button>
          )}
        </div>
      )}
    </>
  );
}
