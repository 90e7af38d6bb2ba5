import type { TGenerationResult } from '../../../lib/api-types';
import { buildSrcSet, RESULT_IMAGE_SIZES } from '../result-image';

/**
 * The result picture: WebP renditions in `srcset`, the original's width and height set (and the
 * box's aspect ratio), so nothing shifts while it loads.
 */
export function ResultImage({ result, alt }: { result: TGenerationResult; alt: string }) {
  const srcSet = buildSrcSet(result.variants);
  const fallback = result.variants.at(-1)?.url ?? result.url;
  return (
    <div className="result-image" style={{ aspectRatio: `${result.width} / ${result.height}` }}>
      <img
        src={fallback}
        srcSet={srcSet || undefined}
        sizes={srcSet ? RESULT_IMAGE_SIZES : undefined}
        width={result.width}
        height={result.height}
        alt={alt}
        // The page's main picture: fetched before anything else on it.
        fetchPriority="high"
        decoding="async"
        className="result-image__img"
        data-testid="result-image"
      />
    </div>
  );
}
