import type { ModerationVerdict } from './moderation.types.js';
import { PROMPT_ALLOWLIST, PROMPT_BLOCKLIST, type BlocklistLanguage } from './prompt-blocklist.js';

/** Verdict categories, named as OpenAI's moderation names them so logs read the same either way. */
export const PROMPT_CATEGORIES = {
  sexual: 'sexual',
  minors: 'sexual/minors',
  violence: 'violence/graphic',
} as const;

// Letters that are not decomposed by NFKD but stand for a plain Latin letter in a word we match.
const FOLDED_LETTERS: Record<string, string> = {
  ə: 'e',
  ı: 'i',
  ß: 'ss',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  æ: 'ae',
  œ: 'oe',
  '’': "'",
  '‘': "'",
  ʼ: "'",
  '`': "'",
  '´': "'",
};

/**
 * The form prompts and terms are compared in: lower case, compatibility forms (𝐩𝐨𝐫𝐧, ｐｏｒｎ) and
 * diacritics gone (ё→е, ä→a, ş→s, ə→e), invisible characters (zero-width, soft hyphen) removed so
 * they cannot split a word. Letters, digits and symbols otherwise stay: leetspeak is read later.
 */
export function normaliseForModeration(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .replace(/[əıßłøđæœ’‘ʼ`´]/g, (c) => FOLDED_LETTERS[c] ?? c)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What a letter may be written as to dodge a word list: digits and symbols (leetspeak) and the
 * letters of the other script that look the same (Latin o and Cyrillic о are different letters).
 * Groups overlap (3 is e in "s3x" and з in Russian leet); a letter gets every group it is in.
 */
const LOOKALIKE_GROUPS: string[][] = [
  ['a', 'а', '@', '4'],
  ['b', '8'],
  ['c', 'с', '('],
  ['e', 'е', '3', 'є'],
  ['g', '9'],
  ['h', 'н'],
  ['i', 'і', '1', '!', '|'],
  ['l', '1', '|'],
  ['k', 'к'],
  ['m', 'м'],
  ['o', 'о', '0'],
  ['p', 'р'],
  ['s', '5', '$', 'ѕ'],
  ['t', 'т', '7', '+'],
  ['x', 'х'],
  ['y', 'у'],
  ['з', '3'],
  ['ч', '4'],
  ['б', '6'],
];

const lookalikes = new Map<string, Set<string>>();
for (const group of LOOKALIKE_GROUPS) {
  for (const letter of group) {
    const set = lookalikes.get(letter) ?? new Set([letter]);
    for (const other of group) set.add(other);
    lookalikes.set(letter, set);
  }
}

const escapeInClass = (c: string) => (/[\\\]^-]/.test(c) ? `\\${c}` : c);

/** One letter of a term, with its repeats ("poooorn") and every way of writing it. */
function letterPattern(letter: string, times: number): string {
  const variants = [...(lookalikes.get(letter) ?? new Set([letter]))];
  const cls = variants.length === 1 ? escapeLiteral(letter) : `[${variants.map(escapeInClass).join('')}]`;
  return times > 1 ? `${cls}{${times},}` : `${cls}+`;
}

function escapeLiteral(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** Runs of one letter: "ass" → [a×1, s×2], so doubled letters in a term still need two. */
function runs(word: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const c of word) {
    const last = out[out.length - 1];
    if (last && last[0] === c) last[1] += 1;
    else out.push([c, 1]);
  }
  return out;
}

// What may sit between the letters of a word spelt out: "p.o.r.n", "s e x", "p-o-r-n".
const SPELLING_SEPARATOR = `[\\s._\\-*'"~|+:/\\\\]+`;
// Between the words of a phrase: spaces, punctuation, hyphens.
const WORD_SEPARATOR = `[^\\p{L}\\p{N}]+`;
const WORD_START = '(?<![\\p{L}\\p{N}])';
const WORD_END = '(?![\\p{L}\\p{N}])';

function wordPattern(word: string): string {
  const letters = runs(word).map(([c, n]) => letterPattern(c, n));
  const joined = letters.join('');
  // Spelt out letter by letter only when every gap is a separator: a single separator somewhere
  // would let a word match across two innocent ones ("has ex…").
  const chars = [...word];
  if (chars.length < 3) return joined;
  const spelt = chars.map((c) => letterPattern(c, 1)).join(SPELLING_SEPARATOR);
  return `(?:${joined}|${spelt})`;
}

/** Compiles one term of the blocklist syntax (see prompt-blocklist.ts) into a regular expression source. */
export function termPattern(term: string): string {
  const normalised = normaliseForModeration(term);
  const match = /^(.*?)(?:\[([^\]]*)\])?(\*)?$/u.exec(normalised);
  const body = match?.[1] ?? normalised;
  const endings = match?.[2];
  const isPrefix = Boolean(match?.[3]);
  const words = body.split(' ').filter(Boolean);
  let source = words.map(wordPattern).join(WORD_SEPARATOR);
  if (endings !== undefined) {
    const alternatives = endings.split('|').map((ending) =>
      runs(ending)
        .map(([c, n]) => letterPattern(c, n))
        .join(''),
    );
    source += `(?:${alternatives.join('|')})`;
  }
  return `${WORD_START}${source}${isPrefix ? '' : WORD_END}`;
}

function compileList(terms: string[]): RegExp | null {
  if (!terms.length) return null;
  return new RegExp(terms.map(termPattern).join('|'), 'u');
}

type CompiledLanguage = Record<keyof BlocklistLanguage, RegExp | null>;

const compiled: CompiledLanguage[] = Object.values(PROMPT_BLOCKLIST).map((language) => ({
  sexual: compileList(language.sexual),
  minorsSexual: compileList(language.minorsSexual),
  violence: compileList(language.violence),
  minors: compileList(language.minors),
  suggestive: compileList(language.suggestive),
}));
const englishSuggestive = compileList(PROMPT_BLOCKLIST.en.suggestive);

const allowlist = new RegExp(
  PROMPT_ALLOWLIST.map(
    (phrase) =>
      `${WORD_START}${normaliseForModeration(phrase)
        .split(' ')
        .map((w) => [...w].map(escapeLiteral).join(''))
        .join(WORD_SEPARATOR)}${WORD_END}`,
  ).join('|'),
  'gu',
);

/**
 * An age under 18 written next to a word for years in any of the six languages: "15 y.o.",
 * "12-year-old", "15-летняя", "14 jährige", "16 років", "15 жастағы", "14 yaşlı".
 */
const MINOR_AGE = new RegExp(
  `${WORD_START}(?:1[0-7]|[1-9])\\s*-?\\s*(?:${[
    'y\\.?\\s?o\\.?',
    'yrs?',
    'years?',
    'year-old',
    'лет',
    'года?',
    'летн\\p{L}*',
    'jahre?',
    'jahrig\\p{L}*',
    'рок[иів]',
    'років',
    'рік',
    'річн\\p{L}*',
    'жас\\p{L}*',
    'yas\\p{L}*',
  ].join('|')})${WORD_END}`,
  'u',
);

export interface PromptBlocklistHits {
  sexual: boolean;
  minors: boolean;
  violence: boolean;
}

/**
 * Reads a prompt against the blocklist. Words for children and suggestive words are each innocent
 * alone; together (in one language, English suggestive words counting everywhere as loanwords) or
 * a word for children with anything sexual, they are sexual content involving minors.
 */
export function findBlocklistHits(text: string): PromptBlocklistHits {
  const normalised = normaliseForModeration(text).replace(allowlist, ' ');
  const has = (list: keyof BlocklistLanguage) => compiled.some((l) => Boolean(l[list]?.test(normalised)));
  const sexual = has('sexual');
  const violence = has('violence');
  const hasMinor = has('minors');
  const hasAge = MINOR_AGE.test(normalised);
  const hasSuggestive = has('suggestive');
  const sameLanguageCombination = compiled.some(
    (l) =>
      Boolean(l.minors?.test(normalised)) &&
      Boolean(l.suggestive?.test(normalised) || englishSuggestive?.test(normalised)),
  );
  const minors =
    has('minorsSexual') ||
    sameLanguageCombination ||
    ((hasMinor || hasAge) && sexual) ||
    (hasAge && hasSuggestive);
  return { sexual, minors, violence };
}

/** The word-list verdict: refuses sexual content, anything sexual about minors, and graphic violence. */
export function moderatePromptText(text: string): ModerationVerdict {
  const hits = findBlocklistHits(text);
  const categories: string[] = [];
  if (hits.sexual) categories.push(PROMPT_CATEGORIES.sexual);
  if (hits.minors) categories.push(PROMPT_CATEGORIES.minors);
  if (hits.violence) categories.push(PROMPT_CATEGORIES.violence);
  return { flagged: categories.length > 0, categories };
}

/** Scores at or above this on `sexual/minors` refuse a prompt even when OpenAI did not flag it. */
export const MINORS_SCORE_LIMIT = 0.1;

/**
 * Our reading of an OpenAI moderation result: whatever it flagged, plus anything sexual about
 * minors from a much lower score than OpenAI's own threshold (the one harm we never risk).
 */
export function judgeOpenAiModeration(result: {
  flagged: boolean;
  categories: Record<string, boolean>;
  category_scores: Record<string, number>;
}): ModerationVerdict {
  const categories = Object.entries(result.categories)
    .filter(([, isFlagged]) => isFlagged)
    .map(([name]) => name);
  const minorsScore = result.category_scores[PROMPT_CATEGORIES.minors] ?? 0;
  if (minorsScore >= MINORS_SCORE_LIMIT && !categories.includes(PROMPT_CATEGORIES.minors)) {
    categories.push(PROMPT_CATEGORIES.minors);
  }
  return { flagged: result.flagged || categories.length > 0, categories };
}
