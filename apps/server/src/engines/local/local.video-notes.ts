import type { TCameraMove, TGenerationNoteCode } from '@mirra/contracts';
import type { SceneMotion } from '@mirra/imaging';
import { engineNote, type EngineNote } from '../engine.types.js';

/* What the local engine's videos say they did: the camera move asked for, and what moves in a scene. */

/** The named camera move the video was made with, the move's id kept for the reader's language. */
export function cameraPresetNote(camera: TCameraMove): EngineNote {
  return engineNote('video.camera_preset', `Camera move: ${camera.replaceAll('_', ' ')}.`, { camera });
}

/** How the notes name each thing that moves in an animated scene. */
export const SCENE_MOTION_NOTES: Record<SceneMotion, { code: TGenerationNoteCode; text: string }> = {
  light: {
    code: 'video.scene_light',
    text: 'The light breathes: the glow of the sun or moon swells and its rays turn.',
  },
  clouds: {
    code: 'video.scene_clouds',
    text: 'Clouds drift across the sky, their shadows passing over the land.',
  },
  stars: { code: 'video.scene_stars', text: 'Stars twinkle.' },
  water: { code: 'video.scene_water', text: 'The water ripples, its reflection breaking up in the waves.' },
  rain: { code: 'video.scene_rain', text: 'Rain falls.' },
  snow: { code: 'video.scene_snow', text: 'Snow falls, near flakes faster than far ones.' },
  camera: { code: 'video.scene_camera', text: 'The camera pushes slowly into the composition.' },
};
