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
  simple: 'var(--gradient-mode-simple)',
  face_swap: 'var(--gradient-mode-face-swap)',
  editing: 'var(--gradient-mode-editing)',
  styling: 'var(--gradient-mode-styling)',
  video: 'var(--gradient-mode-video)',
};
