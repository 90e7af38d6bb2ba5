import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { IconShare } from '../../../components/ui/icons';
import { useAppStore } from '../../../lib/app-store';
import { describeError } from '../../../lib/error-messages';
import { useShareLink } from '../../../lib/use-share-link';
import { postKeys, sharesApi } from '../api/posts.api';
import '../sharing.css';

/**
 * The result screen's Share: a lasting link, never the file's signed address (it expires within a
 * day): the post's page once the result is published, else the result's own share page, the same
 * one on every tap until I stop sharing it (see ResultShareNote).
 */
export function ResultShareButton({ generationUuid, text }: { generationUuid: string; text: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const share = useShareLink();
  const create = useMutation({
    mutationFn: () => sharesApi.create(generationUuid),
    onSuccess: (link) => {
      queryClient.setQueryData(postKeys.shareOf(generationUuid), link);
      void share(link.url, text);
    },
    onError: (error) =>
      useAppStore.getState().showTopinfo('error', describeError(t, error).alert ?? t('errors.network')),
  });
  return (
    <Button
      theme="light"
      size="lg"
      block
      icon={<IconShare size={20} />}
      loading={create.isPending}
      onClick={() => create.mutate()}
      data-testid="result-share"
    >
      {t('result.share')}
    </Button>
  );
}

/** Under a result shared by its share page: who can see it, and stopping it (the link then says so). */
export function ResultShareNote({ generationUuid }: { generationUuid: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: postKeys.shareOf(generationUuid),
    queryFn: () => sharesApi.of(generationUuid),
  });
  const revoke = useMutation({
    mutationFn: () => sharesApi.revoke(generationUuid),
    onSuccess: (state) => {
      queryClient.setQueryData(postKeys.shareOf(generationUuid), state);
      useAppStore.getState().showTopinfo('success', t('social.sharing.stopped'));
    },
    onError: (error) =>
      useAppStore.getState().showTopinfo('error', describeError(t, error).alert ?? t('errors.network')),
  });
  if (current.data?.kind !== 'share') return null;
  return (
    <p className="result-share-note" data-testid="result-share-note">
      <span>{t('social.sharing.byLink')}</span>{' '}
      <button
        type="button"
        className="result-share-note__stop"
        disabled={revoke.isPending}
        onClick={() => revoke.mutate()}
        data-testid="result-share-stop"
      >
        {t('social.sharing.stop')}
      </button>
    </p>
  );
}
