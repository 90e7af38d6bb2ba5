import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAppStore } from '../../../lib/app-store';
import { authApi } from '../api/auth.api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';

const FIELDS = ['email', 'password'] as const;

export function EmailSignInForm() {
  const { t } = useTranslation();
  const finish = useFinishSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { alert, fieldErrors, showError, clear, clearField } = useFormErrors(FIELDS);
  const closeAuthPopup = useAppStore((s) => s.closeAuthPopup);

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    setBusy(true);
    try {
      const pair = await authApi.login(email, password);
      await finish(pair);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate data-testid="email-sign-in">
      {alert && <Alert>{alert}</Alert>}
      <TextInput
        title={t('auth.email')}
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        value={email}
        onValueChange={(v) => {
          setEmail(v);
          clearField('email');
        }}
        error={fieldErrors.email}
        maxLength={254}
        required
      />
      <TextInput
        title={t('auth.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onValueChange={(v) => {
          setPassword(v);
          clearField('password');
        }}
        error={fieldErrors.password}
        maxLength={128}
        required
      />
      <div className="form__row form__row--end">
        <Link to="/lost-pass/" className="link" onClick={() => closeAuthPopup()}>
          {t('auth.forgotPassword')}
        </Link>
      </div>
      <Button type="submit" theme="primary" size="lg" block loading={busy}>
        {t('auth.signIn')}
      </Button>
    </form>
  );
}
