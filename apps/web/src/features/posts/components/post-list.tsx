import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from '../../../components/ui/load-error';
import { ListMore } from '../../../components/ui/paged-list-parts';
import type { TPost, TPostList } from '../../../lib/api-types';
import { useLoadMoreOnView } from '../../../lib/use-load-more-on-view';
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
  // A failed later page keeps the pages already shown (ListMore offers its retry).
  if (!list.data) return <LoadError query={list} />;
  const posts = uniquePosts(list.data.pages);
  if (posts.length === 0) return <>{empty}</>;
  return (
    <>
      <PostGrid posts={posts} actions={actions} testId={testId} />
      <ListMore list={list} sentinel={sentinel} className="center post-grid__more" testId="posts-more" />
    </>
  );
}
