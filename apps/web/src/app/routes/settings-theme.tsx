import { useTranslation } from 'react-i18next';
import { IconCheck, IconMonitor, IconMoon, IconSun } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { useAppStore } from '../../lib/app-store';
import { isInTelegram } from '../../lib/telegram/detect';
import { THEME_SETTINGS } from '../../theme/theme';
import './settings-theme.css';

const ICONS = { system: IconMonitor, light: IconSun, dark: IconMoon } as const;

export function Page() {
  const { t } = useTranslation();
  const theme = useAppStore((s) => s.theme);
  const setTheme = useAppStore((s) => s.setTheme);
  return (
    <PageFrame width="narrow" testId="theme-page">
      {isInTelegram() && <p className="lead">{t('theme.telegramNote')}</p>}
      <div className="theme-grid" role="radiogroup" aria-label={t('titles.theme')}>
        {THEME_SETTINGS.map((setting) => {
          const Icon = ICONS[setting];
          return (
            <button
              key={setting}
              type="button"
              role="radio"
              aria-checked={theme === setting}
              className={`theme-option theme-option--${setting}${theme === setting ? ' is-active' : ''}`}
              onClick={() => setTheme(setting)}
              data-testid={`theme-${setting}`}
            >
              <span className="theme-option__preview" aria-hidden="true">
                <span />
                <span />
              </span>
              <span className="theme-option__label">
                <Icon size={18} />
                {t(`theme.${setting}`)}
              </span>
              {theme === setting && <IconCheck size={18} className="theme-option__check" />}
            </button>
          );
        })}
      </div>
      <p className="muted-note">{t('theme.systemNote')}</p>
    </PageFrame>
  );
}
