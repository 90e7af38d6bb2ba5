import { engineNote, type EngineNote } from '../pipeline.types.js';
import { hsl, mixHex, shiftHex } from '../raster/colour.js';
import { createRng, hashText, mixSeeds, pick, range } from '../raster/random.js';
import { subjectVocabulary } from './subjects.art.js';
import { parseSubjects, type SubjectSpec, undrawnWords } from './subjects.models.js';

/**
 * The simple mode's "understanding" of a prompt: which words the procedural renderer can draw and
 * what they become (time of day, scene elements, mood, colours, shape). Pure and deterministic, so
 * the notes shown to the user can say exactly which words were used.
 */

export type TimeOfDay = 'day' | 'sunrise' | 'golden' | 'sunset' | 'dusk' | 'night';

export type SceneFeature =
  | 'space'
  | 'galaxy'
  | 'planet'
  | 'mountains'
  | 'hills'
  | 'sea'
  | 'lake'
  | 'forest'
  | 'city'
  | 'desert'
  | 'snow'
  | 'flowers'
  | 'clouds'
  | 'sun'
  | 'moon'
  | 'stars'
  | 'aurora'
  | 'rain'
  | 'bokeh'
  | 'beach'
  | 'palms'
  | 'interior'
  | 'cafe'
  | 'abstract';

export type Mood = 'neon' | 'pastel' | 'dark' | 'vintage' | 'minimal';

export type Shape = 'square' | 'portrait' | 'landscape' | 'wide';

export interface ScenePalette {
  /** Sky from the zenith to the horizon. */
  sky: string[];
  sun: string;
  glow: string;
  /** Distant and near land, for atmospheric perspective in between. */
  far: string;
  near: string;
  ground: string;
  water: string;
  /** Lit windows, lanterns, bokeh. */
  lights: string;
  /** Colours named in the prompt (or picked for it), for flowers, nebulae and abstract shapes. */
  accents: string[];
}

export interface ScenePlan {
  width: number;
  height: number;
  shape: Shape;
  time: TimeOfDay;
  features: Set<SceneFeature>;
  moods: Set<Mood>;
  palette: ScenePalette;
  /** The prompt's words the renderer used, in prompt order, as written (lower-cased). */
  keywords: string[];
  /** Seed for every random choice in rendering: the request's seed mixed with the prompt. */
  renderSeed: number;
  /** The things the prompt asks for, drawn from emoji art into the scene (composeSubjects places them). */
  subjects: SubjectSpec[];
  /** The prompt's words that neither the scene nor a subject draws, in prompt order. */
  undrawn: string[];
}

interface LexiconEntry {
  pattern: RegExp;
  time?: TimeOfDay;
  features?: SceneFeature[];
  mood?: Mood;
  shape?: Shape;
  colour?: string;
}

