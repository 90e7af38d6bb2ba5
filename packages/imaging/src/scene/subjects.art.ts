import { createRequire } from 'node:module';

/**
 * The art the offline engine draws a prompt's subjects from: Microsoft's Fluent Emoji (flat), MIT
 * licensed, as the Iconify JSON set published on npm, found by English words through the emoji
 * annotations of emojibase-data (MIT) plus our own synonyms. A few things no emoji shows (a
 * lighthouse, a table) are drawn here in the same flat style. Both sets load once per process, on
 * first use, and stay in memory (about 9 MB of SVG text).
 */

export interface SubjectArt {
  /** Icon name in the art set ("fox", "couch-and-lamp"), or our own drawing's name. */
  icon: string;
  /** Where the art comes from, as the notes name it. */
  source: 'fluent-emoji' | 'mirra';
  /** The emoji group: how big the thing is in the world and whether it flies come from it. */
  group: SubjectGroup;
  /** The emoji character it shows (none for our own drawings): the notes show it beside the word. */
  emoji?: string;
}

export type SubjectGroup = 'person' | 'animal' | 'plant' | 'food' | 'place' | 'vehicle' | 'object';

interface IconifySet {
  icons: Record<string, { body: string; width?: number; height?: number }>;
  aliases?: Record<string, { parent: string }>;
  width?: number;
  height?: number;
}

interface EmojibaseEntry {
  label: string;
  unicode?: string;
  group?: number;
  tags?: string[];
  skins?: unknown;
}

const require = createRequire(import.meta.url);
let fluent: IconifySet | null = null;
let vocabulary: Map<string, SubjectArt> | null = null;

function fluentSet(): IconifySet {
  fluent ??= require('@iconify-json/fluent-emoji-flat/icons.json') as IconifySet;
  return fluent;
}

/** Emojibase groups: 1 people, 3 animals and nature, 4 food, 5 travel and places, 6 activities, 7 objects. */
const GROUPS: Record<number, SubjectGroup> = {
  1: 'person',
  3: 'animal',
  4: 'food',
  5: 'place',
  6: 'object',
  7: 'object',
};

/** Plants are in the animals-and-nature group; their icons say so. */
const PLANT_ICONS =
  /tree|flower|rose|tulip|blossom|sunflower|hibiscus|cactus|herb|leaf|leaves|seedling|mushroom|bouquet|shamrock|clover|lotus|hyacinth|sheaf|plant/;
const VEHICLE_ICONS =
  /car$|^automobile|bus$|truck|train|tram|bicycle|motorcycle|scooter|boat|ship|sailboat|canoe|ferry|airplane|helicopter|rocket|ufo|flying-saucer|taxi|tractor|locomotive|kick-scooter|speedboat/;

/**
 * Our own words for things, to the icon that shows them: what the annotations lack or word
 * differently (the annotations say "automobile", people say "car").
 */
