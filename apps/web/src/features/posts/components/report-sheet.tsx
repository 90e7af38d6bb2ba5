import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { POST_REPORT_COMMENT_MAX_LENGTH, REPORT_REASONS } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconCheck } from '../../../components/ui/icons';
import { Sheet } from '../../../components/ui/sheet';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import type { TReportReason } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { useAction } from '../../../lib/use-action';
import { postsApi } from '../api/posts.api';

/** Reporting a post: why (one of the reasons), an optional comment, then a thank-you. */
export function ReportSheet({ postUuid, onClose }: { postUuid: string; onClose(): void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<TReportReason | null>(null);
  const [comment, setComment] = useState('');
  const errors = useFormErrors(['comment']);
  const report = useAction({
    run: (chosen: TReportReason) =>
      postsApi.report(postUuid, { reason: chosen, comment: comment.trim() || undefined }),
    onSuccess: () => {
      useAppStore.getState().showTopinfo('success', t('social.report.thanks'));
      onClose();
    },
    onError: errors.showError,
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    errors.clear();
    if (!reason) {
      errors.setAlert(t('social.report.chooseReason'));
      return;
    }
    report.mutate(reason);
  }

  return (
    <Sheet open onClose={onClose} title={t('social.report.title')}>
      <form className="stack" onSubmit={onSubmit} noValidate data-testid="report-sheet">
        <p className="muted-note">{t('social.report.text')}</p>
        <div className="list" role="radiogroup" aria-label={t('social.report.title')}>
          {REPORT_REASONS.map((name) => (
            <button
              key={name}
              type="button"
              role="radio"
              aria-checked={reason === name}
              className={`list__row${reason === name ? ' is-active' : ''}`}
              onClick={() => {
                setReason(name);
                errors.setAlert(null);
              }}
              data-testid={`report-reason-${name}`}
            >
              <span className="list__label">{t(`social.report.reasons.${name}`)}</span>
              {reason === name && <IconCheck size={18} className="list__check" />}
            </button>
          ))}
        </div>
        <TextInput
          title={t('social.report.comment')}
          value={comment}
          onValueChange={setComment}
          maxLength={POST_REPORT_COMMENT_MAX_LENGTH}
          error={errors.fieldErrors.comment}
        />
        {errors.alert && <Alert>{errors.alert}</Alert>}
        <Button type="submit" theme="danger" block loading={report.isPending} data-testid="report-submit">
          {t('social.report.submit')}
        </Button>
      </form>
    </Sheet>
  );
}