/** Order matters only for times of day: a later match of another time overrides an earlier one. */
const LEXICON: LexiconEntry[] = [
  { pattern: /^(sunsets?|dusk|evening|sundown)$/, time: 'sunset', features: ['sun'] },
  { pattern: /^(sunrise|dawn|daybreak|morning)$/, time: 'sunrise', features: ['sun'] },
  { pattern: /^(golden|goldenhour)$/, time: 'golden', features: ['sun'] },
  { pattern: /^(twilight|bluehour)$/, time: 'dusk' },
  {
    pattern: /^(night|nights|midnight|nighttime|nocturnal|moonlit|moonlight)$/,
    time: 'night',
    features: ['moon', 'stars'],
  },
  { pattern: /^(day|daytime|daylight|noon|midday|sunny|sunshine|summer)$/, time: 'day', features: ['sun'] },
  { pattern: /^(sun|sunlight|sunbeams?)$/, features: ['sun'] },
  { pattern: /^(moon|full moon|crescent|lunar)$/, features: ['moon'] },
  {
    pattern: /^(space|outer space|cosmos|cosmic|universe|nebula|nebulae|astronaut|interstellar|celestial)$/,
    features: ['space', 'stars'],
  },
  { pattern: /^(galaxy|galaxies|milky way|spiral)$/, features: ['space', 'stars', 'galaxy'] },
  { pattern: /^(planet|planets|saturn|jupiter|mars|exoplanet)$/, features: ['space', 'stars', 'planet'] },
  { pattern: /^(stars?|starry|starlight|constellations?)$/, features: ['stars'] },
  { pattern: /^(aurora|auroras|northern lights|borealis)$/, time: 'night', features: ['aurora', 'stars'] },
  {
    pattern: /^(mountains?|peaks?|alps|alpine|himalaya|summit|cliffs?|ridges?|volcano|valley)$/,
    features: ['mountains'],
  },
  { pattern: /^(hills?|hillside|countryside|rolling)$/, features: ['hills'] },
  { pattern: /^(sea|seas|ocean|oceans|waves?|coast|coastal|seaside|bay|surf)$/, features: ['sea'] },
  { pattern: /^(beach|beaches|shore|sandy beach|seashore)$/, features: ['sea', 'beach'] },
  {
    pattern: /^(tropical|tropics|island|islands|palms?|palm trees?|paradise|caribbean|hawaii|maldives)$/,
    features: ['sea', 'beach', 'palms'],
  },
  { pattern: /^(lake|lakes|river|rivers|pond|water|lagoon|fjord)$/, features: ['lake'] },
  // A single tree is a subject (drawn from the art); trees and woods are the scene's forest.
  { pattern: /^(forest|forests|trees|woods|woodland|jungle|pines?|taiga|grove)$/, features: ['forest'] },
  {
    pattern: /^(cafe|café|coffeehouse|coffeeshop|restaurant|bistro|bar|pub|bakery)$/,
    features: ['interior', 'cafe'],
  },
  {
    pattern: /^(room|bedroom|livingroom|kitchen|interior|indoors|office|library|studio)$/,
    features: ['interior'],
  },
  {
    pattern: /^(paris|london|tokyo|newyork|berlin|moscow|rome|venice|baku|almaty|kyiv)$/,
    features: ['city'],
  },
  {
    pattern:
      /^(city|cities|skyline|town|urban|buildings?|downtown|metropolis|skyscrapers?|street|cyberpunk)$/,
    features: ['city'],
  },
  { pattern: /^(desert|deserts|dunes?|sand|sandy|sahara|canyon|arid)$/, features: ['desert'] },
  { pattern: /^(snow|snowy|winter|ice|icy|frozen|arctic|glacier|snowfall|frost)$/, features: ['snow'] },
  {
    pattern:
      /^(flowers?|floral|garden|gardens|meadow|meadows|field|fields|blossoms?|spring|roses?|tulips?|bloom|blooming|lavender field|poppies)$/,
    features: ['flowers'],
  },
  { pattern: /^(clouds?|cloudy|overcast|sky|skies)$/, features: ['clouds'] },
  { pattern: /^(rain|rainy|storm|stormy|drizzle|thunderstorm)$/, features: ['rain', 'clouds'] },
  {
    pattern:
      /^(bokeh|lights|fireflies|sparkles?|sparkling|glitter|particles|lanterns?|glow|glowing|fairy lights|magical|magic)$/,
    features: ['bokeh'],
  },
  {
    pattern: /^(abstract|pattern|patterns|geometric|shapes|gradient|minimal art|generative|fluid)$/,
    features: ['abstract'],
  },
  { pattern: /^(neon|synthwave|vaporwave|retrowave|outrun|cyber)$/, mood: 'neon' },
  { pattern: /^(pastel|pastels|soft|dreamy|kawaii|gentle)$/, mood: 'pastel' },
  { pattern: /^(dark|moody|gloomy|noir|mysterious|gothic)$/, mood: 'dark' },
  { pattern: /^(vintage|retro|film|analog|analogue|nostalgic|polaroid)$/, mood: 'vintage' },
  { pattern: /^(minimal|minimalist|minimalistic|simple|calm|serene|peaceful)$/, mood: 'minimal' },
  { pattern: /^(portrait|vertical|tall|phone|story)$/, shape: 'portrait' },
  { pattern: /^(landscape|horizontal)$/, shape: 'landscape' },
  { pattern: /^(wide|widescreen|panorama|panoramic|cinematic|banner|ultrawide)$/, shape: 'wide' },
  { pattern: /^(square)$/, shape: 'square' },
  { pattern: /^(red|crimson|scarlet|ruby)$/, colour: '#e0303a' },
  { pattern: /^(orange|amber|tangerine)$/, colour: '#ff8a1f' },
  { pattern: /^(yellow|lemon)$/, colour: '#ffd42a' },
  { pattern: /^(gold|golden)$/, colour: '#f2b632' },
  { pattern: /^(green|emerald|lime|jade)$/, colour: '#2fbf71' },
  { pattern: /^(teal|turquoise|cyan|aqua|aquamarine)$/, colour: '#1fc8c8' },
  { pattern: /^(blue|azure|cobalt|sapphire|navy)$/, colour: '#2f6fed' },
  { pattern: /^(purple|violet|lavender|lilac|indigo|amethyst)$/, colour: '#8a4fff' },
  { pattern: /^(pink|rose|fuchsia|blush)$/, colour: '#ff5fa2' },
  { pattern: /^(magenta)$/, colour: '#e6148c' },
  { pattern: /^(brown|bronze|copper|rust)$/, colour: '#b0643a' },
  { pattern: /^(silver|white|ivory|pearl)$/, colour: '#e8ecf2' },
  { pattern: /^(black|obsidian|ebony)$/, colour: '#1a1a24' },
];

