import sharp from 'sharp';
import { modeDeclaration, type TStyle } from '@mirra/contracts';
import { providerCost, type ProviderPrice } from '../shared/config.js';
import { EngineError, engineNote, type EngineOutput, type EngineRequest } from './engine.types.js';
import { providerVideoOutput } from './provider-video.js';

/**
 * What every provider engine (fal, Replicate, ComfyUI, OpenAI) does the same way around its own
 * API: waiting out a short 429, the styling prompt, and turning the downloaded file into a result
 * with the "made by" note and the provider's cost.
 */

/** A 429's Retry-After longer than this is not waited out: the next engine is tried instead. */
export const MAX_RETRY_AFTER_SECONDS = 30;

/** Retry-After as seconds: a whole number of seconds or an HTTP date (null when absent or unreadable). */
export function retryAfterSeconds(header: string | null, now: Date): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

/**
 * Sends once; a refusal that carries a short Retry-After (a 429) is waited out once and sent again,
 * as the provider asks. Still limited, or asked to wait longer: the error stands (an outage, so the
 * next engine is tried). The wait ends early, as a timeout, when `signal` aborts.
 */
export async function sendWaitingOutRateLimit<T>(
  send: () => Promise<T>,
  signal: AbortSignal,
  provider: string,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const wait = error instanceof EngineError ? error.retryAfterSeconds : null;
    if (wait === null || wait > MAX_RETRY_AFTER_SECONDS) throw error;
    await sleep(wait * 1000, signal, provider);
    return send();
  }
}

function sleep(ms: number, signal: AbortSignal, provider: string): Promise<void> {
  const timeout = () => new EngineError('engine.timeout', `${provider} took too long.`, true);
  if (signal.aborted) return Promise.reject(timeout());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(timeout());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const STYLE_PROMPTS: Record<TStyle, string> = {
  cartoon: 'Redraw this picture as a cartoon with bold outlines and flat colours',
  toy: 'Turn the subject of this picture into a glossy collectible toy figure on a plain stand',
  oil: 'Repaint this picture as an oil painting with visible brush strokes',
  watercolor: 'Repaint this picture as a soft watercolour on textured paper',
  pencil: 'Redraw this picture as a detailed pencil sketch',
  pop_art: 'Redraw this picture as pop art with halftone dots and saturated colours',
};

/** The instruction a provider's editing model gets: a mode that takes a style puts its words before the user's. */
export function providerPrompt(request: Pick<EngineRequest, 'mode' | 'style' | 'prompt'>): string {
  if (!modeDeclaration(request.mode).inputs.style) return request.prompt;
  const style = request.style ? STYLE_PROMPTS[request.style] : null;
  return [style ?? 'Restyle this picture', request.prompt].filter(Boolean).join('. ');
}

/** A provider's file made into a result: an MP4 as a video (poster, checked frames), else a picture. */
export async function providerFileOutput(
  file: { data: Buffer; isVideo: boolean },
  made: { engine: string; model: string },
  prices: Record<string, ProviderPrice>,
  ffmpegPath?: string,
): Promise<EngineOutput> {
  const { engine, model } = made;
  const notes = [engineNote('provider.made_by', `Made by ${engine} with ${model}.`, { engine, model })];
  if (file.isVideo) {
    const output = await providerVideoOutput(file.data, notes, { model, costUsd: null }, ffmpegPath);
    output.provider = { model, costUsd: providerCost(prices, model, output.durationSeconds ?? null) };
    return output;
  }
  const meta = await sharp(file.data)
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height) {
    throw new EngineError('engine.failed', `${providerName(engine)} returned no picture.`, true);
  }
  return {
    data: file.data,
    contentType: meta.format === 'jpeg' ? 'image/jpeg' : 'image/png',
    width: meta.width,
    height: meta.height,
    notes,
    provider: { model, costUsd: providerCost(prices, model) },
  };
}

const PROVIDER_NAMES: Record<string, string> = {
  openai: 'OpenAI',
  comfyui: 'ComfyUI',
  replicate: 'Replicate',
};
const providerName = (engine: string) => PROVIDER_NAMES[engine] ?? engine;
