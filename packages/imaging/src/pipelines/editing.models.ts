import { engineNote, type EngineNote } from '../pipeline.types.js';
import { type LightLook, matchSceneWish, type SceneOperation, type SkyLook } from './editing.scene.models.js';

/**
 * The editing mode's instruction language: plain English ("make it brighter, crop to square and black
 * and white") turned into image operations. Pure, so every phrasing is tested without an image.
 */

export type Adjustment = 'brightness' | 'contrast' | 'saturation' | 'warmth';

export type EditOperation =
  | { kind: 'rotate'; degrees: 90 | 180 | 270 }
  | { kind: 'flip'; axis: 'horizontal' | 'vertical' }
  /** aspect null: keep the shape and crop into the centre (keeping `keep` of each side). */
  | { kind: 'crop'; aspect: { width: number; height: number } | null; keep: number }
  | { kind: 'auto_levels' }
  /** Signed percent; warmth > 0 is warmer, < 0 cooler. */
  | { kind: Adjustment; percent: number }
  | { kind: 'grayscale' }
  | { kind: 'sepia' }
  | { kind: 'invert' }
  | { kind: 'blur_background'; strength: Strength }
  | { kind: 'blur'; strength: Strength }
  | { kind: 'upscale'; target: { factor: number } | { longSide: number } }
  | { kind: 'sharpen'; strength: Strength }
  | SceneOperation;

export type Strength = 'light' | 'medium' | 'strong';
export type EditKind = EditOperation['kind'];

export interface ParsedEdit {
  /** In the order they are applied, one per kind. */
  operations: EditOperation[];
  /** Parts of the instruction nothing was understood in, as the user wrote them. */
  ignored: string[];
}

/**
 * The order operations run in, whatever order the sentence names them: geometry first (so later
 * steps see the final framing), then a new background, the sky and the scene's light (so tone
 * wishes apply to the new scene too), tone and colour next, colour removal after colour adjustments
 * (so "more vivid and sepia" still gives a sepia picture), weather over the finished colours (fog
 * and rain are not tinted by a later grade), blurs before upscaling (cheaper, same look), and
 * sharpening last (sharpening before an upscale would only magnify its halos).
 */
export const EDIT_ORDER: readonly EditKind[] = [
  'rotate',
  'flip',
  'crop',
  'auto_levels',
  'background',
  'sky',
  'light',
  'brightness',
  'contrast',
  'saturation',
  'warmth',
  'vintage',
  'grayscale',
  'sepia',
  'invert',
  'blur_background',
  'fog',
  'rain',
  'snow',
  'blur',
  'upscale',
  'sharpen',
];

/** Largest side an upscale may produce: bigger outputs take too long to encode and to download. */
export const MAX_UPSCALE_SIDE = 4096;

/**
 * What the app shows as examples of editing instructions (the form's placeholder is the first):
 * each must be understood in full, which the tests check.
 */
export const EDITING_EXAMPLES = [
  'Make the sky a dramatic sunset and add soft fog',
  'make it a sunny beach',
  'make it night',
  'add rain',
  'make it snowy',
  'replace the background with mountains',
  'vintage film look',
  'make it brighter',
  'much darker',
  'brightness +20%',
  'more contrast',
  'more vivid',
  'black and white',
  'sepia',
  'warmer',
  'crop to square',
  'crop 16:9',
  'rotate left',
  'flip horizontally',
  'blur the background',
  'sharpen',
  'upscale 2x',
];

export function parseEditInstruction(instruction: string): ParsedEdit {
  const found: EditOperation[] = [];
  const ignored: string[] = [];
  let previousDirection: 1 | -1 | null = null;
  for (const { original, text } of splitClauses(instruction)) {
    if (isNegated(text)) {
      ignored.push(original);
      continue;
    }
    const before = found.length;
    const direction = matchClause(text, found, previousDirection);
    if (direction !== null) previousDirection = direction;
    if (found.length === before && !isFiller(text)) ignored.push(original);
  }
  return { operations: mergeOperations(found), ignored };
}

