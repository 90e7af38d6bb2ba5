import { useTranslation } from 'react-i18next';
import { Sheet } from '../../../components/ui/sheet';
import { useAppStore } from '../../../lib/app-store';
import { SignInPanel } from './sign-in-panel';
import '../auth.css';

/** The sign-in popup: a bottom sheet on phones, a centred dialog on wide screens. */
export default function SignInPopup() {
  const { t } = useTranslation();
  const open = useAppStore((s) => s.authPopup);
  const close = useAppStore((s) => s.closeAuthPopup);
  return (
    <Sheet open={open} onClose={close} label={t('auth.signIn')} className="sheet__panel--auth">
      <SignInPanel />
    </Sheet>
  );
}
