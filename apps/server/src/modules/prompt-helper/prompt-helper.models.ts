import {
  makesVideo,
  modeDeclaration,
  PROMPT_MAX_LENGTH,
  type TEngineOffer,
  type TGenerationMode,
} from '@mirra/contracts';
import { isEnglishPrompt } from '../moderation/index.js';
import {
  PHRASEBOOK,
  type PhraseEntry,
  type PhraseKind,
  type PhrasebookLanguage,
} from './prompt-helper.phrases.js';

// Letters NFKD leaves alone but people type as plain letters (Kazakh on a Russian keyboard,
// Azerbaijani without its letters): folded the same way in the phrasebook and in wishes.
const FOLDED_LETTERS: Record<string, string> = {
  ə: 'e',
  ı: 'i',
  ß: 'ss',
  ә: 'а',
  ғ: 'г',
  қ: 'к',
  ң: 'н',
  ө: 'о',
  ұ: 'у',
  ү: 'у',
  һ: 'х',
  '’': "'",
  ʼ: "'",
  '‘': "'",
};
// Spelling variants of one word: Ukrainian у/в and з/із/зі, Russian с/со.
const FOLDED_WORDS: Record<string, string> = { у: 'в', із: 'з', зі: 'з', со: 'с' };

/** Lower case, no diacritics (ё→е, й→и, ä→a, ş→s), Kazakh and Azerbaijani letters to plain ones. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[əıßәғқңөұүһ’ʼ‘]/g, (c) => FOLDED_LETTERS[c] ?? c);
}

// A word: letters and digits, with inner apostrophes (сім'я, don't) and hyphens (черно-белый).
const WORD = /[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu;

export interface Clause {
  /** Folded words, for matching. */
  words: string[];
  /** Lower-cased words with their letters intact: "şəhər" (city) and "səhər" (morning) fold alike. */
  literal: string[];
  /** The same words as typed, for the ones kept unread (names keep their capitals: iPhone). */
  raw: string[];
}

/** Clauses (split at , . ; ! ? and new lines) of words, folded and as typed. Cyrillic and Latin alike. */
export function tokenise(text: string): Clause[] {
  return text
    .normalize('NFC')
    .split(/[,.;!?\n]+/)
    .map((clause) => {
      const raw = clause.match(WORD) ?? [];
      const words = raw.map((word) => {
        const folded = foldText(word);
        return FOLDED_WORDS[folded] ?? folded;
      });
      const literal = raw.map((word) => word.toLowerCase().replace(/[’ʼ‘]/g, "'"));
      return { words, literal, raw };
    })
    .filter((clause) => clause.words.length > 0);
}

// Inflection endings, folded, longest first; a stem keeps at least three letters.
const ENDINGS: Record<PhrasebookLanguage, string[]> = {
  ru: sortByLength(
    'ами ями ого его ому ему ыми ими ый ий ой ей ая яя ое ее ые ие ую юю ом ем ам ям ах ях ов ев ью ья ье ы и а я у ю е о ь',
  ),
  uk: sortByLength(
    'ами ями ого ому ими ий ій ої ею ая яя ую юю ом ем ам ям ах ях ів їв ь і ї и а я у ю е о є',
  ),
  kk: sortByLength(
    'лары лері дары дері тары тері ларда лерде дағы дегі тағы тегі ында інде лар лер дар дер тар тер ' +
      'ның нің дың дің тың тің ға ге қа ке да де та те ны ні ды ді ты ті сы сі ы і а е',
  ),
  az: sortByLength(
    'larda lərdə ları ləri nın nin nun nün lar lər dan dən ında ində nda ndə da də ta tə ın in un ün ' +
      'sı si su sü a ə ı i u ü',
  ),
  de: sortByLength('en er es em e n s'),
};

function sortByLength(endings: string): string[] {
  return [...new Set(endings.split(' ').map(foldText))].sort((a, b) => b.length - a.length);
}

export function stemWord(word: string, language: PhrasebookLanguage): string {
  for (const ending of ENDINGS[language]) {
    if (word.length - ending.length >= 3 && word.endsWith(ending)) return word.slice(0, -ending.length);
  }
  return word;
}

interface CompiledBook {
  language: PhrasebookLanguage;
  /** Forms as written in the phrasebook (lower case). */
  literal: Map<string, PhraseEntry>;
  /** Folded forms; null where two entries fold alike (then only their literal forms match). */
  exact: Map<string, PhraseEntry | null>;
  /** Stemmed keys; null where two entries share a stem (then only exact forms match). */
  stemmed: Map<string, PhraseEntry | null>;
  longestPhrase: number;
}

