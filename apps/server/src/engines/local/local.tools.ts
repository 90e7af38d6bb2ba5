import {
  cutOutPerson,
  type FaceAnalyzer,
  inpaint,
  outpaint,
  type PersonSegmenter,
  replaceBackground,
  restoreOldPhoto,
  type ToolProgress,
  type ToolResult,
  UnusableInputError,
  upscaleImage,
} from '@mirra/imaging';
import {
  type EngineCapability,
  EngineError,
  engineNote,
  type EngineOutput,
  type EngineRequest,
} from '../engine.types.js';
import { singleImage } from './local.pictures.js';

/**
 * The local engine's picture tools (@mirra/imaging's tools/): the background removed or replaced,
 * the painted part removed, canvas added. Each reads its settings from the request, reports
 * progress through `reach` (which throws the engine's own error when the job was cancelled) and
 * hands back the tool's labelled PNG.
 */

/** Progress as the local engine reports it: a percentage, awaited, throwing when cancelled. */
export interface ToolReporter {
  reach(percent: number): Promise<void>;
}

/** Tool progress from 5 % to 95 %: the engine reports 100 when the result is stored. */
function toolProgress(progress: ToolReporter): ToolProgress {
  return { onProgress: (fraction) => progress.reach(5 + 90 * fraction) };
}

/** The tool's picture as the engine's output, progress at 100 once it is ready. */
async function finished(result: ToolResult, progress: ToolReporter): Promise<EngineOutput> {
  await progress.reach(100);
  return { ...result, procedural: false };
}

/** A pipeline's refusal of its input is the engine's bad input; anything else goes on as it is. */
function asEngineError(error: unknown): never {
  if (error instanceof UnusableInputError) throw EngineError.badInput(error.reason, error.message);
  throw error;
}

/** The person cut out (transparent, the default) or put in front of a colour, a blur or a scene. */
export async function backgroundLocally(
  request: EngineRequest,
  progress: ToolReporter,
  segmenter: PersonSegmenter,
): Promise<EngineOutput> {
  const photo = singleImage(request, 'The background tool');
  const kind = request.settings?.background ?? 'transparent';
  const options = { segmenter, ...toolProgress(progress) };
  const run = () => {
    switch (kind) {
      case 'colour':
        return replaceBackground(
          photo.data,
          { kind, colour: request.settings?.colour ?? '#ffffff' },
          options,
        );
      case 'blur':
        return replaceBackground(photo.data, { kind }, options);
      case 'scene':
        return replaceBackground(photo.data, { kind, prompt: request.prompt, seed: request.seed }, options);
      default:
        return cutOutPerson(photo.data, options);
    }
  };
  return finished(await run().catch(asEngineError), progress);
}

/** The painted part of the photo removed (filled from the rest); words it cannot draw are noted. */
export async function inpaintLocally(request: EngineRequest, progress: ToolReporter): Promise<EngineOutput> {
  const photo = singleImage(request, 'Inpainting');
  const mask = request.settings?.mask;
  if (!mask) throw EngineError.badInput('empty_mask', 'Inpainting needs a painted mask.');
  const result = await inpaint(photo.data, mask.data, {
    prompt: request.prompt,
    seed: request.seed,
    ...toolProgress(progress),
  }).catch(asEngineError);
  return finished(result, progress);
}

/** Canvas added to the asked frame shape or in the asked direction (half the photo's side). */
export async function outpaintLocally(
  request: EngineRequest,
  progress: ToolReporter,
  segmenter: PersonSegmenter,
): Promise<EngineOutput> {
  const photo = singleImage(request, 'Extending');
  const target = {
    ...(request.aspect ? { aspect: request.aspect } : {}),
    ...(request.settings?.extend ? { direction: request.settings.extend } : {}),
  };
  const result = await outpaint(photo.data, target, {
    seed: request.seed,
    segmenter,
    ...toolProgress(progress),
  }).catch(asEngineError);
  const asked = request.prompt.trim();
  if (asked) {
    // The new canvas continues the photo; what the description asks to show there is not drawn.
    result.notes.push(
      engineNote(
        'inpaint.not_drawn',
        `Not drawn: ${asked}. The offline engine can only remove things and fill the area from the photo’s surroundings.`,
        { parts: asked },
      ),
    );
  }
  return finished(result, progress);
}

/** Enlarged ×2 (the default) or ×4 by the bundled super-resolution network. */
export async function upscaleLocally(request: EngineRequest, progress: ToolReporter): Promise<EngineOutput> {
  const photo = singleImage(request, 'Upscaling');
  const result = await upscaleImage(photo.data, request.settings?.scale ?? 2, toolProgress(progress)).catch(
    asEngineError,
  );
  return finished(result, progress);
}

/** An old photo repaired: scratches, dust, grain, faded tones and cast, the faces sharpened. */
export async function restoreLocally(
  request: EngineRequest,
  progress: ToolReporter,
  faces: FaceAnalyzer,
): Promise<EngineOutput> {
  const photo = singleImage(request, 'Restoring');
  const result = await restoreOldPhoto(photo.data, { faces, ...toolProgress(progress) }).catch(asEngineError);
  return finished(result, progress);
}

const REPAIR_CAPABILITIES: Record<'upscale' | 'restore', EngineCapability> = {
  upscale: { ai: false, abilities: ['super_resolution'] },
  restore: { ai: false, abilities: ['photo_repair'] },
};

/** The upscale and restore modes as local pipelines (entries of the table in local.render.ts). */
export const REPAIR_PIPELINES = {
  upscale: {
    capability: REPAIR_CAPABILITIES.upscale,
    run: (request: EngineRequest, _context: unknown, progress: ToolReporter) =>
      upscaleLocally(request, progress),
  },
  restore: {
    capability: REPAIR_CAPABILITIES.restore,
    run: (
      request: EngineRequest,
      _context: unknown,
      progress: ToolReporter,
      tools: { faceAnalyzer: FaceAnalyzer },
    ) => restoreLocally(request, progress, tools.faceAnalyzer),
  },
};
