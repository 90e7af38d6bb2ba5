/**
 * The editing language's scene wishes: a new background, the sky, the light of a time of day, the
 * weather and a film look ("make the sky a dramatic sunset and add soft fog", "make it a sunny
 * beach"). Pure: one clause in (lower case, padded with spaces), operations out.
 */

export type SceneStrength = 'light' | 'medium' | 'strong';

/** The skies the editor paints in place of the photo's own. */
export const SKY_LOOKS = ['sunset', 'dusk', 'night', 'stormy', 'clear'] as const;
export type SkyLook = (typeof SKY_LOOKS)[number];

/** The light a whole photo can be regraded to. */
export const LIGHT_LOOKS = ['sunset', 'golden', 'dusk', 'night', 'sunny', 'stormy'] as const;
export type LightLook = (typeof LIGHT_LOOKS)[number];

export type SceneOperation =
  /** `scene`: the words of the place to draw behind the person ("a sunny beach"). */
  | { kind: 'background'; scene: string }
  | { kind: 'sky'; look: SkyLook; dramatic: boolean }
  | { kind: 'light'; look: LightLook; strength: SceneStrength }
  | { kind: 'fog'; strength: SceneStrength }
  | { kind: 'rain'; strength: SceneStrength }
  | { kind: 'snow'; strength: SceneStrength }
  | { kind: 'vintage' };

/** Places the procedural scene renderer draws, so a background can become one of them. */
const PLACE =
  /\b(beach(es)?|seaside|sea ?shore|shore|sea|ocean|coast|island|tropic(s|al)|palms?|forest|woods|woodland|jungle|mountains?|alps|peaks?|hills?|countryside|city|skyline|downtown|street|desert|dunes?|outer space|space|galaxy|cosmos|meadow|flower field|field of flowers|garden|lake|river|park|snowfield|snowy field|arctic|glacier)\b/;
