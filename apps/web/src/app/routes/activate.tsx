import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Button, ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { IconAlert, IconCheck } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { Spinner } from '../../components/ui/spinner';
import { takeActivationReturn, useActivation, welcomePath } from '../../features/auth';
import { useAppStore } from '../../lib/app-store';
import { describeError } from '../../lib/error-messages';
import { useSession } from '../../lib/session';

/**
 * The activation email's link: activates the account, signs the person in with the session the
 * server opens, shows the onboarding, and takes them back to where they started signing up. An already active account
 * (the link used before) says so and offers sign-in.
 */
export function Page() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { uid = '', token = '' } = useParams();
  const state = useActivation(uid, token);
  const openAuthPopup = useAppStore((s) => s.openAuthPopup);
  const showTopinfo = useAppStore((s) => s.showTopinfo);
  const isLoggedIn = useSession((s) => s.isLoggedIn);

  const done = state.step === 'done';
  useEffect(() => {
    if (!done) return;
    showTopinfo('success', t('activate.doneTitle'));
    // The account was just born: its onboarding comes once, then where they started signing up.
    void navigate(welcomePath(takeActivationReturn()), { replace: true });
  }, [done, t, navigate, showTopinfo]);

  const signIn = isLoggedIn ? (
    <ButtonLink to="/" theme="primary">
      {t('common.toHome')}
    </ButtonLink>
  ) : (
    <Button theme="primary" onClick={() => openAuthPopup('/')} data-testid="activate-sign-in">
      {t('auth.signIn')}
    </Button>
  );

  return (
    <PageFrame width="narrow" className="page--center" testId="activate-page">
      {(state.step === 'working' || state.step === 'done') && (
        <div className="center-stack">
          <Spinner size={36} label={t('activate.working')} />
          <p className="muted-note">{t('activate.working')}</p>
        </div>
      )}
      {state.step === 'stale' && (
        <EmptyState
          icon={<IconCheck size={30} />}
          title={t('activate.staleTitle')}
          text={t('activate.staleText')}
          action={signIn}
        />
      )}
      {state.step === 'failed' && (
        <EmptyState
          icon={<IconAlert size={30} />}
          title={t('activate.failedTitle')}
          text={describeError(t, state.error).alert ?? t('errors.users.activation_invalid')}
          action={
            <ButtonLink to="/sign-up/" theme="light">
              {t('signUp.title')}
            </ButtonLink>
          }
        />
      )}
    </PageFrame>
  );
}
