import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TProfile } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { describeError } from '../../../lib/error-messages';
import { useAction } from '../../../lib/use-action';
import { postKeys } from '../../posts';
import { socialApi, socialKeys } from '../api/social.api';
import { withSubscription, withSubscriptionState } from '../subscription';

export function useProfile(uuid: string | null | undefined) {
  return useQuery({
    queryKey: socialKeys.profile(uuid ?? ''),
    queryFn: () => socialApi.profile(uuid!),
    enabled: Boolean(uuid),
  });
}

/**
 * Subscribe or unsubscribe: the button and the count change at once; the server's answer then
 * sets both (its count is the truth), a failure puts them back, and the subscribed feed is read
 * again. One change at a time, so the answers cannot arrive out of order.
 */
export function useSubscription(uuid: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = socialKeys.profile(uuid);
  return useAction({
    run: (subscribe: boolean) => (subscribe ? socialApi.subscribe(uuid) : socialApi.unsubscribe(uuid)),
    onStart: (subscribe) => {
      // A profile read in flight must not put the old state back over the change.
      void queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<TProfile>(key);
      if (before) queryClient.setQueryData(key, withSubscription(before, subscribe));
      return { before };
    },
    onSuccess: (state) => {
      queryClient.setQueryData<TProfile>(key, (profile) => profile && withSubscriptionState(profile, state));
      void queryClient.invalidateQueries({ queryKey: postKeys.list('subscribed', '') });
    },
    onError: (error, _subscribe, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      useAppStore.getState().showTopinfo('error', describeError(t, error).alert ?? t('errors.network'));
    },
  });
}
