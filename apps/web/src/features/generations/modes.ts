import { GENERATION_MODES, type TGenerationMode } from '@mirra/contracts';
import { IconFace, IconImage, IconPalette, IconVideo, IconWand } from '../../components/ui/icons';

/** Generation modes (from the contracts); the first four are the Create screen's. */
export type GenerationMode = TGenerationMode;
export const CREATE_MODES: readonly GenerationMode[] = ['simple', 'face_swap', 'editing', 'styling'];

export function isGenerationMode(value: unknown): value is GenerationMode {
  return typeof value === 'string' && (GENERATION_MODES as readonly string[]).includes(value);
}

export const MODE_ICONS = {
  simple: IconImage,
  face_swap: IconFace,
  editing: IconWand,
  styling: IconPalette,
  video: IconVideo,
} as const;

/** Each mode's card art: a gradient drawn from the brand palette. */
export const MODE_ART: Record<GenerationMode, string> = {
  simple: 'linear-gradient(135deg, #6d28d9 0%, #db2777 100%)',
  face_swap: 'linear-gradient(135deg, #0ea5e9 0%, #6366f1 100%)',
  editing: 'linear-gradient(135deg, #f59e0b 0%, #ef4444 100%)',
  styling: 'linear-gradient(135deg, #10b981 0%, #3b82f6 100%)',
  video: 'linear-gradient(135deg, #ec4899 0%, #f97316 100%)',
};
