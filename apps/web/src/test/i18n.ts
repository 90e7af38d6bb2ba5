import i18next, { type i18n as I18n } from 'i18next';
import { i18nOptions } from '../lib/i18n';
import az from '../locales/az.json';
import de from '../locales/de.json';
import en from '../locales/en.json';
import kk from '../locales/kk.json';
import ru from '../locales/ru.json';
import uk from '../locales/uk.json';
import adminAz from '../locales/admin/az.json';
import adminDe from '../locales/admin/de.json';
import adminEn from '../locales/admin/en.json';
import adminKk from '../locales/admin/kk.json';
import adminRu from '../locales/admin/ru.json';
import adminUk from '../locales/admin/uk.json';
import generationsAz from '../locales/generations/az.json';
import generationsDe from '../locales/generations/de.json';
import generationsEn from '../locales/generations/en.json';
import generationsKk from '../locales/generations/kk.json';
import generationsRu from '../locales/generations/ru.json';
import generationsUk from '../locales/generations/uk.json';
import modelsAz from '../locales/models/az.json';
import modelsDe from '../locales/models/de.json';
import modelsEn from '../locales/models/en.json';
import modelsKk from '../locales/models/kk.json';
import modelsRu from '../locales/models/ru.json';
import modelsUk from '../locales/models/uk.json';
import partnersAz from '../locales/partners/az.json';
import partnersDe from '../locales/partners/de.json';
import partnersEn from '../locales/partners/en.json';
import partnersKk from '../locales/partners/kk.json';
import partnersRu from '../locales/partners/ru.json';
import partnersUk from '../locales/partners/uk.json';
import accountAz from '../locales/account/az.json';
import accountDe from '../locales/account/de.json';
import accountEn from '../locales/account/en.json';
import accountKk from '../locales/account/kk.json';
import accountRu from '../locales/account/ru.json';
import accountUk from '../locales/account/uk.json';
import socialAz from '../locales/social/az.json';
import socialDe from '../locales/social/de.json';
import socialEn from '../locales/social/en.json';
import socialKk from '../locales/social/kk.json';
import socialRu from '../locales/social/ru.json';
import socialUk from '../locales/social/uk.json';

/** The main catalogues and the extra ones (`lib/i18n.ts`), each language merged into one tree. */
export const mainCatalogues = { en, ru, de, uk, kk, az } as const;
export const extraCatalogues = {
  admin: { en: adminEn, ru: adminRu, de: adminDe, uk: adminUk, kk: adminKk, az: adminAz },
  generations: {
    en: generationsEn,
    ru: generationsRu,
    de: generationsDe,
    uk: generationsUk,
    kk: generationsKk,
    az: generationsAz,
  },
  models: { en: modelsEn, ru: modelsRu, de: modelsDe, uk: modelsUk, kk: modelsKk, az: modelsAz },
  account: { en: accountEn, ru: accountRu, de: accountDe, uk: accountUk, kk: accountKk, az: accountAz },
  social: { en: socialEn, ru: socialRu, de: socialDe, uk: socialUk, kk: socialKk, az: socialAz },
  partners: {
    en: partnersEn,
    ru: partnersRu,
    de: partnersDe,
    uk: partnersUk,
    kk: partnersKk,
    az: partnersAz,
  },
} as const;

export const catalogues = {
  en: { ...en, ...adminEn, ...generationsEn, ...modelsEn, ...socialEn, ...partnersEn, ...accountEn },
  ru: { ...ru, ...adminRu, ...generationsRu, ...modelsRu, ...socialRu, ...partnersRu, ...accountRu },
  de: { ...de, ...adminDe, ...generationsDe, ...modelsDe, ...socialDe, ...partnersDe, ...accountDe },
  uk: { ...uk, ...adminUk, ...generationsUk, ...modelsUk, ...socialUk, ...partnersUk, ...accountUk },
  kk: { ...kk, ...adminKk, ...generationsKk, ...modelsKk, ...socialKk, ...partnersKk, ...accountKk },
  az: { ...az, ...adminAz, ...generationsAz, ...modelsAz, ...socialAz, ...partnersAz, ...accountAz },
} as const;

/** A separate i18next instance with every catalogue loaded, for tests. */
export async function createTestI18n(lng = 'en'): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.init({
    ...i18nOptions,
    lng,
    // Copies: i18next writes into the objects it is given, and the JSON modules are shared.
    resources: Object.fromEntries(
      Object.entries(catalogues).map(([l, c]) => [l, { translation: structuredClone(c) }]),
    ),
  });
  return instance;
}