function compileBook(language: PhrasebookLanguage): CompiledBook {
  const literal = new Map<string, PhraseEntry>();
  const exact = new Map<string, PhraseEntry | null>();
  const stemmed = new Map<string, PhraseEntry | null>();
  const addUnlessAmbiguous = (map: Map<string, PhraseEntry | null>, key: string, entry: PhraseEntry) => {
    const known = map.get(key);
    if (known === undefined) map.set(key, entry);
    else if (known && (known[1] !== entry[1] || known[2] !== entry[2])) map.set(key, null);
  };
  let longestPhrase = 1;
  for (const entry of PHRASEBOOK[language]) {
    const clauses = tokenise(entry[0]);
    const words = clauses.flatMap((clause) => clause.words);
    longestPhrase = Math.max(longestPhrase, words.length);
    literal.set(clauses.flatMap((clause) => clause.literal).join(' '), entry);
    addUnlessAmbiguous(exact, words.join(' '), entry);
    addUnlessAmbiguous(stemmed, words.map((w) => stemWord(w, language)).join(' '), entry);
  }
  return { language, literal, exact, stemmed, longestPhrase };
}

export const PHRASEBOOKS: Record<PhrasebookLanguage, CompiledBook> = {
  ru: compileBook('ru'),
  de: compileBook('de'),
  uk: compileBook('uk'),
  kk: compileBook('kk'),
  az: compileBook('az'),
};

/** The longest phrase of `book` starting at word `start`, as written, folded, or inflected. */
function matchAt(
  clause: Clause,
  start: number,
  book: CompiledBook,
): { entry: PhraseEntry; length: number } | null {
  const { words, literal } = clause;
  for (let length = Math.min(book.longestPhrase, words.length - start); length >= 1; length--) {
    const slice = words.slice(start, start + length);
    const stems = slice.map((w) => stemWord(w, book.language)).join(' ');
    // As written; folded; its stem as a dictionary form ("schöne" → "schön"); stem to stem.
    const entry =
      book.literal.get(literal.slice(start, start + length).join(' ')) ??
      book.exact.get(slice.join(' ')) ??
      book.exact.get(stems) ??
      book.stemmed.get(stems);
    if (entry) return { entry, length };
  }
  return null;
}

// Words that make a Latin-script wish English rather than German or Azerbaijani.
const ENGLISH_WORDS = new Set(
  (
    'a an the of in on at with and or to for from by under over near into is are be this that it its my ' +
    'me i you make show draw create give picture photo image portrait style light lighting sunset sunrise ' +
    'night day morning evening city sea beach forest mountain mountains street park desert space cat dog ' +
    'horse bird woman man girl boy child people wearing holding sitting standing running flying beautiful ' +
    'cute big small old young happy red blue green yellow black white pink golden very'
  ).split(' '),
);

const CYRILLIC = /\p{Script=Cyrillic}/u;

/**
 * Which phrasebook reads this wish best: the one that recognises the most words (function words
 * count: they tell Russian from Ukrainian). Latin text is English unless German or Azerbaijani
 * recognise more of it than a list of common English words does; null means English.
 */
export function guessLanguage(clauses: Clause[]): PhrasebookLanguage | null {
  const words = clauses.flatMap((clause) => clause.words);
  const isCyrillic = words.some((w) => CYRILLIC.test(w));
  const candidates: PhrasebookLanguage[] = isCyrillic ? ['ru', 'uk', 'kk'] : ['de', 'az'];
  let best: PhrasebookLanguage | null = null;
  let bestScore = isCyrillic ? 0 : words.filter((w) => ENGLISH_WORDS.has(w)).length;
  for (const language of candidates) {
    const score = clauses.reduce((sum, clause) => sum + recognisedWords(clause, PHRASEBOOKS[language]), 0);
    if (score > bestScore || (isCyrillic && best === null)) {
      best = language;
      bestScore = Math.max(score, bestScore);
    }
  }
  return best;
}

function recognisedWords(clause: Clause, book: CompiledBook): number {
  let count = 0;
  for (let i = 0; i < clause.words.length;) {
    const match = matchAt(clause, i, book);
    if (match) count += match.length;
    i += match?.length ?? 1;
  }
  return count;
}

export interface Chunk {
  kind: PhraseKind | 'unknown';
  english: string;
  /** The instruction the editing mode uses, when the phrase has one. */
  edit?: string;
}

