import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { IconLock } from '../../components/ui/icons';
import { useAppStore } from '../../lib/app-store';

/** What a guest sees behind the sign-in popup on a login-required page opened directly. */
export function SignInRequired() {
  const { t } = useTranslation();
  const openAuthPopup = useAppStore((s) => s.openAuthPopup);
  return (
    <div className="page page--center" data-testid="sign-in-required">
      <EmptyState
        tone="brand"
        icon={<IconLock size={30} />}
        title={t('auth.requiredTitle')}
        text={t('auth.requiredText')}
        action={
          <div className="stack stack--row">
            <Button
              theme="primary"
              onClick={() => openAuthPopup(window.location.pathname + window.location.search)}
            >
              {t('auth.signIn')}
            </Button>
            <ButtonLink theme="light" to="/">
              {t('common.toHome')}
            </ButtonLink>
          </div>
        }
      />
    </div>
  );
}
