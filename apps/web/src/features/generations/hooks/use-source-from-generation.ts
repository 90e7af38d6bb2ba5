import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { GenerationStatus } from '@mirra/contracts';
import type { TUpload } from '../../../lib/api-types';
import { STALE } from '../../../lib/query-client';
import { generationKeys, generationsApi } from '../api/generations.api';

/**
 * Starting from one of my results (/generate/<mode>/generation/<uuid>/): the result becomes the
 * source photo. The server copies it into my uploads (use_result), so the browser never downloads
 * the file from the store — with S3 that would be a cross-origin request needing bucket CORS.
 */
export function useSourceFromGeneration(options: {
  uuid: string | undefined;
  /** Off when the page already holds a photo (e.g. restored from the draft, or chosen). */
  enabled: boolean;
  onUploaded(upload: TUpload): void;
}) {
  const { uuid, enabled } = options;
  const source = useQuery({
    queryKey: generationKeys.one(uuid ?? ''),
    queryFn: () => generationsApi.get(uuid!),
    enabled: Boolean(uuid),
  });
  const generation = source.data;
  const result = generation?.status === GenerationStatus.COMPLETED ? generation.result : null;
  const hasPicture = result !== null && result.content_type.startsWith('image/');
  // The result is used once: removing the photo afterwards does not bring it back.
  const [taken, setTaken] = useState<string | null>(null);
  const isTaken = uuid !== undefined && taken === uuid;
  const copy = useQuery({
    queryKey: ['generations', 'use-result', uuid ?? ''],
    queryFn: () => generationsApi.useResult(uuid!),
    enabled: enabled && hasPicture && !isTaken,
    staleTime: STALE.infinity,
    retry: false,
  });
  const upload = copy.data;
  if (upload && uuid && !isTaken) {
    setTaken(uuid);
    if (enabled) options.onUploaded(upload);
  }

  return {
    generation,
    /** The result is being copied into my uploads. */
    isFetching: Boolean(uuid) && enabled && !isTaken && (source.isLoading || (hasPicture && !copy.isError)),
    /** The source could not be used: the page works without it (choose a photo instead). */
    isUnavailable:
      Boolean(uuid) && (source.isError || copy.isError || (generation !== undefined && !hasPicture)),
  };
}