/** Two-word phrases are joined first so "northern lights" or "golden hour" match as one keyword. */
const PHRASES: Array<[RegExp, string]> = [
  [/\bnorthern lights\b/g, 'northern lights'],
  [/\bmilky way\b/g, 'milky way'],
  [/\bgolden hour\b/g, 'goldenhour'],
  [/\bblue hour\b/g, 'bluehour'],
  [/\bouter space\b/g, 'outer space'],
  [/\bfull moon\b/g, 'full moon'],
  [/\bfairy lights\b/g, 'fairy lights'],
  [/\blavender fields?\b/g, 'lavender field'],
  [/\bpalm trees\b/g, 'palm trees'],
  [/\bliving room\b/g, 'livingroom'],
  [/\bcoffee (shop|house)\b/g, 'coffeeshop'],
  [/\bnew york\b/g, 'newyork'],
];

const GROUND_FEATURES: SceneFeature[] = [
  'mountains',
  'hills',
  'sea',
  'lake',
  'forest',
  'city',
  'desert',
  'flowers',
];

const SHAPE_SIZES: Record<Shape, [number, number]> = {
  square: [1024, 1024],
  portrait: [768, 1024],
  landscape: [1024, 768],
  wide: [1024, 576],
};

/** Furniture means a room unless the prompt names somewhere outdoors. */
const INDOOR_ART =
  /^(couch-and-lamp|bed|chair|bathtub|toilet|window|door|mantelpiece-clock|framed-picture|table)$/;
const OUTDOOR: SceneFeature[] = [
  'mountains',
  'hills',
  'sea',
  'lake',
  'forest',
  'city',
  'desert',
  'snow',
  'beach',
  'space',
  'flowers',
];

