import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TGeneration, TGenerationMode } from '../../../lib/api-types';
import { isUntouchedDraft } from '../post-recipe';
import { generationsApi } from '../api/generations.api';
import type { GenerationDraft } from '../generation-draft';
import { draftFromFailed, isRetryOf } from '../retry-inputs';

/**
 * The generate form opened from a failed generation (/generate/<mode>/generation/<uuid>/, "Try
 * again"): its prompt and settings fill an untouched form once, and its source photo (one of my
 * uploads) becomes the photo again.
 */
export function useRetryInputs(options: {
  generation: TGeneration | undefined;
  mode: TGenerationMode;
  draft: GenerationDraft;
  update(patch: Partial<GenerationDraft>): void;
  /** On when the form needs a photo and holds none yet. */
  wantsPhoto: boolean;
}) {
  const { generation, mode, draft, update, wantsPhoto } = options;
  const isRetry = isRetryOf(generation, mode);
  const [prefilledFrom, setPrefilledFrom] = useState<string | null>(null);
  if (isRetry && generation && prefilledFrom !== generation.uuid) {
    setPrefilledFrom(generation.uuid);
    if (isUntouchedDraft(draft)) update(draftFromFailed(generation));
  }

  // The photo is taken once: removing it afterwards (to choose another) does not bring it back.
  const uploadUuid = isRetry ? (generation?.images[0] ?? null) : null;
  const [photoTaken, setPhotoTaken] = useState(false);
  const upload = useQuery({
    queryKey: ['uploads', uploadUuid ?? ''],
    queryFn: () => generationsApi.getUpload(uploadUuid!),
    enabled: uploadUuid !== null && wantsPhoto && !photoTaken,
    retry: false,
  });
  if (upload.data && !photoTaken) {
    setPhotoTaken(true);
    if (wantsPhoto) update({ photo: upload.data });
  }

  return {
    isRetry,
    /** The failed generation's photo is being read. */
    isPreparing: uploadUuid !== null && wantsPhoto && !photoTaken && upload.isFetching,
    /** Its photo is gone (deleted): the form still works with another one. */
    isUnavailable: uploadUuid !== null && upload.isError,
  };
}
