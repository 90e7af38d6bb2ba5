import type { ReactNode } from 'react';
import type { TPost } from '../../../lib/api-types';
import { useElementWidth } from '../hooks/use-element-width';
import { layoutMasonry, masonryColumnCount } from '../masonry';
import { PostCard } from './post-card';
import '../posts.css';

/** A card's caption and author line, in column widths, so columns come out even. */
const CARD_CAPTION_HEIGHT = 0.35;

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
            // The top card of each column is on the first screen: it loads at once and first.
            return <PostCard key={post.uuid} post={post} actions={actions?.(post)} eager={row === 0} />;
          })}
        </div>
      ))}
    </div>
  );
}