export function planScene(prompt: string, seed: number): ScenePlan {
  const subjects = parseSubjects(prompt, subjectVocabulary());
  // The subjects' words ("three red balloons") are theirs: their colour tints them, not the sky
  // (it is still a keyword the picture used).
  let text = ` ${prompt.toLowerCase()} `;
  const subjectColours: string[] = [];
  for (const subject of subjects) {
    text = text.replace(subject.phrase, subject.colour ? ` ${subject.colour.word} ` : ' ');
    if (subject.colour) subjectColours.push(subject.colour.word);
  }
  const phraseTokens: string[] = [];
  for (const [pattern, token] of PHRASES) {
    text = text.replace(pattern, () => {
      phraseTokens.push(token);
      return ` §${phraseTokens.length - 1} `;
    });
  }
  const words = text
    .split(/[^a-z0-9§'-]+/)
    .filter(Boolean)
    .map((word) => (word.startsWith('§') ? (phraseTokens[Number(word.slice(1))] ?? word) : word));

  let time: TimeOfDay | null = null;
  let shape: Shape = 'square';
  const features = new Set<SceneFeature>();
  const moods = new Set<Mood>();
  const colours: string[] = [];
  const keywords: string[] = [];
  for (const word of words) {
    const entry = LEXICON.find((candidate) => candidate.pattern.test(word));
    if (!entry) continue;
    if (!keywords.includes(displayWord(word))) keywords.push(displayWord(word));
    if (entry.time) time = entry.time;
    for (const feature of entry.features ?? []) features.add(feature);
    if (entry.mood) moods.add(entry.mood);
    if (entry.shape) shape = entry.shape;
    const ownedBySubject = entry.colour ? subjectColours.indexOf(word) : -1;
    if (ownedBySubject >= 0) subjectColours.splice(ownedBySubject, 1);
    else if (entry.colour && !colours.includes(entry.colour)) colours.push(entry.colour);
  }

  const renderSeed = mixSeeds(seed, hashText(prompt.trim().toLowerCase()));
  const rng = createRng(renderSeed);
  if (
    subjects.some((subject) => INDOOR_ART.test(subject.art.icon)) &&
    !OUTDOOR.some((feature) => features.has(feature))
  ) {
    features.add('interior');
  }
  if (features.has('cafe')) addCafeProps(subjects);
  // Things asked for make a scene of their own: a meadow to stand on, not an abstract.
  if (
    subjects.length > 0 &&
    !features.has('space') &&
    !features.has('snow') &&
    !GROUND_FEATURES.some((feature) => features.has(feature))
  ) {
    features.add('hills');
  }
  const scenic = [...features].some((feature) => feature !== 'abstract' && feature !== 'bokeh');
  // Nothing drawable named (a person, a cat, "my birthday"): a seeded abstract composition, which is
  // pleasant and honest rather than a failed attempt at the subject.
  if (!scenic) features.add('abstract');
  if ((features.has('space') || features.has('stars')) && !time) time = 'night';
  if (!time) {
    time =
      features.has('abstract') || features.has('snow')
        ? 'day'
        : pick(rng, ['day', 'golden', 'sunset', 'day'] as const);
  }
  if (time === 'night') {
    features.add('stars');
    features.delete('sun');
  }
  const hasGround = GROUND_FEATURES.some((feature) => features.has(feature));
  if (features.has('snow') && !hasGround) features.add('hills');
  // A sky needs something to stand over: a seeded landform when the prompt names only the sky.
  else if (!features.has('abstract') && !features.has('space') && !hasGround) {
    features.add(pick(rng, ['hills', 'sea', 'mountains', 'lake'] as const));
  }
  // Meadows roll away into hills rather than ending at a ruler-straight horizon.
  if (
    features.has('flowers') &&
    !['mountains', 'hills', 'forest', 'city', 'sea', 'lake'].some((f) => features.has(f as SceneFeature))
  ) {
    features.add('hills');
  }
  // A lake has a far shore; without one it would read as the open sea.
  if (
    features.has('lake') &&
    !['mountains', 'hills', 'forest', 'city'].some((f) => features.has(f as SceneFeature))
  ) {
    features.add(pick(rng, ['forest', 'mountains', 'hills'] as const));
  }

  const [width, height] = SHAPE_SIZES[shape];
  const drawnWords = new Set([...keywords, ...subjects.flatMap((s) => s.phrase.split(' '))]);
  return {
    width,
    height,
    shape,
    time,
    features,
    moods,
    palette: buildPalette(time, moods, colours, features, rng),
    keywords,
    renderSeed,
    subjects,
    undrawn: undrawnWords(prompt, (word) => drawnWords.has(word)),
  };
}

/** A cafe has a table with a coffee and a croissant on it, unless the prompt put its own there. */
function addCafeProps(subjects: SubjectSpec[]) {
  const vocabulary = subjectVocabulary();
  let table = subjects.findIndex((s) => s.art.icon === 'table');
  if (table < 0) {
    subjects.push({
      noun: 'table',
      art: vocabulary.get('table')!,
      count: 1,
      colour: null,
      relation: null,
      phrase: '',
      prop: true,
    });
    table = subjects.length - 1;
  }
  for (const noun of ['coffee', 'croissant']) {
    const art = vocabulary.get(noun)!;
    if (subjects.some((s) => s.art.icon === art.icon)) continue;
    subjects.push({
      noun,
      art,
      count: 1,
      colour: null,
      relation: { kind: 'on', to: table },
      phrase: '',
      prop: true,
    });
  }
}

const displayWord = (word: string) =>
  word === 'goldenhour' ? 'golden hour' : word === 'bluehour' ? 'blue hour' : word;

const BASE_PALETTES: Record<TimeOfDay, Omit<ScenePalette, 'accents'>> = {
  day: {
    sky: ['#2f6fc4', '#5f9ee6', '#a9d2f5', '#e3f1fb'],
    sun: '#fffdf2',
    glow: '#fff6d6',
    far: '#9fbcd9',
    near: '#35506b',
    ground: '#4f8a4b',
    water: '#2b6e9e',
    lights: '#fff4c9',
  },
  sunrise: {
    sky: ['#2c3a70', '#8a6fa8', '#f3a27e', '#ffd9a3'],
    sun: '#fff3c9',
    glow: '#ffc98f',
    far: '#b49bb6',
    near: '#3b3556',
    ground: '#4a5a45',
    water: '#5a6f9a',
    lights: '#ffe1a8',
  },
  golden: {
    sky: ['#3e6fae', '#90a9c4', '#f5c677', '#ffe5a8'],
    sun: '#fff2c2',
    glow: '#ffd27a',
    far: '#c4a88a',
    near: '#4b4033',
    ground: '#7a7a3a',
    water: '#4d7391',
    lights: '#ffe0a0',
  },
  sunset: {
    sky: ['#1c1a4a', '#6a2c70', '#e0556b', '#ffae5c'],
    sun: '#ffe6a1',
    glow: '#ff9a5a',
    far: '#8e4a78',
    near: '#2a1735',
    ground: '#3a2238',
    water: '#5a3466',
    lights: '#ffcf7a',
  },
  dusk: {
    sky: ['#0e1738', '#2e3a7a', '#7a5c9e', '#d9889e'],
    sun: '#ffd6c0',
    glow: '#c98bb0',
    far: '#5c5a8e',
    near: '#1c1d3a',
    ground: '#24284a',
    water: '#2c3a6e',
    lights: '#ffd08a',
  },
  night: {
    sky: ['#02040d', '#07112b', '#112451', '#24406e'],
    sun: '#f4f1e4',
    glow: '#9fb6e0',
    far: '#1f3358',
    near: '#070d1c',
    ground: '#0c1526',
    water: '#0d1d3d',
    lights: '#ffd27a',
  },
};

function buildPalette(
  time: TimeOfDay,
  moods: Set<Mood>,
  colours: string[],
  features: Set<SceneFeature>,
  rng: () => number,
): ScenePalette {
  let palette: ScenePalette = { ...BASE_PALETTES[time], sky: [...BASE_PALETTES[time].sky], accents: [] };
  const hueJitter = range(rng, -12, 12);
  palette = mapPalette(palette, (colour) => shiftHex(colour, hueJitter));
  if (colours.length > 0) {
    // Named colours tint the sky and water a little and lead the accents.
    const tint = colours[0]!;
    palette.sky = palette.sky.map((colour, i) => mixHex(colour, tint, 0.18 + 0.06 * i));
    palette.water = mixHex(palette.water, tint, 0.25);
    palette.far = mixHex(palette.far, tint, 0.15);
    palette.accents = [...colours];
  }
  if (palette.accents.length > 0) {
    // A named colour leads: fill up with its neighbours (lighter, darker, slightly shifted hues), so
    // "red" gives a red picture rather than red plus three random colours.
    const lead = palette.accents[0]!;
    const variations = [
      shiftHex(lead, 28, 1, 0.08),
      shiftHex(lead, -24, 0.9, -0.12),
      shiftHex(lead, 12, 0.6, 0.25),
    ];
    for (const variation of variations) if (palette.accents.length < 4) palette.accents.push(variation);
  }
  while (palette.accents.length < 4) {
    const base = palette.accents[0] ?? hsl(range(rng, 0, 360), 0.75, 0.6);
    palette.accents.push(
      palette.accents.length === 0
        ? base
        : shiftHex(base, 360 * range(rng, 0.18, 0.42) * palette.accents.length),
    );
  }
  if (features.has('snow')) {
    // Snow light: everything cooler and paler, the ground white.
    palette.far = mixHex(palette.far, '#dce6f0', 0.5);
    palette.near = mixHex(palette.near, '#4a5d75', 0.5);
    palette.ground = '#e8f0f8';
  }
  if (features.has('flowers')) palette.ground = mixHex(palette.ground, '#5f9a4a', 0.5);
  if (moods.has('neon')) {
    palette = {
      ...palette,
      sky: ['#07021a', '#2a0a4f', '#7a1a7a', '#ff3d8b'],
      sun: '#ffe14d',
      glow: '#ff3da0',
      far: '#5b1a7a',
      near: '#12062a',
      water: '#1a0b3d',
      lights: '#3df2ff',
      accents: ['#ff2bd6', '#2bf2ff', '#ffe14d', '#7a3dff'],
    };
  }
  if (moods.has('pastel'))
    palette = mapPalette(palette, (colour) => mixHex(shiftHex(colour, 0, 0.7), '#fff5fa', 0.45));
  if (moods.has('dark')) palette = mapPalette(palette, (colour) => mixHex(colour, '#05060c', 0.4));
  if (moods.has('vintage'))
    palette = mapPalette(palette, (colour) => mixHex(shiftHex(colour, 0, 0.75), '#e8c89a', 0.18));
  return palette;
}

function mapPalette(palette: ScenePalette, map: (colour: string) => string): ScenePalette {
  return {
    sky: palette.sky.map(map),
    sun: map(palette.sun),
    glow: map(palette.glow),
    far: map(palette.far),
    near: map(palette.near),
    ground: map(palette.ground),
    water: map(palette.water),
    lights: map(palette.lights),
    accents: palette.accents.map(map),
  };
}

/** The honest description shown with a simple-mode result. */
export function describeScene(plan: ScenePlan): EngineNote[] {
  const notes = [
    engineNote(
      'scene.procedural',
      'Procedural rendering by the offline local engine: the picture is drawn from the prompt’s keywords, ' +
        'not generated by an AI model.',
    ),
  ];
  notes.push(
    plan.keywords.length > 0
      ? engineNote('scene.keywords', `Keywords used: ${plan.keywords.join(', ')}.`, {
          keywords: plan.keywords.join(', '),
        })
      : engineNote(
          'scene.no_keywords',
          'No drawable keywords found, so this is an abstract composition seeded by the prompt.',
        ),
  );
  if (plan.features.has('abstract') && plan.keywords.length > 0 && plan.features.size === 1) {
    notes.push(engineNote('scene.abstract', 'Abstract composition in the prompt’s colours and mood.'));
  }
  notes.push(...describeSubjects(plan));
  return notes;
}

/** The art the subjects come from, as the notes credit it. */
export const SUBJECT_ART_CREDIT = 'Fluent Emoji by Microsoft (MIT licence)';

/**
 * What of the prompt was drawn as a thing and from which art, and which words were not drawn.
 * Subjects are named with their emoji beside the English word, which reads in any language.
 */
export function describeSubjects(plan: Pick<ScenePlan, 'subjects' | 'undrawn'>): EngineNote[] {
  const notes: EngineNote[] = [];
  const asked = plan.subjects.filter((subject) => !subject.prop);
  if (asked.length > 0) {
    const subjects = asked
      .map((s) => `${s.art.emoji ? `${s.art.emoji} ` : ''}${s.noun}${s.count > 1 ? ` ×${s.count}` : ''}`)
      .join(', ');
    notes.push(
      engineNote('scene.subjects', `Drawn from emoji art (${SUBJECT_ART_CREDIT}): ${subjects}.`, {
        subjects,
        art: SUBJECT_ART_CREDIT,
      }),
    );
  }
  if (plan.undrawn.length > 0) {
    const words = plan.undrawn.join(', ');
    notes.push(
      engineNote('scene.not_drawn', `Not drawn (the offline engine cannot show these words): ${words}.`, {
        words,
      }),
    );
  }
  return notes;
}
