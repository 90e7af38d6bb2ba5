import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../test/i18n';
import { changeLanguage, detectLanguage, initI18n, loadExtraCatalogue } from './i18n';

describe('plural rules', () => {
  it.each([
    [1, '1 кредит'],
    [2, '2 кредита'],
    [4, '4 кредита'],
    [5, '5 кредитов'],
    [11, '11 кредитов'],
    [12, '12 кредитов'],
    [21, '21 кредит'],
    [22, '22 кредита'],
    [25, '25 кредитов'],
    [1.5, '1.5 кредита'],
  ])('Russian: %s → %s (1 / 2–4 / 5+)', async (count, text) => {
    const i18n = await createTestI18n('ru');
    expect(i18n.t('messages.credits', { count })).toBe(text);
  });

  it.each([
    [1, '1 кредит'],
    [3, '3 кредити'],
    [5, '5 кредитів'],
    [21, '21 кредит'],
  ])('Ukrainian: %s → %s', async (count, text) => {
    const i18n = await createTestI18n('uk');
    expect(i18n.t('messages.credits', { count })).toBe(text);
  });

  it.each([
    ['en', 1, '1 credit'],
    ['en', 2, '2 credits'],
    ['de', 1, '1 Credit'],
    ['de', 7, '7 Credits'],
    ['kk', 7, '7 кредит'],
    ['az', 7, '7 kredit'],
  ])('%s: %s → %s', async (lng, count, text) => {
    const i18n = await createTestI18n(lng);
    expect(i18n.t('messages.credits', { count })).toBe(text);
  });

  it('falls back to English for an empty entry', async () => {
    const i18n = await createTestI18n('de');
    i18n.addResource('de', 'translation', 'common.save', '');
    expect(i18n.t('common.save')).toBe('Save');
  });
});

describe('the starting language', () => {
  it('is the stored choice first', () => {
    expect(detectLanguage('kk', ['de-DE'], 'ru')).toBe('kk');
  });

  it('else the Telegram user’s, else the browser’s, else English', () => {
    expect(detectLanguage(null, ['de-DE'], 'uk')).toBe('uk');
    expect(detectLanguage(null, ['de-DE'], 'fr')).toBe('de');
    expect(detectLanguage(null, ['ru-RU', 'en'])).toBe('ru');
    expect(detectLanguage('null', ['fr-FR', 'es'])).toBe('en');
  });
});

describe('extra catalogues', () => {
  it('are loaded on demand, in the current language and English, and follow a language change', async () => {
    const i18n = await initI18n('de');
    expect(i18n.exists('result.title')).toBe(false);
    await loadExtraCatalogue('generations');
    expect(i18n.t('result.title')).toBe('Dein Ergebnis');
    expect(i18n.getResource('en', 'translation', 'result.title')).toBe('Your result');
    // The main catalogue is still all there after the merge.
    expect(i18n.t('common.save')).toBe('Speichern');
    await changeLanguage('kk');
    expect(i18n.t('result.title')).toBe('Сіздің нәтижеңіз');
  });
});
