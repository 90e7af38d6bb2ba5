import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { IconCheck } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { TextInput } from '../../components/ui/text-input';
import { useFormErrors } from '../../components/ui/use-form-errors';
import { useConfirmPasswordReset } from '../../features/auth';
import { useAppStore } from '../../lib/app-store';
import { useSession } from '../../lib/session';

export function Page() {
  const { t } = useTranslation();
  const { uid = '', token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmReset = useConfirmPasswordReset();
  const { alert, fieldErrors, showError, clear } = useFormErrors(['new_password']);
  const openAuthPopup = useAppStore((s) => s.openAuthPopup);
  const isLoggedIn = useSession((s) => s.isLoggedIn);

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    if (password !== repeat) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    try {
      await confirmReset({ uid, token, password });
      setDone(true);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageFrame width="narrow" testId="reset-pass-page">
      <div className="auth-card">
        {done ? (
          <div className="result-card">
            <span className="result-card__icon result-card__icon--success">
              <IconCheck size={30} />
            </span>
            <h2 className="result-card__title">{t('resetPass.doneTitle')}</h2>
            <p className="result-card__text">{t('resetPass.doneText')}</p>
            {!isLoggedIn && (
              <Button theme="primary" block onClick={() => openAuthPopup('/')}>
                {t('auth.signIn')}
              </Button>
            )}
          </div>
        ) : (
          <form className="form" onSubmit={submit} noValidate>
            <h2 className="form__title">{t('resetPass.title')}</h2>
            <p className="form__text">{t('resetPass.text')}</p>
            {alert && <Alert>{alert}</Alert>}
            <TextInput
              title={t('resetPass.newPassword')}
              type="password"
              autoComplete="new-password"
              value={password}
              onValueChange={setPassword}
              error={fieldErrors.new_password}
              maxLength={128}
              required
            />
            <TextInput
              title={t('resetPass.repeat')}
              type="password"
              autoComplete="new-password"
              value={repeat}
              onValueChange={(v) => {
                setRepeat(v);
                setMismatch(false);
              }}
              error={mismatch ? t('resetPass.mismatch') : null}
              maxLength={128}
              required
            />
            <Button type="submit" theme="primary" size="lg" block loading={busy}>
              {t('resetPass.submit')}
            </Button>
          </form>
        )}
      </div>
    </PageFrame>
  );
}