const BACKGROUND = /\b(back ?ground|backdrop|bg|behind (me|him|her|them|the person))\b/;
/** "make it a sunny beach", "put me on a beach", "in the forest": the person somewhere else. */
const PLACEMENT =
  /\b((make|turn) (it|this|the (photo|picture|scene)) (into )?(a|an|the)?|put (me|him|her|them|us|the person) (on|in|at|into)|(i'?m|me|we) (on|in|at)|move (me|him|her|them|us) to|take (me|him|her|them|us) to|on (a|an|the)|in (a|an|the)|at (a|an|the)|to (a|an|the)|in (outer )?space)\b/;

const WEAK =
  /\b(soft|softly|thin|light|gentle|gently|slight|slightly|subtle|a bit|a little|a touch|faint|hint of)\b/;
const HEAVY =
  /\b(thick|dense|heavy|heavily|strong|lots of|a lot of|much|very|intense|pouring|blizzard|dramatic)\b/;

function weatherStrength(text: string): SceneStrength {
  if (HEAVY.test(text)) return 'strong';
  if (WEAK.test(text)) return 'light';
  return 'medium';
}

interface LookWords {
  pattern: RegExp;
  sky: SkyLook;
  light: LightLook;
}

/** Checked in order: the first that matches names the look ("stormy night" is a night). */
const LOOKS: LookWords[] = [
  {
    pattern: /\b(night|nighttime|night ?time|midnight|starry|stars|moonlit|moon ?light|after dark)\b/,
    sky: 'night',
    light: 'night',
  },
  { pattern: /\b(dusk|twilight|blue hour|evening)\b/, sky: 'dusk', light: 'dusk' },
  {
    pattern: /\b(sunsets?|sundown|sunrise|dawn|daybreak|sunset glow|orange sky|pink sky|red sky)\b/,
    sky: 'sunset',
    light: 'sunset',
  },
  { pattern: /\b(golden hour|golden light|golden sun(light)?)\b/, sky: 'sunset', light: 'golden' },
  {
    pattern:
      /\b(storm|stormy|thunder(storm)?|lightning|overcast|cloudy|clouds|gloomy|gr[ae]y sky|dark clouds|moody sky|brooding)\b/,
    sky: 'stormy',
    light: 'stormy',
  },
  {
    pattern:
      /\b(sunny|sunshine|sunlit|clear|blue sky|blue|daytime|day ?time|daylight|midday|noon|summer day|bright day)\b/,
    sky: 'clear',
    light: 'sunny',
  },
];

const SKY = /\b(sky|skies|heavens)\b/;
/** Scene light words outside a sky clause: "make it night", "at sunset", "golden hour light". */
const LIGHT_CONTEXT =
  /\b(make|turn|change|set|at|during|in the|into|light|lighting|lit|time|hour|mood|atmosphere|scene|it|weather|day)\b/;

/**
 * The scene operations one clause asks for. A clause that names a place as the background (or
 * puts the person somewhere) is only that: the drawn place brings its own sky and light.
 */
export function matchSceneWish(text: string): SceneOperation[] {
  const found: SceneOperation[] = [];
  const place = text.match(PLACE);
  const wantsBackground =
    place !== null && (BACKGROUND.test(text) || PLACEMENT.test(text) || text.trim() === place[0]);
  if (wantsBackground) {
    found.push({ kind: 'background', scene: backgroundScene(text) });
    return found;
  }
  if (/\b(fog|foggy|mist|misty|haze|hazy|smoke|smoky)\b/.test(text)) {
    found.push({ kind: 'fog', strength: weatherStrength(text) });
  }
  if (/\b(rain|rainy|raining|rainfall|drizzle|downpour|showers)\b/.test(text)) {
    found.push({ kind: 'rain', strength: weatherStrength(text) });
  }
  if (/\b(snow|snowy|snowing|snowfall|snowflakes|blizzard|wintry|winter)\b/.test(text)) {
    found.push({ kind: 'snow', strength: weatherStrength(text) });
  }
  if (
    /\b(vintage|retro|film look|analog(ue)? film|film photo|faded film|polaroid|70s|80s|nostalgic)\b/.test(
      text,
    )
  ) {
    found.push({ kind: 'vintage' });
  }
  const look = LOOKS.find((entry) => entry.pattern.test(text));
  const mentionsSky = SKY.test(text);
  if (look && (mentionsSky || LIGHT_CONTEXT.test(text) || found.length === 0)) {
    // "blue" alone is a colour wish, not a sky, unless the sky is named.
    const onlyBlue = look.sky === 'clear' && /\bblue\b/.test(text) && !/\bblue sky\b/.test(text);
    if (!onlyBlue || mentionsSky) {
      const dramatic = /\b(dramatic|dramatically|epic|stunning|fiery|vivid|intense|moody)\b/.test(text);
      found.push({ kind: 'sky', look: look.sky, dramatic });
      // A sky named alone still changes the light a little: a sunset sky over noon light looks pasted.
      found.push({
        kind: 'light',
        look: look.light,
        strength: mentionsSky ? 'light' : HEAVY.test(text) ? 'strong' : 'medium',
      });
    }
  } else if (mentionsSky && /\b(dramatic|epic|moody)\b/.test(text)) {
    found.push({ kind: 'sky', look: 'stormy', dramatic: true });
    found.push({ kind: 'light', look: 'stormy', strength: 'light' });
  }
  return found;
}

const BACKGROUND_FILLER =
  /\b(please|make|turn|change|replace|swap|set|put|move|take|it|this|the|photo|picture|scene|into|to|with|back ?ground|backdrop|bg|behind|me|him|her|them|us|person|i'?m|we|new|of|for|so|that|looks?|like)\b/g;

/** The place words of a background wish, for the scene renderer: "a sunny beach". */
function backgroundScene(text: string): string {
  return text
    .replace(BACKGROUND_FILLER, ' ')
    .replace(/[^\p{L}\p{N}' -]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
