import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../../components/ui/button';
import { IconEye, IconEyeOff, IconSparkles } from '../../../components/ui/icons';
import { useAppStore } from '../../../lib/app-store';
import type { TGeneration } from '../../../lib/api-types';
import { describeError } from '../../../lib/error-messages';
import { postKeys, postsApi } from '../api/posts.api';
import { usePostMutations } from '../hooks/use-post-mutations';
import { PublishSheet } from './publish-sheet';
import '../posts.css';

/**
 * The result screen's publishing: "Publish" while the result has no post (or only a draft), and
 * once it is public, "View post" and "Unpublish". Only my completed picture results get here.
 */
export function PublishAction({ generation }: { generation: Pick<TGeneration, 'uuid' | 'prompt'> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { unpublish } = usePostMutations();
  const posted = useQuery({
    queryKey: postKeys.ofGeneration(generation.uuid),
    queryFn: () => postsApi.ofGeneration(generation.uuid),
  });
  const post = posted.data ?? null;

  if (post && post.status !== 'draft') {
    return (
      <>
        <ButtonLink
          to={`/post/${post.uuid}/`}
          theme="light"
          icon={<IconEye size={18} />}
          data-testid="result-view-post"
        >
          {t('social.publish.viewPost')}
        </ButtonLink>
        {post.status === 'published' && (
          <Button
            theme="light"
            icon={<IconEyeOff size={18} />}
            loading={unpublish.isPending}
            onClick={() => unpublish.mutate(post)}
            data-testid="result-unpublish"
          >
            {t('social.post.unpublish')}
          </Button>
        )}
      </>
    );
  }
  return (
    <>
      <Button
        theme="light"
        icon={<IconSparkles size={18} />}
        loading={posted.isPending || (posted.isError && posted.isFetching)}
        onClick={() => {
          if (!posted.isError) return setOpen(true);
          // Whether it is posted could not be read: ask again, then publish or say why not.
          void posted.refetch().then((again) => {
            if (again.isError) {
              useAppStore
                .getState()
                .showTopinfo('error', describeError(t, again.error).alert ?? t('errors.network'));
            } else if (!again.data || again.data.status === 'draft') setOpen(true);
          });
        }}
        data-testid="result-publish"
      >
        {post ? t('social.publish.publishDraft') : t('result.publish')}
      </Button>
      {/* Mounted while open only: each opening starts from the post's current title. */}
      {open && (
        <PublishSheet open={open} onClose={() => setOpen(false)} generation={generation} draft={post} />
      )}
    </>
  );
}
