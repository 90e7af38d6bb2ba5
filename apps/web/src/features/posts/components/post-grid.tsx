import type { ReactNode } from 'react';
import type { TPost } from '../../../lib/api-types';
import { useElementWidth } from '../hooks/use-element-width';
import { layoutMasonry, masonryColumnCount } from '../masonry';
import { PostCard } from './post-card';
import '../posts.css';

/** A card's caption and author line, in column widths, so columns come out even. */
const CARD_CAPTION_HEIGHT = 0.35;
/**
 * Cards per column a phone shows on its first screen under the page's header and tabs: they load
 * at once and first (a lazy picture in view waits for layout, and the largest one is the page's LCP).
 */
const FIRST_SCREEN_ROWS = 2;

/**
 * Posts in masonry columns: each picture keeps its own shape, and columns are filled by height
 * from the pictures' known sizes, so nothing moves as images load or as more pages arrive.
 */
export function PostGrid({
  posts,
  actions,
  testId = 'post-grid',
}: {
  posts: readonly TPost[];
  actions?: (post: TPost) => ReactNode;
  testId?: string;
}) {
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const columns = layoutMasonry(
    posts.map((post) => post.image),
    masonryColumnCount(width),
    CARD_CAPTION_HEIGHT,
  );
  return (
    <div ref={ref} className="post-grid" data-testid={testId}>
      {columns.map((indexes, column) => (
        <div key={column} className="post-grid__column">
          {indexes.map((index, row) => {
            const post = posts[index]!;
            return (
              <PostCard
                key={post.uuid}
                post={post}
                actions={actions?.(post)}
                eager={row < FIRST_SCREEN_ROWS}
              />
            );
          })}
        </div>
      ))}
    </div>
  );
}
