import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconMail } from '../../../components/ui/icons';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAppStore } from '../../../lib/app-store';
import { currentLanguage } from '../../../lib/i18n';
import { rememberActivationReturn } from '../activation-return';
import { authApi, normaliseEmail } from '../api/auth.api';
import { LegalLinks } from './legal-links';
import '../auth.css';

const FIELDS = ['email', 'password', 'firstName', 'lastName'] as const;

export function SignUpForm() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { alert, fieldErrors, showError, clear, clearField } = useFormErrors(FIELDS);
  const { setPreloader, showTopinfo } = useAppStore();

  const set = (field: keyof typeof form) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    clearField(field);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    setBusy(true);
    setPreloader(true);
    try {
      await authApi.register({
        ...form,
        referral_code: params.get('ref'),
        language: currentLanguage(),
      });
      rememberActivationReturn(params.get('next'));
      setSentTo(normaliseEmail(form.email));
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
      setPreloader(false);
    }
  }

  async function resend() {
    if (!sentTo) return;
    try {
      await authApi.resendActivation(sentTo);
      showTopinfo('success', t('signUp.resent'));
    } catch (error) {
      showError(error);
    }
  }

  if (sentTo) {
    return (
      <div className="result-card" data-testid="sign-up-done">
        <span className="result-card__icon">
          <IconMail size={30} />
        </span>
        <h2 className="result-card__title">{t('signUp.checkTitle')}</h2>
        <p className="result-card__text">{t('signUp.checkText', { email: sentTo })}</p>
        {alert && <Alert>{alert}</Alert>}
        <Button theme="light" block onClick={() => void resend()}>
          {t('signUp.resend')}
        </Button>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={submit} noValidate data-testid="sign-up-form">
      <div className="sign-in__intro">
        <span className="sign-in__orb" aria-hidden="true" />
        <h2 className="sign-in__title">{t('signUp.title')}</h2>
        <p className="sign-in__subtitle">{t('signUp.subtitle')}</p>
      </div>
      {alert && <Alert>{alert}</Alert>}
      <div className="form__grid">
        <TextInput
          title={t('profile.firstName')}
          name="firstName"
          autoComplete="given-name"
          value={form.firstName}
          onValueChange={set('firstName')}
          error={fieldErrors.firstName}
          maxLength={150}
        />
        <TextInput
          title={t('profile.lastName')}
          name="lastName"
          autoComplete="family-name"
          value={form.lastName}
          onValueChange={set('lastName')}
          error={fieldErrors.lastName}
          maxLength={150}
        />
      </div>
      <TextInput
        title={t('auth.email')}
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        value={form.email}
        onValueChange={set('email')}
        error={fieldErrors.email}
        maxLength={254}
        required
      />
      <TextInput
        title={t('auth.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        value={form.password}
        onValueChange={set('password')}
        error={fieldErrors.password}
        maxLength={128}
        hint={t('signUp.passwordHint')}
        required
      />
      <Button type="submit" theme="primary" size="lg" block loading={busy}>
        {t('signUp.submit')}
      </Button>
      <p className="sign-in__switch">
        {t('signUp.haveAccount')}{' '}
        <Link to="/sign-in/" className="link link--strong">
          {t('auth.signIn')}
        </Link>
      </p>
      <LegalLinks />
    </form>
  );
}
