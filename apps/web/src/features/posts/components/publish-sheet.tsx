import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { POST_TITLE_MAX_LENGTH } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Sheet } from '../../../components/ui/sheet';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { ApiError } from '../../../lib/api-error';
import type { TPost } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { useAction } from '../../../lib/use-action';
import { postKeys, postsApi } from '../api/posts.api';
import '../posts.css';

const FIELDS = ['title'] as const;

/** The existing post named by a 409 `posts.already_exists` (a second tab or a double submit). */
export function existingPostUuid(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'posts.already_exists') return null;
  const uuid = (error.body as { post_uuid?: unknown } | null)?.post_uuid;
  return typeof uuid === 'string' && uuid ? uuid : null;
}

/**
 * Publishing a result: a title, the prompt that will be shown with the post, then publish or keep
 * it as a draft (saved on my profile, not public). A draft already made is published with PATCH.
 * If the result already has a post, it is opened instead.
 */
export function PublishSheet({
  open,
  onClose,
  generation,
  draft,
}: {
  open: boolean;
  onClose(): void;
  generation: { uuid: string; prompt: string };
  /** The result's draft post, when it has one. */
  draft: TPost | null;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errors = useFormErrors(FIELDS);
  const [title, setTitle] = useState(draft?.title ?? '');
  const submit = useAction({
    run: (asDraft: boolean) =>
      draft
        ? postsApi.update(draft.uuid, { title: title.trim(), draft: false })
        : postsApi.create({ generation_uuid: generation.uuid, title: title.trim(), draft: asDraft }),
    onSuccess: (post) => {
      queryClient.setQueryData(postKeys.ofGeneration(generation.uuid), post);
      queryClient.setQueryData(postKeys.one(post.uuid), post);
      void queryClient.invalidateQueries({ queryKey: postKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: ['profiles'] });
      useAppStore
        .getState()
        .showTopinfo(
          'success',
          post.status === 'draft' ? t('social.publish.drafted') : t('social.publish.published'),
        );
      onClose();
      if (post.status === 'published') void navigate(`/post/${post.uuid}/`);
    },
    onError: (error) => {
      const existing = existingPostUuid(error);
      if (existing) {
        void queryClient.invalidateQueries({ queryKey: postKeys.ofGeneration(generation.uuid) });
        onClose();
        void navigate(`/post/${existing}/`);
        return;
      }
      errors.showError(error);
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    errors.clear();
    submit.mutate(false);
  }

  const busy = submit.isPending;
  return (
    <Sheet open={open} onClose={onClose} title={t('social.publish.title')}>
      <form className="stack publish-form" onSubmit={onSubmit} noValidate data-testid="publish-sheet">
        <TextInput
          title={t('social.publish.titleLabel')}
          value={title}
          onValueChange={(value) => {
            setTitle(value);
            errors.clearField('title');
          }}
          placeholder={t('social.publish.titlePlaceholder')}
          maxLength={POST_TITLE_MAX_LENGTH}
          error={errors.fieldErrors.title}
          data-testid="publish-title"
        />
        {generation.prompt && (
          <section className="publish-form__prompt">
            <h3 className="publish-form__label">{t('social.publish.promptLabel')}</h3>
            <p className="publish-form__text" data-testid="publish-prompt">
              {generation.prompt}
            </p>
          </section>
        )}
        <p className="muted-note">{t('social.publish.note')}</p>
        {errors.alert && <Alert>{errors.alert}</Alert>}
        <Button
          type="submit"
          theme="primary"
          size="lg"
          block
          loading={busy && submit.variables === false}
          disabled={busy}
          data-testid="publish-submit"
        >
          {t('social.publish.publish')}
        </Button>
        {!draft && (
          <Button
            theme="light"
            block
            loading={busy && submit.variables === true}
            disabled={busy}
            onClick={() => {
              errors.clear();
              submit.mutate(true);
            }}
            data-testid="publish-draft"
          >
            {t('social.publish.saveDraft')}
          </Button>
        )}
      </form>
    </Sheet>
  );
}
