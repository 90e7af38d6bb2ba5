import { CAMERA_MOVE_WORDS, type TCameraMove } from '@mirra/contracts';

/*
 * A video's named camera move as each provider's model takes it: Kling's camera control where the
 * configured model has one, and otherwise the move said in words after the description (video
 * models follow camera wording in the prompt).
 */

/** What a model is told to do with a photo when the person wrote nothing and chose no move. */
export const DEFAULT_MOTION_PROMPT =
  'Gentle natural motion: the person breathes, blinks and turns their head slightly; a slow camera push-in';
/** The same without the push-in, for a photo whose camera move was chosen. */
const NATURAL_MOTION = 'Gentle natural motion: the person breathes, blinks and turns their head slightly.';

/** The prompt of a video model: the description (or natural motion) with the chosen move said after it. */
export function videoPrompt(
  prompt: string,
  camera: TCameraMove | null | undefined,
  hasPhoto: boolean,
): string {
  const described = prompt.trim();
  if (!camera) return described || (hasPhoto ? DEFAULT_MOTION_PROMPT : '');
  const lead = described || (hasPhoto ? NATURAL_MOTION : '');
  return `${lead.replace(/[.\s]*$/, '.')} ${CAMERA_MOVE_WORDS[camera]}`.trim();
}

/**
 * Kling 1.0 text-to-video at fal takes one camera movement (`advanced_camera_control`): its axis and
 * an amount from -10 to 10 (horizontal: negative is left; vertical: positive is up; zoom: negative
 * narrows the field of view, which is closing in, as the documentation of ComfyUI's Kling Camera
 * Controls node, which calls Kling's API, states). Kling 2.x and image-to-video take none there.
 */
export interface KlingCameraControl {
  movement_type: 'horizontal' | 'vertical' | 'pan' | 'tilt' | 'roll' | 'zoom';
  movement_value: number;
}
const KLING_CAMERA: Partial<Record<TCameraMove, KlingCameraControl>> = {
  zoom_in: { movement_type: 'zoom', movement_value: -5 },
  zoom_out: { movement_type: 'zoom', movement_value: 5 },
  dolly_in: { movement_type: 'zoom', movement_value: -8 },
  pan_left: { movement_type: 'horizontal', movement_value: -5 },
  pan_right: { movement_type: 'horizontal', movement_value: 5 },
  crane_up: { movement_type: 'vertical', movement_value: 5 },
};

/** fal models that take `advanced_camera_control`: Kling 1.0's text-to-video. */
export function takesKlingCameraControl(model: string): boolean {
  return /kling-video\/v1\/(standard|pro)\/text-to-video$/.test(model);
}

/** The camera control of a move for a model that takes one; none for a move it cannot make. */
export function klingCameraControl(
  model: string,
  camera: TCameraMove | null | undefined,
): KlingCameraControl | null {
  if (!camera || !takesKlingCameraControl(model)) return null;
  return KLING_CAMERA[camera] ?? null;
}
