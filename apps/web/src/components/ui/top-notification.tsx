import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../lib/app-store';
import { IconAlert, IconCheck, IconInfo } from './icons';

/** The banner at the top: a success icon and optional text, cleared after 2000 ms. */
export function TopNotification() {
  const { t } = useTranslation();
  const topinfo = useAppStore((s) => s.topinfo);
  if (!topinfo) return null;
  const Icon = topinfo.type === 'success' ? IconCheck : topinfo.type === 'error' ? IconAlert : IconInfo;
  return (
    <div className="topinfo-wrap" aria-live="polite">
      <div
        key={topinfo.id}
        className={`topinfo topinfo--${topinfo.type}`}
        role={topinfo.type === 'error' ? 'alert' : 'status'}
      >
        <span className="topinfo__icon">
          <Icon size={18} />
        </span>
        <span className="topinfo__text">
          {topinfo.text || (topinfo.type === 'success' ? t('common.done') : '')}
        </span>
      </div>
    </div>
  );
}
