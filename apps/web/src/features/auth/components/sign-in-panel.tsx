import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAppStore } from '../../../lib/app-store';
import { signUpPath } from '../activation-return';
import { usePublicConfig } from '../hooks/use-public-config';
import { EmailSignInForm } from './email-sign-in-form';
import { GoogleSignIn } from './google-sign-in';
import { LegalLinks } from './legal-links';
import { TelegramSignIn } from './telegram-sign-in';
import '../auth.css';

/** Everything of the sign-in popup, also shown as the /sign-in/ page. */
export function SignInPanel() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const closeAuthPopup = useAppStore((s) => s.closeAuthPopup);
  // Where the person started: the page a sign-in gate stopped them from opening, else this one.
  const authTarget = useAppStore((s) => s.authTarget);
  // On a page that shows a guest a glimpse (a shared post), the popup says what is behind it.
  const glimpse = useAppStore((s) => s.authGlimpse);
  const location = useLocation();
  const startedAt = authTarget ?? `${location.pathname}${location.search}`;
  const [waiting, setWaiting] = useState(false);
  const googleClientId = config.data?.google_client_id ?? null;
  const hasTelegram = Boolean(config.data?.telegram_bot_username);
  return (
    <div className="sign-in" data-testid="sign-in-panel">
      {!waiting && (
        <div className="sign-in__intro">
          {glimpse?.picture ? (
            <img src={glimpse.picture} alt="" className="sign-in__glimpse" data-testid="sign-in-glimpse" />
          ) : (
            <span className="sign-in__orb" aria-hidden="true" />
          )}
          <h2 className="sign-in__title">{t('auth.welcomeTitle')}</h2>
          <p className="sign-in__subtitle">{glimpse?.text ?? t('auth.welcomeText')}</p>
        </div>
      )}
      {(googleClientId || hasTelegram) && (
        <div className="stack">
          {googleClientId && !waiting && <GoogleSignIn clientId={googleClientId} />}
          {hasTelegram && <TelegramSignIn onWaitingChange={setWaiting} />}
        </div>
      )}
      {!waiting && (
        <>
          {(googleClientId || hasTelegram) && (
            <div className="divider">
              <span>{t('auth.orEmail')}</span>
            </div>
          )}
          <EmailSignInForm />
          <p className="sign-in__switch">
            {t('auth.noAccount')}{' '}
            <Link
              to={signUpPath(startedAt)}
              className="link link--strong"
              onClick={() => closeAuthPopup()}
              data-testid="sign-up-link"
            >
              {t('auth.createAccount')}
            </Link>
          </p>
          <LegalLinks />
        </>
      )}
    </div>
  );
}
