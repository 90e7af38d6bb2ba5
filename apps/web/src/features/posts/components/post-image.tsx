import type { TPost } from '../../../lib/api-types';
import { buildSrcSet } from '../../generations/result-image';

/**
 * A post's picture: WebP renditions in `srcset` for the slot's `sizes`, and the original's width
 * and height, so the box has its final shape before a byte arrives (no layout shift). Lazy unless
 * it is the page's main picture.
 */
export function PostImage({
  image,
  alt,
  sizes,
  eager = false,
  className = 'post-image',
  testId,
}: {
  image: TPost['image'];
  alt: string;
  sizes: string;
  eager?: boolean;
  className?: string;
  testId?: string;
}) {
  const srcSet = buildSrcSet(image.variants);
  // Renditions come smallest first: the largest is the fallback for browsers without srcset.
  const fallback = image.variants.at(-1)?.url ?? image.url;
  return (
    <img
      src={fallback}
      srcSet={srcSet || undefined}
      sizes={srcSet ? sizes : undefined}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      className={className}
      data-testid={testId}
    />
  );
}
