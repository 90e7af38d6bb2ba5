import type { TEngineAbility, TGenerationMode, TImageAspect, TStyle, ToolSettings } from '@mirra/contracts';
import type { EngineFaceModel, EngineImage, EngineNote } from '@mirra/imaging';
import type { EngineError } from './engine-error.js';

// The data the local pipelines take and report too: defined by @mirra/imaging, the same for every engine.
export { engineNote, type EngineFaceModel, type EngineImage, type EngineNote } from '@mirra/imaging';
export { EngineError, type EngineErrorCode } from './engine-error.js';

/** A tool's settings as an engine gets them: a mask or a garment as an image, not an upload's uuid. */
export interface EngineToolSettings extends Omit<ToolSettings, 'mask' | 'garment' | 'voice'> {
  /** A PNG, white where the picture is to change (scaled to the photo by the engine). */
  mask?: EngineImage;
  garment?: EngineImage;
  /** A talking photo's recorded voice (audio/webm, ogg, mp4 or wav; no width or height). */
  voice?: EngineImage;
}

export interface EngineRequest {
  generationUuid: string;
  mode: TGenerationMode;
  /** English prompt (or the editing instruction). */
  prompt: string;
  guidance: number;
  /** Same seed, same request → same result (repeat reproduces it). */
  seed: number;
  style: TStyle | null;
  durationSeconds: number | null;
  /**
   * Frame shape: a video's, or a picture's asked for (IMAGE_ASPECTS); null for a picture that
   * keeps its photo's shape (or the engine's default without a photo).
   */
  aspect?: TImageAspect | null;
  /** The tools' settings, with the uploads they name (the mask, the garment) loaded. */
  settings?: EngineToolSettings;
  /** Source photo for editing and styling; the target for face swap. */
  images: EngineImage[];
  /** The user's trained digital model, for face swap and face photos (`model_uuid`). */
  faceModel?: EngineFaceModel;
}

export interface EngineOutput {
  data: Buffer;
  /** image/png, image/jpeg or video/mp4. */
  contentType: string;
  width: number;
  height: number;
  /** Video: a still of the first frame (WebP) for lists and the player's poster. */
  poster?: Buffer;
  /** Video: its length in seconds. */
  durationSeconds?: number;
  /** Video: frames spread over a clip no one here drew (a provider's), checked with the poster. */
  checkedFrames?: Buffer[];
  /** What the engine understood or did, shown to the user (e.g. "brightness +20%"). */
  notes: EngineNote[];
  /**
   * True when every pixel was drawn by code from geometric shapes, with no photo and no learned
   * model behind it: such a picture cannot show anything explicit, so the NSFW classifier (which
   * misreads abstract art as "Hentai" on about one seed in eight) is not asked about it.
   */
  procedural?: boolean;
  /** A provider's engine: the model that made it and what the provider charged for it (USD). */
  provider?: { model: string; costUsd: number | null };
}

/** Fast engines finish inside `start`; provider engines hand back a job id to poll or await. */
export type EngineStart = { kind: 'done'; output: EngineOutput } | { kind: 'pending'; providerJobId: string };

export type EnginePoll =
  /** `queuePosition`: still waiting in the provider's queue (0 = next). */
  | { kind: 'running'; progress: number; queuePosition?: number }
  | { kind: 'done'; output: EngineOutput }
  | { kind: 'failed'; error: EngineError };

export interface EngineContext {
  /** Progress 0–100, shown live to the user. */
  onProgress(progress: number): Promise<void> | void;
  signal: AbortSignal;
}

/** What an engine does for one mode: the single declaration the app's wording comes from. */
export interface EngineCapability {
  /** Whether a generative AI model makes the result. */
  ai: boolean;
  abilities: readonly TEngineAbility[];
}

/** A provider's generative model: the declaration of every engine that calls one. */
export const GENERATIVE_MODEL: EngineCapability = { ai: true, abilities: ['ai_model', 'photorealistic'] };

/**
 * One interface for every way of making a result: the offline `local` engine and the real
 * providers (fal, Replicate, ComfyUI, OpenAI). Chosen per mode by configuration.
 */
export interface GenerationEngine {
  readonly name: string;
  supports(mode: TGenerationMode): boolean;
  /** What it does for a mode it supports; an engine without one calls a generative model. */
  capability?(mode: TGenerationMode): EngineCapability;
  start(request: EngineRequest, context: EngineContext): Promise<EngineStart>;
  poll?(providerJobId: string, context: EngineContext): Promise<EnginePoll>;
  /** The finished job's output, when a webhook says it is done (no status poll needed). */
  fetchResult?(providerJobId: string, context: EngineContext): Promise<EngineOutput>;
  cancel?(providerJobId: string): Promise<void>;
}

/** How a provider's webhook says its job ended: done (the result is fetched by the engine) or failed. */
export type ProviderJobEnding = { kind: 'done' } | { kind: 'failed'; error: EngineError };

export type ProviderJobOutcome = 'finished' | 'already finished' | 'unknown request';

/**
 * The port through which an engine's webhook finishes the generation that owns a provider job.
 * The generations module implements it and the composition root hands it to the engine: engines
 * never read or write generations themselves.
 */
export interface GenerationStore {
  /**
   * Finishes the generation whose stored job of `provider` starts with `providerJobIdPrefix`, as
   * the polling worker would: done → the engine's `fetchResult` output is stored (moderation,
   * variants); failed → failed and refunded. Duplicates and late deliveries change nothing.
   */
  finishProviderJob(
    job: { provider: string; providerJobIdPrefix: string },
    ending: ProviderJobEnding,
  ): Promise<ProviderJobOutcome>;
}
