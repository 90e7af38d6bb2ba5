import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { STALE } from '../../../lib/query-client';
import type { TGenerationMode, TUpload } from '../../../lib/api-types';
import type { GenerationDraft } from '../generation-draft';
import { postKeys, postsApi } from '../../posts';
import { draftFromRecipe, isUntouchedDraft } from '../post-recipe';

/**
 * The generate form opened from a post (/generate/<mode>/post/<uuid>/): its prompt and settings
 * fill an untouched form once, and when the mode works on a photo, the post's picture becomes the
 * photo — copied into my uploads by the server (use_image), since the author's source is private.
 */
export function usePostRecipe(options: {
  postUuid: string | undefined;
  mode: TGenerationMode;
  draft: GenerationDraft;
  update(patch: Partial<GenerationDraft>): void;
  /** On when the form needs a photo and holds none yet. */
  wantsPhoto: boolean;
}) {
  const { postUuid, mode, draft, update, wantsPhoto } = options;
  const post = useQuery({
    queryKey: postKeys.one(postUuid ?? ''),
    queryFn: () => postsApi.get(postUuid!),
    enabled: Boolean(postUuid),
  });
  const [prefilledFrom, setPrefilledFrom] = useState<string | null>(null);
  if (post.data && prefilledFrom !== post.data.uuid) {
    setPrefilledFrom(post.data.uuid);
    if (isUntouchedDraft(draft)) update(draftFromRecipe(mode, post.data.recipe));
  }

  // The picture is taken once: removing it afterwards (to choose my own) does not bring it back.
  const [imageTaken, setImageTaken] = useState(false);
  const image = useQuery({
    queryKey: ['posts', 'use-image', postUuid ?? ''],
    queryFn: () => postsApi.useImage(postUuid!),
    enabled: Boolean(postUuid) && wantsPhoto && !imageTaken && post.isSuccess,
    staleTime: STALE.infinity,
    retry: false,
  });
  const upload: TUpload | undefined = image.data;
  if (upload && !imageTaken) {
    setImageTaken(true);
    if (wantsPhoto) update({ photo: upload });
  }

  return {
    post: post.data,
    /** The post's picture is being copied into my uploads. */
    isPreparing: wantsPhoto && !imageTaken && (post.isLoading || image.isFetching),
    /** The post is gone (unpublished, removed): the form still works from scratch. */
    isUnavailable: post.isError,
  };
}
