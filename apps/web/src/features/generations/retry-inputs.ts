import { modeDeclaration } from '@mirra/contracts';
import type { TGeneration, TGenerationMode } from '../../lib/api-types';
import type { GenerationDraft } from './generation-draft';
import { phaseOf } from './generation-status';

/** A failed generation of this mode: "Try again" reopens its form with the same inputs. */
export function isRetryOf(generation: TGeneration | undefined, mode: TGenerationMode): boolean {
  return generation !== undefined && generation.mode === mode && phaseOf(generation.status) === 'failed';
}

/** The failed generation's prompt and settings, as the form's draft (its photo comes apart). */
export function draftFromFailed(generation: TGeneration): Partial<GenerationDraft> {
  const { inputs } = modeDeclaration(generation.mode);
  return {
    prompt: generation.prompt,
    guidance: generation.guidance,
    seed: String(generation.seed),
    style: inputs.style ? generation.style : null,
    modelUuid: inputs.model ? generation.model_uuid : null,
  };
}
