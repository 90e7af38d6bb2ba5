import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppStore } from '../../../lib/app-store';
import { welcomePath } from '../../../lib/return-path';
import { startSession } from '../../../lib/session';

/**
 * Every sign-in ends here: store the tokens, load the user, close the popup, and go where the
 * cancelled navigation wanted to go, or home. A sign-in that made the account (`created`, said
 * once by the server) shows the onboarding first, which then goes on there.
 */
export function useFinishSignIn() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return useCallback(
    async (tokens: { refresh: string; access?: string | null; created?: boolean }) => {
      const { authTarget, closeAuthPopup, showTopinfo } = useAppStore.getState();
      await startSession(tokens);
      closeAuthPopup();
      showTopinfo('success', t('auth.signedIn'));
      if (tokens.created) {
        // Where the sign-in started: the page it was meant to open, else the page it was on.
        const here = `${window.location.pathname}${window.location.search}`;
        await navigate(welcomePath(authTarget ?? here), { replace: true });
        return;
      }
      await navigate(authTarget ?? '/', { replace: authTarget === window.location.pathname });
    },
    [navigate, t],
  );
}
