import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, pickLanguage, type TLanguage } from '@mirra/contracts';
import { readStored, STORAGE_KEYS, writeStored } from './storage';

export { LANGUAGES, type TLanguage };

/** Each language's own name, as people look for it in a list. */
export const LANGUAGE_NAMES: Record<TLanguage, string> = {
  en: 'English',
  ru: 'Русский',
  de: 'Deutsch',
  uk: 'Українська',
  kk: 'Қазақша',
  az: 'Azərbaycanca',
};

type Catalogue = Record<string, unknown>;

// One chunk per language, so the first page only downloads the language it shows (plus English).
const loaders: Record<TLanguage, () => Promise<{ default: Catalogue }>> = {
  en: () => import('../locales/en.json'),
  ru: () => import('../locales/ru.json'),
  de: () => import('../locales/de.json'),
  uk: () => import('../locales/uk.json'),
  kk: () => import('../locales/kk.json'),
  az: () => import('../locales/az.json'),
};

/**
 * Catalogues only some pages need, kept out of the first page's download: each is merged into the
 * same namespace (keys stay `result.title`), and loaded before the pages that use it render.
 */
const extraLoaders = {
  generations: {
    en: () => import('../locales/generations/en.json'),
    ru: () => import('../locales/generations/ru.json'),
    de: () => import('../locales/generations/de.json'),
    uk: () => import('../locales/generations/uk.json'),
    kk: () => import('../locales/generations/kk.json'),
    az: () => import('../locales/generations/az.json'),
  },
  models: {
    en: () => import('../locales/models/en.json'),
    ru: () => import('../locales/models/ru.json'),
    de: () => import('../locales/models/de.json'),
    uk: () => import('../locales/models/uk.json'),
    kk: () => import('../locales/models/kk.json'),
    az: () => import('../locales/models/az.json'),
  },
  account: {
    en: () => import('../locales/account/en.json'),
    ru: () => import('../locales/account/ru.json'),
    de: () => import('../locales/account/de.json'),
    uk: () => import('../locales/account/uk.json'),
    kk: () => import('../locales/account/kk.json'),
    az: () => import('../locales/account/az.json'),
  },
  social: {
    en: () => import('../locales/social/en.json'),
    ru: () => import('../locales/social/ru.json'),
    de: () => import('../locales/social/de.json'),
    uk: () => import('../locales/social/uk.json'),
    kk: () => import('../locales/social/kk.json'),
    az: () => import('../locales/social/az.json'),
  },
  partners: {
    en: () => import('../locales/partners/en.json'),
    ru: () => import('../locales/partners/ru.json'),
    de: () => import('../locales/partners/de.json'),
    uk: () => import('../locales/partners/uk.json'),
    kk: () => import('../locales/partners/kk.json'),
    az: () => import('../locales/partners/az.json'),
  },
} satisfies Record<string, Record<TLanguage, () => Promise<{ default: Catalogue }>>>;
export type ExtraCatalogue = keyof typeof extraLoaders;

const wantedExtras = new Set<ExtraCatalogue>();
const loadedExtras = new Map<string, Promise<void>>();

function loadExtra(name: ExtraCatalogue, language: TLanguage, instance: I18n): Promise<void> {
  const key = `${name}:${language}`;
  let loading = loadedExtras.get(key);
  if (!loading) {
    loading = extraLoaders[name][language]().then(({ default: catalogue }) => {
      instance.addResourceBundle(language, 'translation', catalogue, true, true);
    });
    // A failed load may be tried again (the page's own load error explains it).
    loading.catch(() => loadedExtras.delete(key));
    loadedExtras.set(key, loading);
  }
  return loading;
}

/** Downloads an extra catalogue's file without adding it (i18next may not be started yet). */
export function prefetchExtraCatalogue(
  name: ExtraCatalogue,
  language: TLanguage = DEFAULT_LANGUAGE,
): Promise<unknown> {
  return extraLoaders[name][language]();
}

/** Loads an extra catalogue in the current language and English (the fallback), once. */
export async function loadExtraCatalogue(name: ExtraCatalogue): Promise<void> {
  wantedExtras.add(name);
  const languages = new Set<TLanguage>([DEFAULT_LANGUAGE, currentLanguage()]);
  await Promise.all([...languages].map((language) => loadExtra(name, language, i18next)));
}

/**
 * Makes another language's texts available without switching the interface to it (the partner's
 * promo texts in a language of their audience): the main catalogue first, then the extra ones, so
 * a later switch to that language still finds everything.
 */
export async function loadLanguageTexts(
  language: TLanguage,
  extras: readonly ExtraCatalogue[],
  instance: I18n = i18next,
): Promise<void> {
  await loadCatalogue(language, instance);
  await Promise.all(extras.map((name) => loadExtra(name, language, instance)));
}

/**
 * The language to start in: the one the user chose (stored), else the Telegram user's, else the
 * browser's, else English.
 */
export function detectLanguage(
  stored: string | null,
  navigatorLanguages: readonly string[],
  telegramLanguage?: string | null,
): TLanguage {
  if (isLanguage(stored)) return stored;
  if (telegramLanguage) {
    const fromTelegram = pickLanguage(telegramLanguage);
    if (fromTelegram !== DEFAULT_LANGUAGE || telegramLanguage.toLowerCase().startsWith(DEFAULT_LANGUAGE)) {
      return fromTelegram;
    }
  }
  return pickLanguage(navigatorLanguages.join(','));
}

async function loadCatalogue(language: TLanguage, instance: I18n) {
  if (instance.hasResourceBundle(language, 'translation')) return;
  const { default: catalogue } = await loaders[language]();
  instance.addResourceBundle(language, 'translation', catalogue, true, true);
}

/** The i18next options the app and the tests share: empty entries fall back to English. */
export const i18nOptions = {
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  returnEmptyString: false,
  returnNull: false,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
} as const;

export async function initI18n(language: TLanguage): Promise<I18n> {
  await i18next.use(initReactI18next).init({ ...i18nOptions, lng: language, resources: {} });
  await Promise.all([loadCatalogue(DEFAULT_LANGUAGE, i18next), loadCatalogue(language, i18next)]);
  applyDocumentLanguage(language);
  return i18next;
}

function applyDocumentLanguage(language: TLanguage) {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/** Switches the interface language and stores it as `django_language` (also sent as Accept-Language). */
export async function changeLanguage(language: TLanguage): Promise<void> {
  await Promise.all([
    loadCatalogue(language, i18next),
    ...[...wantedExtras].map((name) => loadExtra(name, language, i18next)),
  ]);
  writeStored(STORAGE_KEYS.language, language);
  await i18next.changeLanguage(language);
  applyDocumentLanguage(language);
}

export function currentLanguage(): TLanguage {
  const lng = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

export function storedLanguage(): string | null {
  return readStored(STORAGE_KEYS.language);
}
