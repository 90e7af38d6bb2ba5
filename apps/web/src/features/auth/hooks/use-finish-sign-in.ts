import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppStore } from '../../../lib/app-store';
import { startSession } from '../../../lib/session';

/**
 * Every sign-in ends here: store the tokens, load the user, close the popup, and go where the
 * cancelled navigation wanted to go, or home.
 */
export function useFinishSignIn() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return useCallback(
    async (tokens: { refresh: string; access?: string | null }) => {
      const { authTarget, closeAuthPopup, showTopinfo } = useAppStore.getState();
      await startSession(tokens);
      closeAuthPopup();
      showTopinfo('success', t('auth.signedIn'));
      await navigate(authTarget ?? '/', { replace: authTarget === window.location.pathname });
    },
    [navigate, t],
  );
}
