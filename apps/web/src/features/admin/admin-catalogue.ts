import { useEffect, useState } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, type TLanguage } from '@mirra/contracts';
import { loadExtraCatalogue } from '../../lib/i18n';

/**
 * The console's texts. They load from the console's own chunk (not lib/i18n's table of extra
 * catalogues), so the first page of the app carries nothing of them; with them, the catalogues
 * whose words the console reuses (report reasons, credit kinds, modes).
 */
const loaders: Record<TLanguage, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('../../locales/admin/en.json'),
  ru: () => import('../../locales/admin/ru.json'),
  de: () => import('../../locales/admin/de.json'),
  uk: () => import('../../locales/admin/uk.json'),
  kk: () => import('../../locales/admin/kk.json'),
  az: () => import('../../locales/admin/az.json'),
};

const loaded = new Map<TLanguage, Promise<void>>();

function loadAdminTexts(language: TLanguage): Promise<void> {
  let loading = loaded.get(language);
  if (!loading) {
    loading = loaders[language]().then(({ default: catalogue }) => {
      i18next.addResourceBundle(language, 'translation', catalogue, true, true);
    });
    loading.catch(() => loaded.delete(language));
    loaded.set(language, loading);
  }
  return loading;
}

/** True once the console's texts are there in the current language (and English, the fallback). */
export function useAdminCatalogue(): { ready: boolean; failed: boolean; retry(): void } {
  const { i18n } = useTranslation();
  const language = (i18n.language in loaders ? i18n.language : DEFAULT_LANGUAGE) as TLanguage;
  const [state, setState] = useState<{ language: string; ready: boolean; failed: boolean; attempt: number }>({
    language,
    ready: false,
    failed: false,
    attempt: 0,
  });
  const attempt = state.attempt;
  useEffect(() => {
    let live = true;
    Promise.all([
      loadAdminTexts(DEFAULT_LANGUAGE),
      loadAdminTexts(language),
      loadExtraCatalogue('social'),
      loadExtraCatalogue('generations'),
      loadExtraCatalogue('account'),
    ]).then(
      () => live && setState((s) => ({ ...s, language, ready: true, failed: false })),
      () => live && setState((s) => ({ ...s, language, ready: false, failed: true })),
    );
    return () => {
      live = false;
    };
  }, [language, attempt]);
  return {
    ready: state.ready && state.language === language,
    failed: state.failed,
    retry: () => setState((s) => ({ ...s, failed: false, attempt: s.attempt + 1 })),
  };
}
