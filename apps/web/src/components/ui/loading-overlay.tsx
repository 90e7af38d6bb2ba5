import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../lib/app-store';
import { Spinner } from './spinner';

/** The full-screen loading overlay with its text. */
export function LoadingOverlay({ forced }: { forced?: boolean }) {
  const { t } = useTranslation();
  const on = useAppStore((s) => s.preloader);
  if (!on && !forced) return null;
  return (
    <div className="loading-overlay" role="status" aria-live="assertive">
      <div className="loading-overlay__card">
        <Spinner size={36} />
        <p className="loading-overlay__text">{t('common.loading')}</p>
      </div>
    </div>
  );
}
