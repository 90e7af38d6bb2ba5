import { useTranslation } from 'react-i18next';
import { IconCheck } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { useUpdateProfile } from '../../features/profile';
import { useAppStore } from '../../lib/app-store';
import { changeLanguage, currentLanguage, LANGUAGE_NAMES, LANGUAGES, type TLanguage } from '../../lib/i18n';
import { useSession } from '../../lib/session';

export function Page() {
  const { t } = useTranslation();
  const active = currentLanguage();
  const updateProfile = useUpdateProfile();
  async function choose(language: TLanguage) {
    await changeLanguage(language);
    useAppStore.getState().showTopinfo('success');
    if (useSession.getState().user) {
      // The server writes emails and bot messages in this language too.
      updateProfile({ language }).catch((error: unknown) =>
        console.warn('Could not save the language', error),
      );
    }
  }
  return (
    <PageFrame width="narrow" testId="language-page">
      <div className="list" role="radiogroup" aria-label={t('titles.language')}>
        {LANGUAGES.map((language) => (
          <button
            key={language}
            type="button"
            role="radio"
            aria-checked={language === active}
            lang={language}
            className={`list__row${language === active ? ' is-active' : ''}`}
            onClick={() => void choose(language)}
            data-testid={`language-${language}`}
          >
            <span className="list__code">{language.toUpperCase()}</span>
            <span className="list__label">{LANGUAGE_NAMES[language]}</span>
            {language === active && <IconCheck size={20} className="list__check" />}
          </button>
        ))}
      </div>
    </PageFrame>
  );
}