const SYNONYMS: Record<string, string> = {
  car: 'automobile',
  cars: 'automobile',
  sofa: 'couch-and-lamp',
  couch: 'couch-and-lamp',
  kitten: 'cat',
  kitty: 'cat',
  puppy: 'dog',
  doggy: 'dog',
  boat: 'sailboat',
  yacht: 'sailboat',
  plane: 'airplane',
  aeroplane: 'airplane',
  aircraft: 'airplane',
  bike: 'bicycle',
  motorbike: 'motorcycle',
  person: 'person-standing',
  man: 'man-standing',
  woman: 'woman-standing',
  girl: 'woman-standing',
  boy: 'man-standing',
  child: 'person-standing',
  kid: 'person-standing',
  baby: 'baby',
  people: 'people-hugging',
  couple: 'people-hugging',
  family: 'people-hugging',
  friends: 'people-hugging',
  tree: 'deciduous-tree',
  oak: 'deciduous-tree',
  pine: 'evergreen-tree',
  fir: 'evergreen-tree',
  'palm tree': 'palm-tree',
  palm: 'palm-tree',
  'christmas tree': 'christmas-tree',
  flower: 'tulip',
  bouquet: 'bouquet',
  coffee: 'hot-beverage',
  'cup of coffee': 'hot-beverage',
  'cup of tea': 'teacup-without-handle',
  grandmother: 'old-woman',
  grandma: 'old-woman',
  grandfather: 'old-man',
  grandpa: 'old-man',
  eagle: 'eagle',
  yurt: 'tent',
  warrior: 'person-fencing',
  superhero: 'person-superhero',
  angel: 'baby-angel',
  children: 'person-standing',
  tea: 'teacup-without-handle',
  cup: 'hot-beverage',
  mug: 'hot-beverage',
  cake: 'shortcake',
  'birthday cake': 'birthday-cake',
  pizza: 'pizza',
  book: 'open-book',
  books: 'books',
  lamp: 'light-bulb',
  'hot air balloon': 'balloon',
  castle: 'castle',
  palace: 'castle',
  house: 'house',
  home: 'house',
  cottage: 'house-with-garden',
  hut: 'hut',
  church: 'church',
  temple: 'hindu-temple',
  tent: 'tent',
  bridge: 'bridge-at-night',
  robot: 'robot',
  alien: 'alien',
  ghost: 'ghost',
  dragon: 'dragon',
  dinosaur: 't-rex',
  dino: 't-rex',
  bird: 'bird',
  owl: 'owl',
  horse: 'horse',
  pony: 'horse',
  unicorn: 'unicorn',
  bear: 'bear',
  'teddy bear': 'teddy-bear',
  'polar bear': 'polar-bear',
  bunny: 'rabbit',
  rabbit: 'rabbit',
  hare: 'rabbit',
  mouse: 'mouse',
  fish: 'tropical-fish',
  whale: 'spouting-whale',
  dolphin: 'dolphin',
  shark: 'shark',
  turtle: 'turtle',
  snake: 'snake',
  frog: 'frog',
  penguin: 'penguin',
  duck: 'duck',
  swan: 'swan',
  chicken: 'chicken',
  hen: 'chicken',
  cow: 'cow',
  pig: 'pig',
  sheep: 'ewe',
  lamb: 'ewe',
  goat: 'goat',
  deer: 'deer',
  elephant: 'elephant',
  giraffe: 'giraffe',
  lion: 'lion',
  tiger: 'tiger',
  wolf: 'wolf',
  fox: 'fox',
  monkey: 'monkey',
  squirrel: 'chipmunk',
  hedgehog: 'hedgehog',
  butterfly: 'butterfly',
  bee: 'honeybee',
  ladybug: 'lady-beetle',
  snail: 'snail',
  spider: 'spider',
  bat: 'bat',
  apple: 'red-apple',
  guitar: 'guitar',
  piano: 'musical-keyboard',
  umbrella: 'umbrella',
  chair: 'chair',
  bed: 'bed',
  door: 'door',
  window: 'window',
  clock: 'mantelpiece-clock',
  candle: 'candle',
  lantern: 'red-paper-lantern',
  gift: 'wrapped-gift',
  present: 'wrapped-gift',
  ball: 'soccer-ball',
  kite: 'kite',
  snowman: 'snowman-without-snow',
  mushroom: 'mushroom',
  crown: 'crown',
  astronaut: 'astronaut',
  wizard: 'person-mage',
  witch: 'woman-mage',
  knight: 'person-fencing',
  princess: 'princess',
  king: 'person-with-crown',
  queen: 'princess',
  pirate: 'pirate-flag',
  ship: 'ship',
  train: 'locomotive',
  bus: 'bus',
  truck: 'delivery-truck',
  taxi: 'taxi',
  tractor: 'tractor',
  rocket: 'rocket',
  ufo: 'flying-saucer',
  'flying saucer': 'flying-saucer',
  helicopter: 'helicopter',
  cactus: 'cactus',
  sunflower: 'sunflower',
  rose: 'rose',
  tulip: 'tulip',
  vase: 'amphora',
  laptop: 'laptop',
  phone: 'mobile-phone',
  camera: 'camera',
  croissant: 'croissant',
  bread: 'bread',
  wine: 'wine-glass',
  cocktail: 'cocktail-glass',
  burger: 'hamburger',
  'ice cream': 'soft-ice-cream',
  donut: 'doughnut',
  cookie: 'cookie',
  pumpkin: 'jack-o-lantern',
  'eiffel tower': 'tokyo-tower',
  tower: 'tokyo-tower',
  'statue of liberty': 'statue-of-liberty',
  fountain: 'fountain',
  'ferris wheel': 'ferris-wheel',
  carousel: 'carousel-horse',
  skyscraper: 'office-building',
  lighthouse: 'mirra:lighthouse',
  table: 'mirra:table',
};

