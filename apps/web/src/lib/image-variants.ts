import type { TImageVariant } from './api-types';

/** `srcset` from the WebP renditions: the browser picks the smallest that fills the slot. */
export function buildSrcSet(variants: readonly TImageVariant[]): string {
  return [...variants]
    .sort((a, b) => a.width - b.width)
    .map((variant) => `${variant.url} ${variant.width}w`)
    .join(', ');
}

/** The smallest rendition (lists and thumbnails); null when a result has none (e.g. a video). */
export function smallestVariant(variants: readonly TImageVariant[]): TImageVariant | null {
  return variants.reduce<TImageVariant | null>(
    (smallest, variant) => (!smallest || variant.width < smallest.width ? variant : smallest),
    null,
  );
}

/** A result's `sizes`: the full column on phones, at most the page's content width elsewhere. */
export const RESULT_IMAGE_SIZES = '(max-width: 760px) 100vw, 720px';

/**
 * The picture to use when a result becomes the source of a new generation: its largest WebP
 * rendition (full size up to 2048 px, a fraction of the PNG original's bytes, so it uploads fast
 * and within the upload limit), or the original when there are no renditions.
 */
export function sourceImageOf(result: { url: string; variants: readonly TImageVariant[] }): {
  url: string;
  extension: string;
} {
  const largest = result.variants.reduce<TImageVariant | null>(
    (best, variant) => (!best || variant.width > best.width ? variant : best),
    null,
  );
  if (largest) return { url: largest.url, extension: 'webp' };
  return { url: result.url, extension: /\.jpe?g\b/.test(result.url) ? 'jpg' : 'png' };
}

/** Whether a result is a video (the original is an MP4; its renditions are the poster). */
export function isVideoResult(result: { content_type: string }): boolean {
  return result.content_type.startsWith('video/');
}
