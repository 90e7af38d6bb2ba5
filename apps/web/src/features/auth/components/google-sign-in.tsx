import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { track } from '../../../lib/analytics';
import { authApi } from '../api/auth.api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import '../auth.css';

const GIS_SRC = 'https://accounts.google.com/gsi/client';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
      renderButton(element: HTMLElement, options: Record<string, unknown>): void;
    };
  };
}

let gisLoading: Promise<GoogleIdentity> | null = null;

/** Loads Google Identity Services once, and only when a client id is configured. */
function loadGoogleIdentity(): Promise<GoogleIdentity> {
  const existing = (window as Window & { google?: GoogleIdentity }).google;
  if (existing?.accounts?.id) return Promise.resolve(existing);
  gisLoading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SRC;
    script.async = true;
    script.defer = true;
    script.onload = () => {
      const google = (window as Window & { google?: GoogleIdentity }).google;
      if (google?.accounts?.id) resolve(google);
      else reject(new Error('Google Identity Services did not start'));
    };
    script.onerror = () => {
      gisLoading = null;
      reject(new Error('Google Identity Services could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return gisLoading;
}

/**
 * Google sign-in: obtain the credential, exchange it, store the token, load the user and
 * fire the registration-complete event. Failures are only logged.
 */
export function GoogleSignIn({ clientId }: { clientId: string }) {
  const { i18n } = useTranslation();
  const finish = useFinishSignIn();
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentity()
      .then((google) => {
        if (cancelled || !container.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: (response) => {
            if (!response.credential) return;
            authApi
              .google(response.credential)
              .then(async (result) => {
                await finish({ refresh: result.token, access: result.access, created: result.created });
                track('registration-complete', { method: 'google' });
              })
              .catch((error: unknown) => console.warn('Google sign-in failed', error));
          },
        });
        google.accounts.id.renderButton(container.current, {
          theme: 'filled_black',
          size: 'large',
          shape: 'pill',
          text: 'continue_with',
          width: Math.min(container.current.clientWidth || 320, 400),
          locale: i18n.language,
        });
      })
      .catch((error: unknown) => {
        console.warn(error);
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, finish, i18n.language]);

  if (failed) return null;
  return <div className="google-button" ref={container} data-testid="google-sign-in" />;
}
