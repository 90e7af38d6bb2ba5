import type { SubjectArt } from './subjects.art.js';

/**
 * Reads the things a prompt asks for out of its English ("three red balloons over a lighthouse",
 * "a cat sitting on a sofa next to a window"): each subject with its count, colour and its relation
 * to another subject. Pure: the vocabulary (word → art) is passed in, so the same prompt always
 * reads the same.
 */

export type Relation = 'on' | 'over' | 'under' | 'next_to' | 'in' | 'in_front_of' | 'behind';

export interface SubjectSpec {
  /** The noun as the prompt wrote it, singular ("balloon"). */
  noun: string;
  art: SubjectArt;
  count: number;
  /** A colour asked for this subject, as a hex colour, and its word. */
  colour: { word: string; hex: string } | null;
  /** This subject's place relative to an earlier-named subject (its index). */
  relation: { kind: Relation; to: number } | null;
  /** The words this subject took from the prompt ("three red balloons"), so the scene skips them. */
  phrase: string;
  /** Added by the scene (a cafe's table and cup), not asked for: drawn, never reported missing. */
  prop?: boolean;
}

export const COLOURS: Record<string, string> = {
  red: '#e0303a',
  crimson: '#c81e3c',
  scarlet: '#e8262f',
  orange: '#ff8a1f',
  yellow: '#ffd42a',
  golden: '#f2b632',
  gold: '#f2b632',
  green: '#2fbf71',
  emerald: '#1fa15f',
  teal: '#1fc8c8',
  turquoise: '#1fc8c8',
  cyan: '#1fd2e0',
  blue: '#2f6fed',
  navy: '#1c2f7a',
  purple: '#8a4fff',
  violet: '#8a4fff',
  lilac: '#b58cff',
  pink: '#ff5fa2',
  magenta: '#e6148c',
  brown: '#8a5a34',
  white: '#f4f6fa',
  silver: '#c9ced6',
  grey: '#8a8f99',
  gray: '#8a8f99',
  black: '#23232b',
};

const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  single: 1,
  lone: 1,
  two: 2,
  pair: 2,
  couple: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  several: 3,
  few: 3,
  many: 5,
  some: 3,
};
const MAX_COUNT = 6;

/** Prepositions, longest first, with the relation they set up. */
const RELATIONS: Array<[string[], Relation]> = [
  [['in', 'front', 'of'], 'in_front_of'],
  [['on', 'top', 'of'], 'on'],
  [['next', 'to'], 'next_to'],
  [['close', 'to'], 'next_to'],
  [['on'], 'on'],
  [['onto'], 'on'],
  [['atop'], 'on'],
  [['over'], 'over'],
  [['above'], 'over'],
  [['under'], 'under'],
  [['below'], 'under'],
  [['beneath'], 'under'],
  [['underneath'], 'under'],
  [['beside'], 'next_to'],
  [['near'], 'next_to'],
  [['by'], 'next_to'],
  [['with'], 'next_to'],
  [['in'], 'in'],
  [['inside'], 'in'],
  [['into'], 'in'],
  [['behind'], 'behind'],
];

/** Words that end a noun phrase's relation: "a cat and a dog" are side by side, not related. */
const BREAKS = new Set(['and', ',', ';', '.', 'while', 'or']);

/** The English plural of a vocabulary word, back to its singular. */
export function singular(word: string): string[] {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('ves')) forms.push(`${word.slice(0, -3)}f`, `${word.slice(0, -3)}fe`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) forms.push(word.slice(0, -1));
  const irregular: Record<string, string> = {
    mice: 'mouse',
    geese: 'goose',
    children: 'child',
    men: 'man',
    women: 'woman',
    sheep: 'sheep',
    deer: 'deer',
    fish: 'fish',
    puppies: 'puppy',
  };
  if (irregular[word]) forms.unshift(irregular[word]);
  return forms;
}

