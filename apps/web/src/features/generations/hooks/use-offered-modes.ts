import { usePublicConfig } from '../../auth';
import type { GenerationMode } from '../modes';

/**
 * Whether the app offers a mode: not when the server says no engine can make it (a mode set to a
 * provider without its key). Until the config has loaded every mode counts as offered, so the
 * first screen does not wait for it; the server refuses an unavailable mode in any case.
 */
export function useModeOffered(): (mode: GenerationMode) => boolean {
  const unavailable = usePublicConfig().data?.unavailable_modes ?? [];
  return (mode) => !unavailable.includes(mode);
}

/**
 * Whether some mode is made by an AI model here (the engines' declarations in the config):
 * undefined until the config has loaded, so nothing claims AI before the server has said so.
 */
export function useAiOffered(): boolean | undefined {
  const engines = usePublicConfig().data?.engines;
  if (!engines) return undefined;
  return Object.values(engines).some((offer) => offer?.ai === true);
}
