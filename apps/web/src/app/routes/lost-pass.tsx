import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { IconMail } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { TextInput } from '../../components/ui/text-input';
import { useFormErrors } from '../../components/ui/use-form-errors';
import { normaliseEmail, useRequestPasswordReset } from '../../features/auth';

export function Page() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const requestReset = useRequestPasswordReset();
  const { alert, fieldErrors, showError, clear } = useFormErrors(['email']);

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    setBusy(true);
    try {
      await requestReset(email);
      setSentTo(normaliseEmail(email));
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageFrame width="narrow" testId="lost-pass-page">
      <div className="auth-card">
        {sentTo ? (
          <div className="result-card">
            <span className="result-card__icon">
              <IconMail size={30} />
            </span>
            <h2 className="result-card__title">{t('lostPass.sentTitle')}</h2>
            <p className="result-card__text">{t('lostPass.sentText', { email: sentTo })}</p>
            <Link to="/sign-in/" className="btn btn--light btn--md btn--block">
              <span className="btn__label">{t('lostPass.back')}</span>
            </Link>
          </div>
        ) : (
          <form className="form" onSubmit={submit} noValidate>
            <h2 className="form__title">{t('lostPass.title')}</h2>
            <p className="form__text">{t('lostPass.text')}</p>
            {alert && <Alert>{alert}</Alert>}
            <TextInput
              title={t('auth.email')}
              type="email"
              autoComplete="email"
              value={email}
              onValueChange={setEmail}
              error={fieldErrors.email}
              maxLength={254}
              required
            />
            <Button type="submit" theme="primary" size="lg" block loading={busy}>
              {t('lostPass.submit')}
            </Button>
            <p className="sign-in__switch">
              <Link to="/sign-in/" className="link">
                {t('lostPass.back')}
              </Link>
            </p>
          </form>
        )}
      </div>
    </PageFrame>
  );
}
