import type { TGenerationResult } from '../../../lib/api-types';
import { buildSrcSet, isVideoResult, RESULT_IMAGE_SIZES } from '../../../lib/image-variants';
import '../generations.css';

/**
 * The result picture: WebP renditions in `srcset`, the original's width and height set (and the
 * box's aspect ratio), so nothing shifts while it loads.
 */
export function ResultImage({ result, alt }: { result: TGenerationResult; alt: string }) {
  if (isVideoResult(result)) return <ResultVideo result={result} alt={alt} />;
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

/**
 * A video result plays by itself, muted and looping, inline (iPhones would go full screen
 * otherwise), with controls; its poster (the first frame) shows until it starts, in a box of the
 * video's size so nothing shifts.
 */
function ResultVideo({ result, alt }: { result: TGenerationResult; alt: string }) {
  const poster = result.variants.at(-1)?.url;
  return (
    <div className="result-image" style={{ aspectRatio: `${result.width} / ${result.height}` }}>
      <video
        src={result.url}
        poster={poster}
        width={result.width}
        height={result.height}
        playsInline
        muted
        autoPlay
        loop
        controls
        preload="auto"
        aria-label={alt}
        className="result-image__img"
        data-testid="result-video"
      />
    </div>
  );
}