/** What the user sees for each operation: short, plain, with the amount. */
export function describeEdit(operation: EditOperation): EngineNote {
  switch (operation.kind) {
    case 'rotate':
      if (operation.degrees === 180) return engineNote('edit.rotated_180', 'rotated 180°');
      return operation.degrees === 90
        ? engineNote('edit.rotated_clockwise', 'rotated 90° clockwise')
        : engineNote('edit.rotated_counter_clockwise', 'rotated 90° counter-clockwise');
    case 'flip':
      return operation.axis === 'horizontal'
        ? engineNote('edit.mirrored', 'mirrored left to right')
        : engineNote('edit.flipped', 'flipped upside down');
    case 'crop':
      if (operation.aspect) {
        const { width, height } = operation.aspect;
        return engineNote('edit.cropped_aspect', `cropped to ${width}:${height}`, { width, height });
      } else {
        const percent = Math.round(operation.keep * 100);
        return engineNote('edit.cropped_centre', `cropped to the centre (${percent}% of each side)`, {
          percent,
        });
      }
    case 'auto_levels':
      return engineNote('edit.auto_levels', 'auto levels (stretched to the full tonal range)');
    case 'brightness':
    case 'contrast':
    case 'saturation': {
      const percent = signed(operation.percent);
      return engineNote(`edit.${operation.kind}`, `${operation.kind} ${percent}%`, { percent });
    }
    case 'warmth': {
      const percent = signed(operation.percent);
      return operation.percent >= 0
        ? engineNote('edit.warmer', `warmer tones ${percent}%`, { percent })
        : engineNote('edit.cooler', `cooler tones ${percent}%`, { percent });
    }
    case 'grayscale':
      return engineNote('edit.grayscale', 'black and white');
    case 'sepia':
      return engineNote('edit.sepia', 'sepia tone');
    case 'invert':
      return engineNote('edit.inverted', 'colours inverted (negative)');
    case 'blur_background':
      return engineNote(
        'edit.blur_background',
        `background blurred (${operation.strength}), centre kept sharp`,
        { strength: operation.strength },
      );
    case 'blur':
      return engineNote('edit.blur', `blurred (${operation.strength})`, { strength: operation.strength });
    case 'upscale':
      return 'factor' in operation.target
        ? engineNote('edit.upscale_factor', `upscaled ${operation.target.factor}×`, {
            factor: operation.target.factor,
          })
        : engineNote('edit.upscale_side', `upscaled to ${operation.target.longSide} px on the long side`, {
            side: operation.target.longSide,
          });
    case 'sharpen':
      return engineNote('edit.sharpen', `sharpened (${operation.strength})`, {
        strength: operation.strength,
      });
    case 'background':
      return engineNote(
        'edit.background_replaced',
        `background replaced with a drawn scene: ${operation.scene}`,
        {
          scene: operation.scene,
        },
      );
    case 'sky':
      return engineNote(`edit.sky_${operation.look}`, SKY_TEXT[operation.look]);
    case 'light':
      return engineNote(`edit.light_${operation.look}`, LIGHT_TEXT[operation.look], {
        strength: operation.strength,
      });
    case 'fog':
      return engineNote('edit.fog', `fog added (${operation.strength}), thicker towards the distance`, {
        strength: operation.strength,
      });
    case 'rain':
      return engineNote(
        'edit.rain',
        `rain added (${operation.strength}): falling streaks, duller, cooler light`,
        {
          strength: operation.strength,
        },
      );
    case 'snow':
      return engineNote('edit.snow', `snow added (${operation.strength}): falling flakes, colder light`, {
        strength: operation.strength,
      });
    case 'vintage':
      return engineNote('edit.vintage', 'vintage film look: faded blacks, warm tones, grain and vignette');
  }
}

const SKY_TEXT: Record<SkyLook, string> = {
  sunset: 'sky replaced with a sunset sky',
  dusk: 'sky replaced with a twilight sky',
  night: 'sky replaced with a starry night sky',
  stormy: 'sky replaced with a stormy sky',
  clear: 'sky replaced with a clear blue sky',
};

const LIGHT_TEXT: Record<LightLook, string> = {
  sunset: 'sunset light: warm orange tones',
  golden: 'golden-hour light: warm, soft tones',
  dusk: 'twilight light: darker, blue and violet tones',
  night: 'night light: dark, cold blue tones',
  sunny: 'sunny light: brighter, warmer, livelier colours',
  stormy: 'stormy light: darker, duller, colder tones',
};

export function describeNothingUnderstood(): string {
  return (
    "Sorry, the local editor didn't understand that instruction. It understands things like: " +
    EDITING_EXAMPLES.map((example) => `"${example}"`).join(', ') +
    '. Several can be combined in one sentence.'
  );
}

const signed = (value: number) => (value > 0 ? `+${value}` : `${value}`);

