import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { GenerationStatus } from '@mirra/contracts';
import { generationKeys, generationsApi } from '../api/generations.api';
import { sourceImageOf } from '../../../lib/image-variants';

/**
 * Starting from one of my results (/generate/<mode>/generation/<uuid>/): the result becomes the
 * source photo. The server takes photos as uploads, so the picture is fetched (same origin, signed
 * URL) and uploaded like a chosen file — the same checks, no special server path.
 */
export function useSourceFromGeneration(options: {
  uuid: string | undefined;
  /** Off when the page already holds a photo (e.g. restored from the draft, or chosen). */
  enabled: boolean;
  uploadBlob(blob: Blob, name: string): Promise<void>;
}) {
  const { uuid, enabled, uploadBlob } = options;
  const source = useQuery({
    queryKey: generationKeys.one(uuid ?? ''),
    queryFn: () => generationsApi.get(uuid!),
    enabled: Boolean(uuid),
  });
  const generation = source.data;
  const result = generation?.status === GenerationStatus.COMPLETED ? generation.result : null;
  const picture = result && result.content_type.startsWith('image/') ? sourceImageOf(result) : null;
  const resultUrl = picture?.url ?? null;
  const extension = picture?.extension ?? null;
  // The result is used once: removing the photo afterwards does not bring it back.
  const [settled, setSettled] = useState<{ url: string; ok: boolean } | null>(null);
  const isDone = resultUrl !== null && settled?.url === resultUrl;

  useEffect(() => {
    if (!enabled || !resultUrl || isDone || !generation || !extension) return;
    let cancelled = false;
    const name = `mirra-${generation.uuid.slice(0, 8)}.${extension}`;
    fetch(resultUrl, { credentials: 'include' })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.blob();
      })
      .then((blob) => {
        if (cancelled) return;
        setSettled({ url: resultUrl, ok: true });
        return uploadBlob(blob, name);
      })
      .catch(() => {
        if (!cancelled) setSettled({ url: resultUrl, ok: false });
      });
    return () => {
      cancelled = true;
    };
  }, [enabled, resultUrl, extension, isDone, generation, uploadBlob]);

  return {
    generation,
    /** Downloading the result before its upload starts. */
    isFetching: Boolean(uuid) && enabled && (source.isLoading || (resultUrl !== null && !isDone)),
    /** The source could not be used: the page works without it (choose a photo instead). */
    isUnavailable:
      Boolean(uuid) &&
      (source.isError ||
        (isDone && settled?.ok === false) ||
        (generation !== undefined && resultUrl === null)),
  };
}
