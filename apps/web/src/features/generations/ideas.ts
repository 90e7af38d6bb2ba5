import type { TGenerationMode, TStyle } from '../../lib/api-types';

export interface Idea {
  /** Its name on the tile (`ideas.<key>`) and in the form's address (`?idea=<key>`). */
  key: string;
  mode: TGenerationMode;
  /** In English: the engines read English, whatever language the tile is in. */
  prompt: string;
  style: TStyle | null;
}

/**
 * Home's "Ideas to try": each tile opens its mode's form filled with its idea. Picture ideas make a
 * picture from the words; look ideas restyle the person's own photo (the form asks for it).
 */
export const IDEAS: readonly Idea[] = [
  {
    key: 'astronaut',
    mode: 'simple',
    prompt: 'An astronaut standing on the Moon, the Earth rising over the horizon, stars, cinematic light',
    style: null,
  },
  {
    key: 'paris',
    mode: 'simple',
    prompt: 'Sunset over the rooftops of Paris, the Eiffel Tower in warm golden light, soft clouds',
    style: null,
  },
  {
    key: 'anime',
    mode: 'styling',
    prompt: 'an anime hero, bold outlines, vivid colours, dynamic pose',
    style: 'cartoon',
  },
  {
    key: 'renaissance',
    mode: 'styling',
    prompt: 'a Renaissance portrait, dark background, soft window light',
    style: 'oil',
  },
  {
    key: 'cyberpunk',
    mode: 'simple',
    prompt: 'A neon cyberpunk city street at night in the rain, glowing signs, reflections on wet asphalt',
    style: null,
  },
  {
    key: 'studio',
    mode: 'simple',
    prompt: 'A professional business headshot in a studio, neutral grey background, soft light, sharp focus',
    style: null,
  },
];

/** The idea an address names for this mode (`?idea=<key>`), if any. */
export function ideaFor(key: string | null, mode: TGenerationMode): Idea | null {
  return IDEAS.find((idea) => idea.key === key && idea.mode === mode) ?? null;
}

/** Where an idea's tile leads: its mode's form, filled with it. */
export const ideaHref = (idea: Idea) => `/generate/${idea.mode}/?idea=${idea.key}`;
