import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TPost } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { describeError } from '../../../lib/error-messages';
import { useAction } from '../../../lib/use-action';
import { postKeys, postsApi } from '../api/posts.api';
import { dropCachedPost, patchCachedPost, withSaved } from '../post-pages';

/** The same change to one post in every cached post and list. */
export function patchPostEverywhere(
  queryClient: QueryClient,
  uuid: string,
  patch: Partial<TPost> | ((post: TPost) => Partial<TPost>),
) {
  queryClient.setQueriesData({ queryKey: postKeys.all }, (data: unknown) =>
    patchCachedPost(data, uuid, patch),
  );
}

/**
 * A post changed status (published, unpublished): it leaves the lists it no longer belongs to at
 * once, and every list, profile count and result screen is read again.
 */
function afterStatusChange(queryClient: QueryClient, post: TPost) {
  queryClient.setQueryData(postKeys.one(post.uuid), post);
  queryClient.setQueriesData({ queryKey: postKeys.lists() }, (data: unknown) =>
    dropCachedPost(data, post.uuid),
  );
  if (post.generation_uuid) queryClient.setQueryData(postKeys.ofGeneration(post.generation_uuid), post);
  void queryClient.invalidateQueries({ queryKey: postKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: ['profiles'] });
}

/**
 * What can be done to a post from any screen: save or unsave (shown at once, undone if the server
 * refuses), unpublish (back to drafts) and publish a draft. Failures show a top notification.
 */
export function usePostMutations() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const showError = (error: unknown) =>
    useAppStore.getState().showTopinfo('error', describeError(t, error).alert ?? t('errors.network'));

  const save = useAction({
    // A save and an unsave in flight together could end in either order.
    oneAtATime: true,
    run: ({ post, isSaved }: { post: TPost; isSaved: boolean }) =>
      isSaved ? postsApi.save(post.uuid) : postsApi.unsave(post.uuid),
    onStart: ({ post, isSaved }) => {
      patchPostEverywhere(queryClient, post.uuid, (current) => withSaved(current, isSaved));
    },
    onSuccess: (state, { post }) => {
      patchPostEverywhere(queryClient, post.uuid, state);
      void queryClient.invalidateQueries({ queryKey: postKeys.list('saved', '') });
    },
    onError: (error, { post, isSaved }) => {
      patchPostEverywhere(queryClient, post.uuid, (current) => withSaved(current, !isSaved));
      showError(error);
    },
  });

  const unpublish = useAction({
    run: (post: TPost) => postsApi.unpublish(post.uuid),
    onSuccess: (post) => {
      afterStatusChange(queryClient, post);
      useAppStore.getState().showTopinfo('success', t('social.post.unpublished'));
    },
    onError: showError,
  });

  const publish = useAction({
    run: (post: TPost) => postsApi.update(post.uuid, { draft: false }),
    onSuccess: (post) => {
      afterStatusChange(queryClient, post);
      useAppStore.getState().showTopinfo('success', t('social.publish.published'));
    },
    onError: showError,
  });

  return { save, unpublish, publish };
}
