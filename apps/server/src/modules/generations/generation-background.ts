import sharp from 'sharp';
import { jobKindOf, type TGenerationMode } from '@mirra/contracts';
import { composeBehindCutOut, type BackgroundChoice } from '@mirra/imaging';
import { engineNote, type EngineOutput } from '../../engines/index.js';
import type { GenerationsDeps } from './generations.deps.js';
import { uploadsForGenerationRepository } from './generation-inputs.repository.js';
import type { GenerationRow } from './generations.repository.js';

/**
 * A background tool's result as the person chose it. Providers' removers only cut the person out
 * (a PNG with transparency); a colour, the blurred photo or a described scene behind them is put
 * there here, the same whichever provider cut out. A result already opaque (the local engine
 * composes its own) is kept as it is.
 */
export async function withChosenBackground(
  deps: Pick<GenerationsDeps, 'db' | 'storage'>,
  generation: GenerationRow,
  output: EngineOutput,
): Promise<EngineOutput> {
  const kind = generation.settings?.background ?? 'transparent';
  if (kind === 'transparent') return output;
  if (jobKindOf(generation.mode as TGenerationMode, generation.inputUploads.length) !== 'cut_out')
    return output;
  if (!output.contentType.startsWith('image/')) return output;
  const image = sharp(output.data);
  if (!(await image.metadata()).hasAlpha || (await image.stats()).isOpaque) return output;
  const [upload] = await uploadsForGenerationRepository.findOwned(
    deps.db,
    generation.userId,
    generation.inputUploads.slice(0, 1),
  );
  const photo = upload ? await deps.storage.get(upload.storageKey) : null;
  const colour = generation.settings?.colour ?? '#ffffff';
  const choice: BackgroundChoice =
    kind === 'colour'
      ? { kind, colour }
      : kind === 'scene'
        ? { kind, prompt: generation.prompt, seed: generation.seed }
        : { kind: 'blur' };
  // Blurring needs the photo; without it (deleted meanwhile) the cut-out goes on a colour.
  const composed = await composeBehindCutOut(
    output.data,
    photo?.data ?? output.data,
    choice.kind === 'blur' && !photo ? { kind: 'colour', colour } : choice,
  );
  const note =
    choice.kind === 'colour'
      ? engineNote('background.colour', `Background replaced with the colour ${colour}.`, { colour })
      : choice.kind === 'scene'
        ? engineNote(
            'edit.background_replaced',
            `background replaced with a drawn scene: ${generation.prompt}`,
            {
              scene: generation.prompt,
            },
          )
        : engineNote('background.blurred', 'Background blurred behind the sharp person.');
  return { ...output, ...composed, contentType: 'image/png', notes: [...output.notes, note] };
}
