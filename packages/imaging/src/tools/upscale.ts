import { engineNote, type EngineNote } from '../pipeline.types.js';
import { MAX_UPSCALE_SIDE } from '../pipelines/editing.models.js';
import { type ModelScale, superResolve } from './super-resolution.js';
import {
  decodeWithAlpha,
  encodeResult,
  type LocalToolOptions,
  type LocalToolResult,
  resizePlane,
  resizeRgb,
  stepper,
} from './tool-io.js';

/**
 * The upscale tool of the local engine: ×2 or ×4 by the bundled ESRGAN network (tiled, so memory
 * stays small), transparency carried over by a Lanczos resize of the alpha, the longest side capped
 * at MAX_UPSCALE_SIDE (the editor's limit: larger files take too long to encode and download).
 * Photos too large for the network to finish in a job's time are enlarged by Lanczos with light
 * sharpening, and the note says so.
 */

export type UpscaleFactor = 2 | 4;

/**
 * Input pixels the network may be given (~0.04 ms each on one core: about two minutes at this
 * size, well inside a job's time even on a busy machine). Larger photos are resized classically.
 */
export const MAX_NETWORK_INPUT_PIXELS = 3_200_000;

export async function upscaleImage(
  data: Buffer,
  factor: UpscaleFactor,
  options: LocalToolOptions = {},
): Promise<LocalToolResult> {
  const step = stepper(options);
  const { rgb, alpha, width, height } = await decodeWithAlpha(data);
  await step(0.02);
  const plan = planUpscale(width, height, factor);
  if (plan.kind === 'none') {
    return {
      ...(await encodeResult({ rgb, alpha, width, height }, 'upscale')),
      notes: [
        engineNote(
          'edit.not_upscaled',
          `not upscaled: the photo is already ${width}×${height} (the limit is ${MAX_UPSCALE_SIDE} px)`,
          { width, height, limit: MAX_UPSCALE_SIDE },
        ),
      ],
    };
  }
  let upscaled: { data: Buffer; width: number; height: number };
  if (plan.kind === 'network' && plan.modelScale) {
    const made = await superResolve({ data: rgb, width, height }, plan.modelScale, {
      afterTile: (fraction) => step(0.02 + 0.88 * fraction),
    });
    upscaled =
      made.width === plan.width && made.height === plan.height
        ? made
        : await resizeRgb(made, plan.width, plan.height, false);
  } else {
    upscaled = await resizeRgb({ data: rgb, width, height }, plan.width, plan.height, true);
  }
  await step(0.92);
  const scaledAlpha = alpha ? await resizePlane(alpha, { width, height }, plan.width, plan.height) : null;
  const encoded = await encodeResult({ rgb: upscaled.data, alpha: scaledAlpha, ...plan }, 'upscale');
  await step(1);
  return { ...encoded, notes: [upscaleNote(plan)] };
}

export type UpscalePlan =
  | { kind: 'none' }
  | {
      kind: 'network' | 'classical';
      /** The network's scale (the result is then resized to the size when they differ). */
      modelScale: ModelScale | null;
      width: number;
      height: number;
      /** The enlargement made, rounded to hundredths (less than asked when capped). */
      factor: number;
      capped: boolean;
    };

/**
 * How a photo is enlarged: by the network at the asked scale when the result fits the cap; at ×2
 * and then resized to the cap when ×4 would pass it; classically when even ×2 would pass the cap
 * (less than doubling gains little from the network) or the photo is too large for it.
 */
export function planUpscale(width: number, height: number, factor: UpscaleFactor): UpscalePlan {
  const longSide = Math.max(width, height);
  const target = Math.min(MAX_UPSCALE_SIDE, longSide * factor);
  if (target <= longSide) return { kind: 'none' };
  const scale = target / longSide;
  const size = {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
    factor: Math.round(scale * 100) / 100,
    capped: target < longSide * factor,
  };
  const modelScale: ModelScale | null =
    longSide * factor <= MAX_UPSCALE_SIDE ? factor : longSide * 2 <= MAX_UPSCALE_SIDE ? 2 : null;
  if (modelScale === null || width * height > MAX_NETWORK_INPUT_PIXELS) {
    return { kind: 'classical', modelScale: null, ...size };
  }
  return { kind: 'network', modelScale, ...size };
}

function upscaleNote(plan: Exclude<UpscalePlan, { kind: 'none' }>): EngineNote {
  const { width, height, factor } = plan;
  const cap = plan.capped ? ` (capped at ${MAX_UPSCALE_SIDE} px)` : '';
  const params: Record<string, number> = plan.capped
    ? { factor, width, height, limit: MAX_UPSCALE_SIDE }
    : { factor, width, height };
  if (plan.kind === 'network') {
    const text = `upscaled ${factor}× to ${width}×${height}${cap} by a super-resolution neural network, ESRGAN, run offline`;
    return engineNote(plan.capped ? 'upscale.network_capped' : 'upscale.network', text, params);
  }
  const text = `upscaled ${factor}× to ${width}×${height}${cap}, Lanczos with light sharpening: the photo is too large for the neural network`;
  return engineNote(plan.capped ? 'upscale.classical_capped' : 'upscale.classical', text, params);
}