export function tokens(prompt: string): string[] {
  return prompt
    .toLowerCase()
    .replace(/[’']s\b/g, '')
    .split(/([,;.]|[^a-z0-9,;.-]+)/)
    .map((t) => t.trim())
    .filter((t) => t && !/^-+$/.test(t));
}

export function parseSubjects(prompt: string, vocabulary: ReadonlyMap<string, SubjectArt>): SubjectSpec[] {
  const words = tokens(prompt);
  const subjects: SubjectSpec[] = [];
  let phraseStart = 0;
  let pendingRelation: Relation | null = null;
  let relationAnchor: number | null = null;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (BREAKS.has(word)) {
      pendingRelation = null;
      relationAnchor = null;
      phraseStart = i + 1;
      continue;
    }
    const relation = RELATIONS.find(([parts]) => parts.every((part, k) => words[i + k] === part));
    if (relation) {
      pendingRelation = relation[1];
      phraseStart = i + relation[0].length;
      i += relation[0].length - 1;
      continue;
    }
    const found = lookUp(words, i, vocabulary);
    if (!found) continue;
    // "A flower meadow", "a coffee shop": the noun names a kind of place, which the scene draws.
    if (PLACE_HEADS.has(words[i + found.length] ?? '')) continue;
    // Trees and flowers in the plural are the scene's forest and meadow, not a row of icons.
    if (found.plural && SCENE_PLURALS.test(found.art.icon)) continue;
    const { art, noun, length, plural } = found;
    // Modifiers between the phrase start and the noun: a count and a colour.
    let count: number | null = null;
    let colour: SubjectSpec['colour'] = null;
    let start = i;
    for (let k = i - 1; k >= phraseStart; k--) {
      const modifier = words[k]!;
      const number = NUMBERS[modifier] ?? (/^\d+$/.test(modifier) ? Number(modifier) : undefined);
      if (number !== undefined && count === null) {
        count = number;
        start = k;
      } else if (COLOURS[modifier] && !colour) {
        colour = { word: modifier, hex: COLOURS[modifier] };
        start = k;
      } else if (lookUp(words, k, vocabulary)) break;
    }
    const amount = Math.max(1, Math.min(MAX_COUNT, count ?? (plural ? 3 : 1)));
    const existing = subjects.findIndex((s) => s.art.icon === art.icon && !s.relation && !pendingRelation);
    const spec: SubjectSpec = {
      noun,
      art,
      count: amount,
      colour,
      relation: null,
      phrase: words.slice(start, i + length).join(' '),
    };
    if (pendingRelation && relationAnchor !== null) {
      // "X on Y": the earlier subject X stands in relation to this one, Y.
      const anchor = subjects[relationAnchor]!;
      if (!anchor.relation) anchor.relation = { kind: pendingRelation, to: subjects.length };
    }
    if (existing >= 0 && subjects[existing]!.noun === noun) {
      relationAnchor = existing;
    } else {
      subjects.push(spec);
      relationAnchor = subjects.length - 1;
    }
    pendingRelation = null;
    phraseStart = i + length;
    i += length - 1;
  }
  return subjects;
}

function lookUp(
  words: string[],
  at: number,
  vocabulary: ReadonlyMap<string, SubjectArt>,
): { art: SubjectArt; noun: string; length: number; plural: boolean } | null {
  for (const length of [3, 2, 1]) {
    if (at + length > words.length) continue;
    const head = words.slice(at, at + length - 1);
    const last = words[at + length - 1]!;
    for (const form of singular(last)) {
      const noun = [...head, form].join(' ');
      const art = vocabulary.get(noun);
      if (art) return { art, noun, length, plural: form !== last && !SINGULAR_S.has(last) };
    }
  }
  return null;
}

const PLACE_HEADS = new Set([
  'meadow',
  'meadows',
  'field',
  'fields',
  'garden',
  'gardens',
  'shop',
  'forest',
  'park',
  'farm',
  'trees',
]);
const SCENE_PLURALS = /tree|tulip|rose|flower|blossom|hibiscus/;

/** Words ending in s that are not plurals. */
const SINGULAR_S = new Set(['bus', 'cactus', 'octopus', 'glass', 'dress', 'walrus', 'platypus', 'hibiscus']);

/**
 * Words the picture cannot show: what is left of the prompt once the subjects, the scene's words,
 * counts, colours, relations and small words are taken out, in prompt order.
 */
export function undrawnWords(prompt: string, drawn: (word: string) => boolean): string[] {
  const left: string[] = [];
  for (const word of tokens(prompt)) {
    if (word.length < 3 || /^[,;.\d]/.test(word) || STOP_WORDS.has(word) || NUMBERS[word] || COLOURS[word])
      continue;
    if (RELATIONS.some(([parts]) => parts.includes(word))) continue;
    if (drawn(word) || singular(word).some(drawn)) continue;
    if (!left.includes(word)) left.push(word);
  }
  return left;
}

const STOP_WORDS = new Set(
  (
    'the and with for from into onto over under near this that these those its his her their our your ' +
    'very some any all while where when which who whom what there here then than are was were been being ' +
    'has have had having can could would should will shall may might must does did doing done just also ' +
    'photo picture image scene drawing shot view beautiful nice lovely pretty cute cozy cosy little small ' +
    'big large huge tiny giant sitting standing lying flying walking running sleeping playing looking ' +
    'made full lots lot of top front close next beside behind inside above below beneath atop during ' +
    'photorealistic realistic detailed high quality soft natural light lighting style art sharp focus ' +
    'background foreground together around between against along across through toward towards'
  ).split(' '),
);
