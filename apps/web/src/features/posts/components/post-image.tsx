import { useEffect, useRef } from 'react';
import type { TPost } from '../../../lib/api-types';
import { buildSrcSet } from '../../../lib/image-variants';

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
  if (image.content_type?.startsWith('video/')) {
    return <PostVideo image={image} alt={alt} eager={eager} className={className} testId={testId} />;
  }
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

/**
 * A video post: its poster (the first frame) in a box of the video's size, so nothing shifts; it
 * plays muted and looping, inline, while at least half of it is on screen, and pauses when it
 * leaves (a feed of videos does not play them all at once). Only its metadata loads before then.
 */
function PostVideo({
  image,
  alt,
  eager,
  className,
  testId,
}: {
  image: TPost['image'];
  alt: string;
  eager: boolean;
  className: string;
  testId?: string;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry?.isIntersecting) void video.play().catch(() => {});
        else video.pause();
      },
      { threshold: 0.5 },
    );
    observer.observe(video);
    return () => observer.disconnect();
  }, []);
  return (
    <video
      ref={ref}
      src={image.url}
      poster={image.variants.at(-1)?.url}
      width={image.width}
      height={image.height}
      muted
      loop
      playsInline
      preload={eager ? 'auto' : 'metadata'}
      aria-label={alt}
      className={className}
      data-testid={testId}
      data-video="true"
    />
  );
}