const PLAIN_LATIN_WORD = /^[a-z0-9][a-z0-9'-]*$/;

/**
 * Reads one clause with the chosen phrasebook (then the others of the same script, for mixed
 * Russian-Ukrainian-Kazakh wishes). Unknown words are kept only if they are plain Latin — names
 * and English words (iPhone, Tesla, Barbie) — since anything else cannot reach an English prompt.
 */
export function readClause(clause: Clause, language: PhrasebookLanguage): Chunk[] {
  const { words, raw } = clause;
  const books = sameScript(language).map((l) => PHRASEBOOKS[l]);
  const chunks: Chunk[] = [];
  for (let i = 0; i < words.length;) {
    const match = books.map((book) => matchAt(clause, i, book)).find(Boolean);
    if (match) {
      const [, english, kind, edit] = match.entry;
      chunks.push({ kind, english, ...(edit ? { edit } : {}) });
      i += match.length;
      continue;
    }
    const word = raw[i] ?? words[i]!;
    if (PLAIN_LATIN_WORD.test(word.toLowerCase())) {
      const last = chunks[chunks.length - 1];
      if (last?.kind === 'unknown') last.english += ` ${word}`;
      else chunks.push({ kind: 'unknown', english: word });
    }
    i += 1;
  }
  return chunks;
}

function sameScript(language: PhrasebookLanguage): PhrasebookLanguage[] {
  const group: PhrasebookLanguage[] =
    language === 'de' || language === 'az' ? ['de', 'az'] : ['ru', 'uk', 'kk'];
  return [language, ...group.filter((l) => l !== language)];
}

const ART_STYLE =
  /anime|cartoon|painting|watercolor|sketch|pop art|comic|pixel|3d|animation|impressionist|van gogh|surreal|fantasy art/i;
const PHOTO_TAGS = 'highly detailed, sharp focus, 35mm photo';
const ART_TAGS = 'highly detailed, vibrant colors';
// English wishes that already name a style or a light keep theirs instead of the defaults.
const MENTIONS_STYLE =
  /\b(photo|photograph|painting|anime|illustration|render|sketch|drawing|cartoon|watercolou?r|style|comic|pixel art)\b/i;
const MENTIONS_LIGHT = /\b(light|lighting|lit|sunset|sunrise|night|golden hour|neon|moonlight|dusk|dawn)\b/i;

/** Puts `words` before the last word of a phrase: "in the forest" + dark → "in the dark forest". */
function insertBeforeLast(phrase: string, words: string[]): string {
  if (!words.length) return phrase;
  const parts = phrase.split(' ');
  return [...parts.slice(0, -1), ...words, parts[parts.length - 1]].join(' ');
}

/** Capitalises the first word unless it has capitals of its own (iPhone, eBay). */
const capitalise = (text: string) =>
  /^\p{Ll}+(?:\s|$|[,'-])/u.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;

/**
 * Whether the engine that will serve honours photographic and quality words ("photorealistic",
 * "35mm photo", "sharp focus"): a generative model does, the offline drawing does not. Unknown
 * (no mode given): yes, as before engines declared what they do.
 */
export function honoursPhotoWords(offer: TEngineOffer | null | undefined): boolean {
  return offer ? offer.abilities.includes('photorealistic') : true;
}

/**
 * Builds a prompt from recognised phrases: subjects with their looks first (Kazakh and
 * Azerbaijani put places before the subject; English wants them after), then places, light and
 * style, with a default light and style when the wish names none, and quality tags, the last two
 * only for an engine that honours them (`photoWords`).
 */
export function composePrompt(chunks: Chunk[], mode: TGenerationMode | undefined, photoWords = true): string {
  if (mode && modeDeclaration(mode).inputs.promptIs === 'edit') {
    const edits = chunks.map((c) => c.edit).filter((e): e is string => Boolean(e));
    const text = edits.length
      ? edits.join(', ')
      : chunks
          .filter((c) => c.english)
          .map((c) => c.english)
          .join(' ');
    return capitalise(text);
  }
  const subjects: string[] = [];
  const attributes: string[] = [];
  const settings: string[] = [];
  const lights: string[] = [];
  const styles: string[] = [];
  let pending: string[] = [];
  for (const chunk of chunks) {
    switch (chunk.kind) {
      case 'adjective':
        pending.push(chunk.english);
        continue;
      case 'subject':
      case 'unknown':
        subjects.push([...pending, chunk.english].join(' '));
        break;
      case 'attribute':
        attributes.push(insertBeforeLast(chunk.english, pending));
        break;
      case 'setting':
        settings.push(insertBeforeLast(chunk.english, pending));
        break;
      case 'light':
        lights.push(insertBeforeLast(chunk.english, pending));
        break;
      case 'style':
        styles.push(chunk.english);
        break;
      case 'edit':
        // Outside the editing mode an edit reads as a look ("blurred background").
        if (chunk.english) styles.push(chunk.english);
        break;
      default:
        continue;
    }
    pending = [];
  }
  const isArt = styles.some((s) => ART_STYLE.test(s));
  const main = subjects.length
    ? subjects.join(' and ')
    : pending.length
      ? `a ${pending.join(' ')} scene`
      : isArt
        ? 'a scene'
        : 'a beautiful scene';
  const description = [main, ...unique(attributes), ...unique(settings)].join(' ');
  const parts = [capitalise(description), ...unique(lights)];
  if (styles.length) parts.push(...unique(styles));
  if (!photoWords) return parts.join(', ');
  if (!lights.length && !MENTIONS_LIGHT.test(description)) {
    parts.splice(1 + unique(lights).length, 0, isArt ? 'soft lighting' : 'soft natural light');
  }
  if (!styles.length && !MENTIONS_STYLE.test(description)) parts.push('photorealistic');
  parts.push(isArt ? ART_TAGS : PHOTO_TAGS);
  if (mode && makesVideo(mode)) parts.push('smooth cinematic motion');
  return parts.join(', ');
}

const unique = (items: string[]) => [...new Set(items)];

/**
 * The offline prompt helper: a phrasebook and a template, honest about being simpler than a
 * language model. English wishes are kept as written and only expanded.
 */
export function writeOfflinePrompt(
  text: string,
  mode?: TGenerationMode,
  offer?: TEngineOffer | null,
): string {
  const clauses = tokenise(text);
  // Latin text nothing recognises stays English unless it is clearly not (German, Azerbaijani).
  const language =
    guessLanguage(clauses) ?? (isEnglishPrompt(text) ? null : /[äöüß]/i.test(text) ? 'de' : 'az');
  let chunks: Chunk[];
  if (language === null) {
    const english = text
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[.!?]+$/, '');
    chunks = english ? [{ kind: 'unknown', english }] : [];
  } else {
    chunks = clauses.flatMap((clause) => readClause(clause, language));
  }
  return clampPrompt(composePrompt(chunks, mode, honoursPhotoWords(offer)));
}

/** Cuts at the last comma or space that keeps the prompt within the generation limit. */
export function clampPrompt(prompt: string): string {
  if (prompt.length <= PROMPT_MAX_LENGTH) return prompt;
  const cut = prompt.slice(0, PROMPT_MAX_LENGTH);
  const at = Math.max(cut.lastIndexOf(','), cut.lastIndexOf(' '));
  return (at > PROMPT_MAX_LENGTH / 2 ? cut.slice(0, at) : cut).trim();
}

/** What the language model is asked to do; it must answer with the prompt and nothing else. */
export function systemPromptFor(mode: TGenerationMode | undefined, offer?: TEngineOffer | null): string {
  const offline = offer !== null && offer !== undefined && !offer.ai;
  const task =
    mode && modeDeclaration(mode).inputs.promptIs === 'edit'
      ? offline
        ? 'Rewrite the wish as one short, clear English instruction for an offline photo editor that understands only: the sky (sunset, night, stormy, clear), the light of a time of day, fog, rain, snow, a new background place (beach, forest, mountains, city, space), background blur, brightness, contrast, colour, warmth, black and white, sepia, vintage, crop, rotate, flip, sharpen, upscale (for example "make the sky a sunset and add fog").'
        : 'Rewrite the wish as one short, clear English instruction for editing the photo (for example "blur the background and make it brighter").'
      : offline
        ? 'Turn the wish into one short English description for an offline engine that draws scenes with shapes and colours (no AI): the place, the time of day, the weather and the colours, in plain words, at most 30 words. Never add photographic or quality words such as photorealistic, 35mm photo, highly detailed or sharp focus.'
        : 'Turn the wish into one vivid English prompt for an image generator: the subject, the setting, the lighting and the style, concrete and visual, at most 60 words.';
  return [
    'You write prompts for Mirra, an app that makes pictures of people.',
    'The user describes what they want in any language: often Russian, Ukrainian, German, Kazakh or Azerbaijani.',
    task,
    'Answer with the prompt only, in English, on one line: no quotes, no preamble, no explanations.',
    'Never add nudity, sexual content, minors in any suggestive context, or graphic violence.',
  ].join('\n');
}

/**
 * A model's answer as a prompt: one line, without the quotes, labels or markdown some models add;
 * null when nothing usable (empty, or not English) is left.
 */
export function cleanModelPrompt(raw: string): string | null {
  let text = raw
    .replace(/<think>[\s\S]*?<\/think>/gi, ' ')
    .replace(/```[a-z]*|```/gi, ' ')
    .replace(/^\s*(?:\*\*)?(?:prompt|english prompt|image prompt)\s*:(?:\*\*)?\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  text = text.replace(/^["'“”«»]+|["'“”«»]+$/g, '').trim();
  if (!text || !isEnglishPrompt(text)) return null;
  return clampPrompt(text);
}
