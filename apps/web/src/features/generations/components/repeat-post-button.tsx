import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { IconRepeat } from '../../../components/ui/icons';
import type { TPost } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { formatCountdown } from '../../../lib/countdown';
import { describeError } from '../../../lib/error-messages';
import { ChargeDialogs, useChargedAction } from '../../credits';
import { postsApi } from '../../posts';
import { generationKeys, generationsApi } from '../api/generations.api';
import { repeatBody } from '../post-recipe';
import '../generations.css';

/** Repeat on a post: its recipe as a new generation of mine, then that generation's page. */
export function RepeatPostButton({ post }: { post: TPost }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const repeat = useChargedAction({
    action: async (key) => {
      // A recipe that works on a photo repeats on the post's own picture.
      const image = post.recipe.needs_image ? await postsApi.useImage(post.uuid) : null;
      return generationsApi.create(repeatBody(post, image?.uuid ?? null), key);
    },
    onSuccess: (generation) => {
      queryClient.setQueryData(generationKeys.one(generation.uuid), generation);
      void navigate(`/generation/${generation.uuid}/`);
    },
    onError: (error) =>
      useAppStore.getState().showTopinfo('error', describeError(t, error).alert ?? t('errors.network')),
  });

  return (
    <>
      {repeat.waitLeft !== null ? (
        <Button theme="primary" size="lg" block loading onClick={repeat.cancelWait}>
          {t('generate.autoSubmitIn', { time: formatCountdown(repeat.waitLeft) })}
        </Button>
      ) : (
        <Button
          theme="primary"
          size="lg"
          block
          icon={<IconRepeat size={20} />}
          loading={repeat.pending}
          onClick={() => void repeat.run()}
          data-testid="post-repeat"
        >
          {t('social.post.repeat')}
        </Button>
      )}
      <ChargeDialogs refusal={repeat.refusal} onClose={repeat.closeRefusal} onSkip={repeat.skipWait} />
    </>
  );
}