/** Our own drawings in the Fluent flat style, on the same 32×32 grid. */
const OWN_ART: Record<string, { body: string; group: SubjectGroup }> = {
  lighthouse: {
    group: 'place',
    body:
      '<path fill="#d4d7dd" d="M11 29h10l-1.6-17h-6.8z"/>' +
      '<path fill="#e0323e" d="M11.5 24.5h9l.35 3.5h-9.7zM12.3 16.5h7.4l.35 3.6h-8.1z"/>' +
      '<path fill="#3d3f4a" d="M12 9h8v3h-8z"/><path fill="#ffd86b" d="M13 9.4h6v2.2h-6z"/>' +
      '<path fill="#e0323e" d="M11 9l5-4.5L21 9z"/><path fill="#3d3f4a" d="M10.5 12h11v1h-11z"/>' +
      '<path fill="#9a9ea8" d="M8 29h16v1.5H8z"/>',
  },
  table: {
    group: 'object',
    body:
      '<path fill="#9b6a43" d="M3 13h26v3H3z"/><path fill="#7a5234" d="M5 16h2.4v14H5zM24.6 16H27v14h-2.4z"/>' +
      '<path fill="#b5804f" d="M2 12h28v1.6H2z"/>',
  },
};

/** Every English word the art answers to, with the art it draws. */
export function subjectVocabulary(): Map<string, SubjectArt> {
  if (vocabulary) return vocabulary;
  const icons = fluentSet();
  const exists = (name: string) => Boolean(icons.icons[name] ?? icons.aliases?.[name]);
  const map = new Map<string, SubjectArt>();
  const entries = require('emojibase-data/en/compact.json') as EmojibaseEntry[];
  const byIcon = new Map<string, SubjectArt>();
  const fromLabel = new Map<string, SubjectArt>();
  const fromHead = new Map<string, SubjectArt>();
  for (const entry of entries) {
    const group = entry.group === undefined ? undefined : GROUPS[entry.group];
    if (!group) continue;
    const icon = slug(entry.label);
    if (!exists(icon)) continue;
    const art: SubjectArt = {
      icon,
      source: 'fluent-emoji',
      group: groupOf(icon, group),
      ...(entry.unicode ? { emoji: entry.unicode } : {}),
    };
    byIcon.set(icon, art);
    const label = entry.label.toLowerCase();
    if (!label.includes(':') && !fromLabel.has(label)) fromLabel.set(label, art);
    // "red apple" is also an apple, "hot beverage" a beverage; "bridge at night" is no night.
    const words = label.split(' ');
    if (words.length === 2 && !label.includes(':') && !fromHead.has(words[1]!)) fromHead.set(words[1]!, art);
  }
  for (const [head, art] of fromHead) map.set(head, art);
  for (const [label, art] of fromLabel) map.set(label, art);
  for (const [word, icon] of Object.entries(SYNONYMS)) {
    if (icon.startsWith('mirra:')) {
      const own = OWN_ART[icon.slice(6)]!;
      map.set(word, { icon: icon.slice(6), source: 'mirra', group: own.group });
    } else if (exists(icon)) {
      map.set(word, byIcon.get(icon) ?? { icon, source: 'fluent-emoji', group: groupOf(icon, 'object') });
    }
  }
  for (const word of NOT_SUBJECTS) map.delete(word);
  vocabulary = map;
  return map;
}

