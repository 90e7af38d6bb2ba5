import { GENERATION_MODES, MODE_DECLARATIONS, type TGenerationMode } from '@mirra/contracts';
import {
  IconBrush,
  IconCutout,
  IconExpand,
  IconFace,
  IconImage,
  IconPalette,
  IconRestore,
  IconShirt,
  IconVideo,
  IconWand,
  IconChat,
} from '../../components/ui/icons';

/** Generation modes (declared in the contracts); the Create screen offers those with a card. */
export type GenerationMode = TGenerationMode;
export const CREATE_MODES: readonly GenerationMode[] = MODE_DECLARATIONS.filter(
  (mode) => mode.createCard,
).map((mode) => mode.id);

export function isGenerationMode(value: unknown): value is GenerationMode {
  return typeof value === 'string' && (GENERATION_MODES as readonly string[]).includes(value);
}

/** Each mode's icon; a mode without one of its own shows the picture icon. */
const ICONS: Partial<Record<GenerationMode, typeof IconImage>> = {
  face_swap: IconFace,
  editing: IconWand,
  styling: IconPalette,
  video: IconVideo,
  upscale: IconExpand,
  restore: IconRestore,
  background: IconCutout,
  inpaint: IconBrush,
  outpaint: IconExpand,
  try_on: IconShirt,
  talking_photo: IconChat,
};
export const MODE_ICONS = Object.fromEntries(
  GENERATION_MODES.map((mode) => [mode, ICONS[mode] ?? IconImage]),
) as Record<GenerationMode, typeof IconImage>;

/**
 * Each mode's card art: its gradient from the brand palette (`--gradient-mode-<id>` in the theme),
 * the brand gradient for a mode the theme has none for yet.
 */
export const modeArt = (mode: GenerationMode) =>
  `var(--gradient-mode-${mode.replaceAll('_', '-')}, var(--gradient-brand))`;
