import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CREDIT_ENTRY_KINDS,
  errorCodes,
  GENERATION_FAILURE_REASONS,
  GENERATION_NOTE_CODES,
  GENERATION_MODES,
  MODEL_CATEGORIES,
  MODEL_PHOTO_PROBLEMS,
  MODEL_PHOTO_TIPS,
  REPORT_REASONS,
  STYLES,
} from '@mirra/contracts';
import { catalogues, extraCatalogues, mainCatalogues } from '../test/i18n';

type Tree = { [key: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** Keys without plural suffixes: `profile.posts_one` and `profile.posts_other` are `profile.posts`. */
function baseKeys(flat: Map<string, string>): Set<string> {
  return new Set([...flat.keys()].map((key) => key.replace(PLURAL, '')));
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();

/** Entries that are the same in every language on purpose (prompts are English; brand names). */
const SAME_AS_ENGLISH = [
  /^modes\.\w+\.placeholder$/,
  /^profile\.instagram$/,
  /^profile\.placeholders\.username$/,
  /^subscription\.title$/,
  /^modes\.video\.title$/,
  /^profile\.phone$/,
  /^titles\.(model|wallet|profile|userProfile|album)$/,
  /^profile\.tabs\.generations$/,
  /^model\.missingTitle$/,
  /^nav\.generations$/,
  /^features\.(motion|feed)\.title$/,
  /^structure\.linear$/,
  // German says "Credits" too.
  /^admin\.pricing\.(kinds\.)?credits$/,
  /^settings\.items\.(support|otherServices|profile)$/,
  /^theme\.system$/,
  /^wallet\.balance$/,
  // Staff console words that are the same in German/Azerbaijani (Moderator, Credits, Engine) or everywhere (Email).
  /^admin\.(roles\.\w+|users\.(email|balance)|credits\.amount|generations\.engine)$/,
  // Brand names of ways to pay.
  /^payments\.methods\.(yookassa_sberbank|stars)$/,
];

const english = flatten(catalogues.en as unknown as Tree);
const languages = Object.keys(catalogues) as Array<keyof typeof catalogues>;

describe('locale catalogues', () => {
  for (const language of languages) {
    const flat = flatten(catalogues[language] as unknown as Tree);
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;

    describe(language, () => {
      it('has every key of English and no others', () => {
        expect([...baseKeys(flat)].sort()).toEqual([...baseKeys(english)].sort());
      });

      it('has every plural form its language needs, and no empty entries', () => {
        const plurals = new Set(
          [...english.keys()].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')),
        );
        for (const base of plurals) {
          for (const category of categories) {
            expect(flat.get(`${base}_${category}`), `${language}: ${base}_${category}`).toBeTruthy();
          }
        }
        for (const [key, value] of flat) expect(value.trim(), `${language}: ${key}`).not.toBe('');
      });

      it('keeps the placeholders and tags of English', () => {
        for (const [key, value] of flat) {
          const englishValue = english.get(key) ?? english.get(key.replace(PLURAL, '_other'));
          expect(englishValue, `${language}: ${key} has no English counterpart`).toBeDefined();
          expect(placeholders(value), `${language}: ${key}`).toEqual(placeholders(englishValue!));
        }
      });

      it("names every value of the contracts' lists the screens show (credit kinds, modes, styles…)", () => {
        const keys = [
          ...CREDIT_ENTRY_KINDS.map((kind) => `credits.kinds.${kind}`),
          ...GENERATION_MODES.map((mode) => `modes.${mode}.title`),
          ...GENERATION_FAILURE_REASONS.map((reason) => `result.failure.reasons.${reason}`),
          ...STYLES.map((style) => `styles.${style}`),
          ...MODEL_CATEGORIES.map((category) => `upload.categories.${category}`),
          ...MODEL_PHOTO_PROBLEMS.map((problem) => `modelPhotos.problems.${problem}`),
          ...MODEL_PHOTO_TIPS.map((tip) => `modelPhotos.tips.${tip}`),
          ...REPORT_REASONS.map((reason) => `social.report.reasons.${reason}`),
          ...GENERATION_NOTE_CODES.map((code) => `engineNotes.${code}`),
          ...['light', 'medium', 'strong'].map((strength) => `engineNotes.strength.${strength}`),
        ];
        // A counted entry exists as its plural forms (`…_other` always among them).
        expect(keys.filter((key) => !flat.get(key) && !flat.get(`${key}_other`))).toEqual([]);
      });

      it('translates every server error code', () => {
        for (const code of Object.keys(errorCodes)) {
          expect(flat.get(`errors.${code}`), `${language}: errors.${code}`).toBeTruthy();
        }
      });

      if (language !== 'en') {
        it('leaves nothing in English', () => {
          const untranslated = [...flat].filter(
            ([key, value]) =>
              english.get(key) === value && !SAME_AS_ENGLISH.some((pattern) => pattern.test(key)),
          );
          expect(untranslated.map(([key]) => key)).toEqual([]);
        });
      }
    });
  }
});

/** The plural forms each language needs (CLDR): i18next picks `_one`, `_few`… by these. */
const PLURAL_FORMS: Record<keyof typeof catalogues, string[]> = {
  en: ['one', 'other'],
  de: ['one', 'other'],
  kk: ['one', 'other'],
  az: ['one', 'other'],
  ru: ['few', 'many', 'one', 'other'],
  uk: ['few', 'many', 'one', 'other'],
};

/** Every `t('literal.key', { …count… })` in the app's source: a counted text. */
function countedKeysInSource(): Set<string> {
  const root = path.resolve(import.meta.dirname, '..');
  const keys = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const source = readFileSync(full, 'utf8');
        for (const match of source.matchAll(/\bt\(\s*'([\w.]+)'\s*,\s*\{[^}]*\bcount\b/g))
          keys.add(match[1]!);
      }
    }
  };
  walk(root);
  return keys;
}

describe('plurals', () => {
  it('each language has the plural categories its grammar needs', () => {
    for (const language of languages) {
      const categories = [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
      expect(categories, language).toEqual(PLURAL_FORMS[language]);
    }
  });

  it('every text the app counts has the plural forms of every language', () => {
    const counted = countedKeysInSource();
    expect(counted.size).toBeGreaterThan(10);
    for (const language of languages) {
      const flat = flatten(catalogues[language] as unknown as Tree);
      for (const key of counted) {
        for (const form of PLURAL_FORMS[language]) {
          expect(flat.get(`${key}_${form}`), `${language}: ${key}_${form}`).toBeTruthy();
        }
      }
    }
  });
});

describe('extra catalogues', () => {
  it('never repeat a top-level section of the main catalogue (a merge would hide one of them)', () => {
    for (const [name, byLanguage] of Object.entries(extraCatalogues)) {
      for (const [language, extra] of Object.entries(byLanguage)) {
        const main = mainCatalogues[language as keyof typeof mainCatalogues];
        const repeated = Object.keys(extra).filter((key) => key in main);
        expect(repeated, `${name}/${language}`).toEqual([]);
      }
    }
  });
});

describe('catalogue files', () => {
  it('every folder of catalogues is among the ones tested', () => {
    const folders = readdirSync(import.meta.dirname, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(Object.keys(extraCatalogues).sort());
  });

  it('no two extra catalogues share a top-level section (a merge would hide one of them)', () => {
    const owner = new Map<string, string>();
    const shared: string[] = [];
    for (const [name, byLanguage] of Object.entries(extraCatalogues)) {
      for (const key of Object.keys(byLanguage.en)) {
        if (owner.has(key)) shared.push(`${key}: ${owner.get(key)} and ${name}`);
        owner.set(key, name);
      }
    }
    expect(shared).toEqual([]);
  });
});

/** Every literal key the app's source translates: `t('a.b')`, `i18nKey="a.b"`, `label: 'a.b'`. */
function literalKeysInSource(): Map<string, string> {
  const root = path.resolve(import.meta.dirname, '..');
  const keys = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'lint-fixtures') walk(full);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const source = readFileSync(full, 'utf8');
        for (const match of source.matchAll(/(?:\bt\(\s*|i18nKey=)['"](\w+(?:\.\w+)+)['"]/g))
          keys.set(match[1]!, path.relative(root, full));
      }
    }
  };
  walk(root);
  return keys;
}

describe('keys the source uses', () => {
  it('every literal t() key is in the catalogues (English, so in every language by the tests above)', () => {
    const known = baseKeys(english);
    const keys = literalKeysInSource();
    expect(keys.size).toBeGreaterThan(200);
    const missing = [...keys].filter(([key]) => !known.has(key)).map(([key, file]) => `${file}: ${key}`);
    expect(missing).toEqual([]);
  });
});