/**
 * Words the scene itself draws (sky, weather, land) or that are not things: they never become a
 * pasted emoji, so "a fox in the snow" gets a snowy landscape, not a snowflake icon.
 */
const NOT_SUBJECTS = [
  'snow',
  'snowflake',
  'sun',
  'moon',
  'star',
  'stars',
  'cloud',
  'clouds',
  'rain',
  'water',
  'sea',
  'ocean',
  'wave',
  'mountain',
  'volcano',
  'beach',
  'desert',
  'island',
  'city',
  'night',
  'sunset',
  'sunrise',
  'rainbow',
  'fire',
  'fog',
  'lightning',
  'tornado',
  'comet',
  'globe',
  'earth',
  'world',
  'milky way',
  'galaxy',
  'snowy',
  'forest',
  'park',
  'street',
  'cafe',
  'room',
  'light',
  'red',
  'blue',
  'green',
  'yellow',
  'white',
  'black',
  'orange',
  'purple',
  'pink',
  'brown',
  'gold',
  'silver',
  'love',
  'heart',
  'cozy',
  'neon',
  'night with stars',
  'cityscape',
  'sunset over buildings',
  'foggy',
  'cityscape at dusk',
  'desert island',
  'national park',
  'camping',
  'face',
  'new',
  'up',
  'top',
  'cool',
  'free',
  'ok',
  'on',
  'sos',
  'id',
  'in',
  'over',
  'next',
  'back',
  'end',
  'soon',
  'a',
  'the',
  'x',
  'o',
  'snow-capped mountain',
  'mountain railway',
  'sunrise over mountains',
  'reflection',
  'reflections',
  'winter',
  'summer',
  'autumn',
  'spring',
  'morning',
  'evening',
  'dusk',
  'dawn',
  'day',
  'time',
  'weather',
  'cold',
  'hot',
  'big',
  'small',
  'little',
  'tiny',
  'old',
  'young',
  'cute',
  'beautiful',
];

function groupOf(icon: string, group: SubjectGroup): SubjectGroup {
  if (VEHICLE_ICONS.test(icon)) return 'vehicle';
  if (group === 'animal' && PLANT_ICONS.test(icon)) return 'plant';
  return group;
}

const slug = (label: string) =>
  label
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The art's SVG markup on its 32×32 grid, ready to nest in a scene. */
export function subjectSvgBody(art: Pick<SubjectArt, 'icon' | 'source'>): string {
  if (art.source === 'mirra') return OWN_ART[art.icon]?.body ?? '';
  const icons = fluentSet();
  const name = icons.icons[art.icon] ? art.icon : (icons.aliases?.[art.icon]?.parent ?? art.icon);
  return icons.icons[name]?.body ?? '';
}

/** The grid the art is drawn on. */
export const ART_GRID = 32;

/**
 * An emoji character drawn as Fluent Emoji Flat art (a whole SVG on its 32×32 grid), so it looks
 * the same on every device, also where the system font lacks it; null for an emoji the set lacks.
 */
export function emojiArtSvg(emoji: string): string | null {
  const bare = (text: string) => text.replace(/\uFE0F/g, '');
  const entries = require('emojibase-data/en/compact.json') as EmojibaseEntry[];
  const entry = entries.find((candidate) => candidate.unicode && bare(candidate.unicode) === bare(emoji));
  if (!entry) return null;
  const body = subjectSvgBody({ icon: slug(entry.label), source: 'fluent-emoji' });
  return body
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${ART_GRID} ${ART_GRID}">${body}</svg>`
    : null;
}
