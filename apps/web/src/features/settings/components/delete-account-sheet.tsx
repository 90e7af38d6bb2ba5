import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AccountPostChoice } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import { Sheet } from '../../../components/ui/sheet';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAppStore } from '../../../lib/app-store';
import { signOut } from '../../../lib/session';
import { profileApi } from '../../profile';

/**
 * Deleting one's account: what goes and what stays said plainly, the choice for published posts,
 * and the password when the account has one. Nothing is sent until the last button.
 */
export function DeleteAccountSheet({
  open,
  onClose,
  hasPassword,
}: {
  open: boolean;
  onClose(): void;
  hasPassword: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [posts, setPosts] = useState<AccountPostChoice>('anonymise');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { alert, fieldErrors, showError, clear } = useFormErrors(['current_password', 'posts']);

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    setBusy(true);
    try {
      await profileApi.deleteAccount({ posts, ...(hasPassword ? { current_password: password } : {}) });
      // Leave the login-required page first, so signing out does not open the sign-in popup.
      await navigate('/');
      await signOut();
      useAppStore.getState().showTopinfo('success', t('deleteAccount.done'));
    } catch (error) {
      showError(error);
      setBusy(false);
    }
  }

  return (
    <Sheet open={open} onClose={onClose} title={t('deleteAccount.title')}>
      <form className="form" onSubmit={submit} noValidate data-testid="delete-account-form">
        <p className="form__text">{t('deleteAccount.goes')}</p>
        <p className="form__text">{t('deleteAccount.stays')}</p>
        {alert && <Alert>{alert}</Alert>}
        <SegmentedChoice<AccountPostChoice>
          title={t('deleteAccount.postsTitle')}
          value={posts}
          onChange={setPosts}
          options={[
            { value: 'anonymise', label: t('deleteAccount.postsKeep'), testId: 'delete-posts-anonymise' },
            { value: 'delete', label: t('deleteAccount.postsDelete'), testId: 'delete-posts-delete' },
          ]}
        />
        <p className="form__text muted-note">
          {posts === 'anonymise' ? t('deleteAccount.postsKeepHint') : t('deleteAccount.postsDeleteHint')}
        </p>
        {hasPassword && (
          <TextInput
            title={t('security.current')}
            type="password"
            autoComplete="current-password"
            value={password}
            onValueChange={setPassword}
            error={fieldErrors.current_password}
            maxLength={128}
            data-testid="delete-account-password"
          />
        )}
        <Button
          type="submit"
          theme="danger"
          block
          loading={busy}
          disabled={hasPassword && !password}
          data-testid="delete-account-submit"
        >
          {t('deleteAccount.submit')}
        </Button>
      </form>
    </Sheet>
  );
}
