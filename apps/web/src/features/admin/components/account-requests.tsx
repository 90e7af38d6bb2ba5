import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_POST_CHOICES, STAFF_REASON_MAX_LENGTH, type AccountPostChoice } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAppStore } from '../../../lib/app-store';
import { useAction } from '../../../lib/use-action';
import { adminApi } from '../api/admin.api';
import { ReasonActions } from './reason-actions';

/**
 * A person's own requests carried out by staff: their data as a ZIP, and deleting their account.
 * Deleting cannot be undone, so the staff member types the person's e-mail (or uuid when there is
 * none) before the button works, as GitHub and Stripe ask for destructive actions.
 */
export function AccountRequests({
  uuid,
  email,
  onDeleted,
}: {
  uuid: string;
  email: string | null;
  onDeleted(): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ReasonActions
        testId="export-actions"
        onDone={() => useAppStore.getState().showTopinfo('success', t('admin.users.exported'))}
        actions={[
          {
            id: 'export',
            label: t('admin.users.export'),
            theme: 'light',
            confirm: t('admin.users.exportConfirm'),
            run: (reason) => adminApi.exportUser(uuid, reason),
          },
        ]}
      />
      <DeleteAccountForm uuid={uuid} phrase={email ?? uuid} onDeleted={onDeleted} />
    </>
  );
}

function DeleteAccountForm({ uuid, phrase, onDeleted }: { uuid: string; phrase: string; onDeleted(): void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [posts, setPosts] = useState<AccountPostChoice>('anonymise');
  const [typed, setTyped] = useState('');
  const errors = useFormErrors(['reason', 'posts']);
  const matches = typed.trim().toLowerCase() === phrase.toLowerCase();
  const action = useAction({
    run: () => adminApi.deleteUser(uuid, reason.trim(), posts),
    onSuccess: onDeleted,
    onError: errors.showError,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    errors.clear();
    if (!reason.trim()) {
      errors.setAlert(t('admin.reasonRequired'));
      return;
    }
    if (!matches) return;
    action.mutate(undefined);
  }

  return (
    <form className="admin__actions" noValidate data-testid="delete-account" onSubmit={submit}>
      <p className="admin__confirm" role="note">
        {t('admin.users.deleteWarning')}
      </p>
      <TextInput
        title={t('admin.reason')}
        value={reason}
        onValueChange={setReason}
        maxLength={STAFF_REASON_MAX_LENGTH}
        error={errors.fieldErrors.reason}
        data-testid="delete-account-reason"
      />
      <fieldset className="admin__buttons admin__choices">
        <legend className="admin__meta">{t('admin.users.deletePosts')}</legend>
        {ACCOUNT_POST_CHOICES.map((choice) => (
          <label key={choice}>
            <input
              type="radio"
              name={`delete-posts-${uuid}`}
              value={choice}
              checked={posts === choice}
              onChange={() => setPosts(choice)}
              data-testid={`delete-account-posts-${choice}`}
            />{' '}
            {t(`admin.users.postsChoice.${choice}`)}
          </label>
        ))}
      </fieldset>
      <TextInput
        title={t('admin.users.deleteType', { phrase })}
        value={typed}
        onValueChange={setTyped}
        autoComplete="off"
        data-testid="delete-account-phrase"
      />
      {errors.alert && <Alert>{errors.alert}</Alert>}
      <div className="admin__buttons">
        <Button
          type="submit"
          theme="danger"
          size="sm"
          disabled={!matches || action.isPending}
          loading={action.isPending}
          data-testid="delete-account-submit"
        >
          {t('admin.users.deleteAccount')}
        </Button>
      </div>
    </form>
  );
}
