import i18next, { type i18n as I18n } from 'i18next';
import { i18nOptions } from '../lib/i18n';
import az from '../locales/az.json';
import de from '../locales/de.json';
import en from '../locales/en.json';
import kk from '../locales/kk.json';
import ru from '../locales/ru.json';
import uk from '../locales/uk.json';

export const catalogues = { en, ru, de, uk, kk, az } as const;

/** A separate i18next instance with every catalogue loaded, for tests. */
export async function createTestI18n(lng = 'en'): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.init({
    ...i18nOptions,
    lng,
    resources: Object.fromEntries(Object.entries(catalogues).map(([l, c]) => [l, { translation: c }])),
  });
  return instance;
}
