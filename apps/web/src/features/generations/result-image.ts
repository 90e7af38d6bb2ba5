import type { TImageVariant } from '../../lib/api-types';

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