// ---------------------------------------------------------------------------------------------------
// Clauses

interface Clause {
  original: string;
  text: string;
}

/**
 * Splits on punctuation and on "and"/"then"/"also" so each clause carries one wish. Phrases that
 * contain those words ("black and white") are rewritten to one token first.
 */
function splitClauses(instruction: string): Clause[] {
  const protectedText = instruction
    .replace(/[’‘`]/g, "'")
    .replace(/\bblack[\s-]*(?:and|&|n|'n')[\s-]*white\b/gi, 'grayscale')
    .replace(/\bb\s*[&/]\s*w\b/gi, 'grayscale');
  return protectedText
    .split(
      /[,;!?\n]+|(?<!\d)\.(?!\d)|\s+(?:and then|and also|and|but|then|also|plus|as well as|&)\s+|\s+&\s+/i,
    )
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((original) => ({ original, text: normalise(original) }));
}

function normalise(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/\bcolour/g, 'color')
    .replace(/\bcentre\b/g, 'center')
    .replace(/\bgrey/g, 'gray')
    .replace(/[−–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()} `;
}

const FILLER =
  /\b(please|pls|thanks|thank you|can you|could you|would you|i want|i'd like|make|it|this|the|a|an|photo|picture|image|pic|look|looks|me|my|just|more|bit|little|of|to|so|that|ok|okay|now|fix|do|something|with|for)\b/g;

function isFiller(text: string): boolean {
  return text.replace(FILLER, '').trim().length === 0;
}

function isNegated(text: string): boolean {
  return /^\s*(don'?t|do not|never|no need to|without)\b/.test(text) && !/\bwithout colou?r\b/.test(text);
}

// ---------------------------------------------------------------------------------------------------
// Matchers

const SLIGHT =
  /\b(slightly|slight|a bit|bit|a little|little|a touch|a tad|subtly|subtle|somewhat|mildly|gently|lightly)\b/;
const STRONG =
  /\b(much|a lot|lots|way|very|really|significantly|strongly|strong|considerably|dramatically|far|super|extremely|heavily|heavy|a ton|hugely|massively)\b/;

function strengthOf(text: string): Strength {
  if (SLIGHT.test(text)) return 'light';
  if (STRONG.test(text)) return 'strong';
  return 'medium';
}

interface AdjustmentRule {
  kind: Adjustment;
  /** Words that mean "less" are checked first: "less vivid" also contains "vivid". */
  down: RegExp;
  up: RegExp;
  /** The property named without a direction ("brightness +20%", "saturation"). */
  mention: RegExp;
  /** Percent for an unqualified wish ("brighter"). */
  base: number;
}

const ADJUSTMENTS: AdjustmentRule[] = [
  {
    kind: 'brightness',
    down: /\b(darker|darken|dimmer|dim|less bright|less light|reduce (the )?(brightness|exposure)|decrease (the )?(brightness|exposure)|lower (the )?(brightness|exposure)|too bright|overexposed|brightness down|underexpose)\b/,
    up: /\b(brighter|brighten|brighten up|lighter|lighten|lighten up|more light|more bright|increase (the )?(brightness|exposure)|raise (the )?(brightness|exposure)|boost (the )?(brightness|exposure)|too dark|underexposed|brightness up|more exposure)\b/,
    mention: /\b(brightness|exposure)\b/,
    base: 20,
  },
  {
    kind: 'contrast',
    down: /\b(less contrast|lower (the )?contrast|low contrast|reduce (the )?contrast|decrease (the )?contrast|softer contrast|weaker contrast|flatter|contrast down)\b/,
    up: /\b(more contrast|higher contrast|high contrast|increase (the )?contrast|boost (the )?contrast|add contrast|stronger contrast|contrasty|punchier|punchy|contrast up)\b/,
    mention: /\bcontrast\b/,
    base: 20,
  },
  {
    kind: 'saturation',
    down: /\b(desaturated?|less saturated|less saturation|reduce (the )?saturation|decrease (the )?saturation|lower (the )?saturation|less vivid|less colou?rful|muted( colou?rs)?|mute the colou?rs|washed out|faded|tone down the colou?rs|less colou?r|saturation down)\b/,
    up: /\b(more vivid|vivid|vibrant|more vibrant|more saturated|saturated|saturate|more saturation|increase (the )?saturation|boost (the )?saturation|more colou?rful|colou?rful|more colou?r|richer colou?rs?|rich colou?rs?|boost (the )?colou?rs?|colou?rs pop|saturation up)\b/,
    mention: /\bsaturation\b/,
    base: 30,
  },
  {
    kind: 'warmth',
    down: /\b(cooler|colder|less warm|cool (tones?|tint|colou?rs|look|it down|down)|cold (tones?|tint|look)|bluer|bluish|blue tint|cool white balance)\b/,
    up: /\b(warmer|warm|warm up|warmth|warm tones?|less cool|golden tones?|golden look|warm white balance)\b/,
    mention: /\b(temperature|white balance)\b/,
    base: 20,
  },
];

const GENERIC_UP = /(\b(increase|more|raise|boost|higher|add|up)\b|\+)/;
const GENERIC_DOWN = /\b(decrease|less|lower|reduce|down|cut|minus)\b/;

/** "+20%", "by 30 percent", "to 120%" (a level: 120% is +20), "-15", "20%". */
function explicitPercent(text: string): { value: number; signed: boolean } | null {
  const to = text.match(/\bto (\d{1,3}(?:\.\d+)?) ?(?:%|percent\b)/);
  if (to) return { value: Number(to[1]) - 100, signed: true };
  const sign = text.match(/(?:^|[\s(])([+-]) ?(\d{1,3}(?:\.\d+)?) ?(?:%|percent\b|pct\b)?/);
  if (sign) return { value: (sign[1] === '-' ? -1 : 1) * Number(sign[2]), signed: true };
  const by = text.match(/\bby (\d{1,3}(?:\.\d+)?) ?(?:%|percent\b|pct\b)?/);
  if (by) return { value: Number(by[1]), signed: false };
  const plain = text.match(/\b(\d{1,3}(?:\.\d+)?) ?(?:%|percent\b|pct\b)/);
  if (plain) return { value: Number(plain[1]), signed: false };
  return null;
}

function matchAdjustments(text: string, found: EditOperation[], inherited: 1 | -1 | null): 1 | -1 | null {
  let lastDirection: 1 | -1 | null = null;
  for (const rule of ADJUSTMENTS) {
    let direction: 1 | -1 | null = null;
    const explicit = explicitPercent(text);
    if (rule.down.test(text)) direction = -1;
    else if (rule.up.test(text)) direction = 1;
    else if (rule.mention.test(text)) {
      if (explicit?.signed) direction = explicit.value < 0 ? -1 : 1;
      else if (GENERIC_DOWN.test(text)) direction = -1;
      else if (GENERIC_UP.test(text)) direction = 1;
      else direction = inherited;
      if (direction === null) continue;
    } else continue;
    let percent: number;
    if (explicit) percent = explicit.signed ? explicit.value : direction * explicit.value;
    else {
      const strength = strengthOf(text);
      percent = direction * rule.base * (strength === 'light' ? 0.5 : strength === 'strong' ? 2 : 1);
    }
    // Signed amounts that contradict the words ("darker +20%") follow the words.
    if (explicit?.signed && Math.sign(percent) !== direction && !rule.mention.test(text)) percent = -percent;
    found.push({ kind: rule.kind, percent: Math.round(percent) });
    lastDirection = direction;
  }
  return lastDirection;
}

const ASPECT_WORDS: Array<[RegExp, { width: number; height: number }]> = [
  [/\b(square|1 ?: ?1|1 ?x ?1|instagram post)\b/, { width: 1, height: 1 }],
  [/\b(widescreen|wide ?screen|cinematic|youtube|16 ?: ?9|16 ?x ?9)\b/, { width: 16, height: 9 }],
  [/\b(9 ?: ?16|story|stories|reels?|tiktok|phone wallpaper|vertical video)\b/, { width: 9, height: 16 }],
  [/\b(portrait|4 ?: ?5|instagram portrait|vertical)\b/, { width: 4, height: 5 }],
  [/\b(landscape|3 ?: ?2|horizontal)\b/, { width: 3, height: 2 }],
];

function matchCrop(text: string): EditOperation | null {
  const ratio = text.match(/\b(\d{1,2}) ?[:x/] ?(\d{1,2})\b/);
  const cropWord = /\b(crop(ped|ping)?|trim|reframe|aspect( ratio)?|ratio)\b/.test(text);
  if (ratio && (cropWord || /:/.test(ratio[0]))) {
    const width = Number(ratio[1]);
    const height = Number(ratio[2]);
    if (width > 0 && height > 0 && width / height <= 4 && height / width <= 4) {
      return { kind: 'crop', aspect: { width, height }, keep: 1 };
    }
  }
  // "portrait" alone is a blur wish ("portrait mode"), so shapes other than square need a crop word.
  for (const [pattern, aspect] of ASPECT_WORDS) {
    if (!pattern.test(text)) continue;
    const isSquare = aspect.width === aspect.height;
    if (cropWord || (isSquare && /\b(make|square it|square)\b/.test(text)))
      return { kind: 'crop', aspect, keep: 1 };
  }
  if (cropWord || /\b(zoom in|closer|tighter)\b/.test(text)) {
    const keep = /\b(tight|tighter|a lot|much|closer|close)\b/.test(text) ? 0.65 : 0.8;
    return { kind: 'crop', aspect: null, keep };
  }
  return null;
}

function matchRotate(text: string): EditOperation | null {
  if (/\b(upside[ -]?down|turn (it )?over)\b/.test(text) && !/\bflip/.test(text))
    return { kind: 'rotate', degrees: 180 };
  if (!/\b(rotate|rotated|rotation|turn|spin)\b/.test(text)) return null;
  const degrees = text.match(/(-?\d{2,3}) ?(°|deg|degrees?\b)?/);
  const ccw = /\b(left|counter[ -]?clockwise|anti[ -]?clockwise|ccw)\b/.test(text);
  if (degrees) {
    const value = ((((ccw ? -1 : 1) * Number(degrees[1])) % 360) + 360) % 360;
    return value === 90 || value === 180 || value === 270 ? { kind: 'rotate', degrees: value } : null;
  }
  if (
    /\b(turn|spin)\b/.test(text) &&
    !/\b(left|right|clockwise|counter[ -]?clockwise|anti[ -]?clockwise|sideways|around)\b/.test(text)
  ) {
    return null;
  }
  if (/\baround\b/.test(text)) return { kind: 'rotate', degrees: 180 };
  return { kind: 'rotate', degrees: ccw ? 270 : 90 };
}

function matchFlip(text: string): EditOperation | null {
  if (!/\b(flip|flipped|mirror|mirrored|reflect)\b/.test(text)) return null;
  const vertical = /\b(vertical(ly)?|upside[ -]?down|top to bottom|bottom to top|up and down)\b/.test(text);
  return { kind: 'flip', axis: vertical ? 'vertical' : 'horizontal' };
}

function matchUpscale(text: string): EditOperation | null {
  const wants =
    /\b(upscale[ds]?|upscaling|upsample|enlarge|enlarged|bigger|larger|increase (the )?(resolution|size)|higher resolution|high resolution|hi-?res|super ?resolution|double (the )?(size|resolution)|4k|2k|full hd|hd|1080p)\b/.test(
      text,
    ) || /\b\d(\.\d)? ?x\b|\bx ?\d\b/.test(text);
  if (!wants) return null;
  const toSide = text.match(/\bto (\d{3,5}) ?(px|pixels?)?\b/) ?? text.match(/\b(\d{3,5}) ?(px|pixels?)\b/);
  if (toSide) return { kind: 'upscale', target: { longSide: Math.min(MAX_UPSCALE_SIDE, Number(toSide[1])) } };
  if (/\b4k\b/.test(text)) return { kind: 'upscale', target: { longSide: 3840 } };
  if (/\b2k\b/.test(text)) return { kind: 'upscale', target: { longSide: 2048 } };
  if (/\b(full hd|1080p|hd)\b/.test(text)) return { kind: 'upscale', target: { longSide: 1920 } };
  const factor = text.match(/\b(\d(?:\.\d)?) ?x\b|\bx ?(\d)\b/);
  if (factor) {
    const value = Number(factor[1] ?? factor[2]);
    if (value > 1 && value <= 8) return { kind: 'upscale', target: { factor: value } };
  }
  if (/\btriple\b/.test(text)) return { kind: 'upscale', target: { factor: 3 } };
  if (/\bquadruple\b/.test(text)) return { kind: 'upscale', target: { factor: 4 } };
  return { kind: 'upscale', target: { factor: 2 } };
}

function matchClause(text: string, found: EditOperation[], inherited: 1 | -1 | null): 1 | -1 | null {
  const push = (operation: EditOperation | null) => {
    if (operation) found.push(operation);
  };
  const grayscale =
    /\b(grayscale|gray scale|monochrome|mono|bw|noir|no colou?rs?|without colou?rs?|colou?rless|remove (the |all )?colou?rs?|drain (the )?colou?rs?|fully desaturate|completely desaturate|desaturate (it )?completely)\b/.test(
      text,
    );
  if (grayscale) push({ kind: 'grayscale' });
  if (/\b(sepia|old photo|old-fashioned|old fashioned|antique)\b/.test(text)) push({ kind: 'sepia' });
  for (const operation of matchSceneWish(text)) push(operation);
  if (/\b(invert(ed)?|negative)\b/.test(text)) push({ kind: 'invert' });
  const autoLevels =
    /\b(auto[ -]?(enhance|levels?|fix|correct|adjust|colou?r|tone)|normali[sz]e|fix (the )?(colou?rs|exposure|levels))\b/.test(
      text,
    ) ||
    (/\benhance\b/.test(text) && !/\bdetails?\b/.test(text));
  if (autoLevels) push({ kind: 'auto_levels' });
  const backgroundBlur =
    /\b(blur(red|ry)? (the )?(back ?ground|bg)|(back ?ground|bg) blur(red|ry)?|blur(red|ry)? behind|defocus(ed)? (the )?background|soft(en)? (the )?background|bokeh|portrait (mode|effect|blur|look)|depth of field|shallow focus)\b/.test(
      text,
    );
  if (backgroundBlur) push({ kind: 'blur_background', strength: strengthOf(text) });
  else if (
    /\b(blur|blurred|blurry|soften|soft focus|dreamy)\b/.test(text) &&
    !/\b(less|un|de)[ -]?blur/.test(text)
  ) {
    push({ kind: 'blur', strength: strengthOf(text) });
  }
  if (
    /\b(sharpen(ed)?|sharper|crisp(er)?|more detail(s|ed)?|enhance (the )?details?|clarity|less blurry|unblur|deblur|de-blur)\b/.test(
      text,
    )
  ) {
    push({ kind: 'sharpen', strength: strengthOf(text) });
  }
  push(matchUpscale(text));
  push(matchRotate(text));
  push(matchFlip(text));
  push(matchCrop(text));
  // "desaturate" next to grayscale words means the same thing; don't also add a saturation step.
  if (grayscale) return null;
  return matchAdjustments(text, found, inherited);
}

// ---------------------------------------------------------------------------------------------------
// Merging

const ADJUSTMENT_LIMITS: Record<Adjustment, [number, number]> = {
  brightness: [-80, 150],
  contrast: [-80, 150],
  saturation: [-100, 200],
  warmth: [-100, 100],
};

/**
 * One operation per kind, in EDIT_ORDER: adjustments add up ("brighter … a bit brighter" = +30%),
 * quarter turns add up, flips on the same axis cancel, and for the rest the last wish wins.
 */
function mergeOperations(found: EditOperation[]): EditOperation[] {
  const byKind = new Map<EditKind, EditOperation>();
  const flips = { horizontal: 0, vertical: 0 };
  let rotation = 0;
  for (const operation of found) {
    switch (operation.kind) {
      case 'brightness':
      case 'contrast':
      case 'saturation':
      case 'warmth': {
        const previous = byKind.get(operation.kind);
        const sum = (previous && 'percent' in previous ? previous.percent : 0) + operation.percent;
        const [min, max] = ADJUSTMENT_LIMITS[operation.kind];
        byKind.set(operation.kind, { kind: operation.kind, percent: Math.max(min, Math.min(max, sum)) });
        break;
      }
      case 'rotate':
        rotation = (rotation + operation.degrees) % 360;
        break;
      case 'flip':
        flips[operation.axis]++;
        break;
      default:
        byKind.set(operation.kind, operation);
    }
  }
  const operations: EditOperation[] = [];
  for (const kind of EDIT_ORDER) {
    if (kind === 'rotate' && (rotation === 90 || rotation === 180 || rotation === 270)) {
      operations.push({ kind: 'rotate', degrees: rotation });
    } else if (kind === 'flip') {
      if (flips.horizontal % 2) operations.push({ kind: 'flip', axis: 'horizontal' });
      if (flips.vertical % 2) operations.push({ kind: 'flip', axis: 'vertical' });
    } else {
      const operation = byKind.get(kind);
      if (operation && !('percent' in operation && operation.percent === 0)) operations.push(operation);
    }
  }
  return operations;
}
