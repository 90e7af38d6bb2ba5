import { z } from 'zod';
import { GENERATION_MODES } from './modes.js';

/**
 * What an engine can do for a mode, as stable codes the app words in the user's language. Each
 * engine declares its own on the server; /api/config/ carries the declaration of the engine that
 * will serve each mode, so the create form says it before the price.
 */
export const ENGINE_ABILITIES = [
  /** A generative AI model makes the result from the description or the photo. */
  'ai_model',
  /** Photorealistic pictures: words such as "photorealistic" or "35mm photo" are honoured. */
  'photorealistic',
  /** Draws a scene from the description's words with shapes and colours, offline, no AI. */
  'offline_drawing',
  /** Edits a photo with image processing: sky, light, weather, background, colour, framing. */
  'photo_edits',
  /** Restyles a photo with classical filters, one recipe per style. */
  'style_filters',
  /** Puts your face onto a photo, or into a drawn scene, with face landmarks and blending. */
  'face_paste',
  /** A camera move over your photo, or an animated drawn scene. */
  'camera_move',
  /** Enlarges a picture with a small super-resolution network (no new content invented). */
  'super_resolution',
  /** Repairs an old photo: scratches and dust, grain, faded tones and colour cast, faces. */
  'photo_repair',
  /** Cuts a person out with a selfie segmentation (a photo without a person is refused). */
  'person_cut_out',
  /** Removes what is painted and fills it from the photo around it; it draws nothing new. */
  'fill_from_surroundings',
  /** Extends the picture by continuing its edges, mirrored and softened; nothing new is drawn. */
  'extend_edges',
  /** Says the text with a synthesised voice (or plays the recording) and moves the mouth to it. */
  'speaking_mouth',
] as const;
export type TEngineAbility = (typeof ENGINE_ABILITIES)[number];

/** The engine that will serve a mode and what it can do there. */
export const ZEngineOffer = z.object({
  /** The engine's name (`local` is the offline engine; others are providers). */
  engine: z.string(),
  /** Whether a generative AI model makes the result. */
  ai: z.boolean(),
  abilities: z.array(z.enum(ENGINE_ABILITIES)),
});
export type TEngineOffer = z.infer<typeof ZEngineOffer>;

/** Per mode: the engine a new generation goes to first, or null when none serves the mode. */
export const ZModeEngines = z.object(
  Object.fromEntries(GENERATION_MODES.map((mode) => [mode, ZEngineOffer.nullable()])) as Record<
    (typeof GENERATION_MODES)[number],
    z.ZodNullable<typeof ZEngineOffer>
  >,
);
export type TModeEngines = z.infer<typeof ZModeEngines>;
