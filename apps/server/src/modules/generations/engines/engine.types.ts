import type {
  TGenerationFailureReason,
  TGenerationMode,
  TGenerationNoteCode,
  TStyle,
  TVideoAspect,
} from '@mirra/contracts';
import type { FaceProfile } from '../../faces/index.js';

/** An image handed to an engine: already normalised (EXIF stripped, orientation applied). */
export interface EngineImage {
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
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
  /** Video frame shape; null for pictures (the engine's default then). */
  aspect?: TVideoAspect | null;
  /** Source photo for editing and styling; the target for face swap. */
  images: EngineImage[];
  /** The user's trained digital model, for face swap and face photos (`model_uuid`). */
  faceModel?: EngineFaceModel;
}

/** What an engine gets of a digital model: the local profile and its reference photos. */
export interface EngineFaceModel {
  uuid: string;
  /** LoRAs trained for this model at providers (by engine name), for their face-photo models. */
  providerLoras?: Record<string, { url: string; triggerWord: string }>;
  /** Identity, landmark statistics and the best references per pose (face-profile.models.ts). */
  profile: FaceProfile;
  /** The original photo behind a reference (`FaceReference.photoId`). */
  loadReferencePhoto(photoId: string): Promise<Buffer>;
}

/**
 * One thing the engine did: a stable code (worded by the app in the user's language with the
 * params) and the English text, which is all an engine without codes gives (code null).
 */
export interface EngineNote {
  code: TGenerationNoteCode | null;
  params: Record<string, string | number>;
  text: string;
}

export function engineNote(
  code: TGenerationNoteCode | null,
  text: string,
  params: Record<string, string | number> = {},
): EngineNote {
  return { code, params, text };
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

/**
 * One interface for every way of making a result: the offline `local` engine and the real
 * providers (fal, Replicate, ComfyUI, OpenAI). Chosen per mode by configuration.
 */
export interface GenerationEngine {
  readonly name: string;
  supports(mode: TGenerationMode): boolean;
  start(request: EngineRequest, context: EngineContext): Promise<EngineStart>;
  poll?(providerJobId: string, context: EngineContext): Promise<EnginePoll>;
  /** The finished job's output, when a webhook says it is done (no status poll needed). */
  fetchResult?(providerJobId: string, context: EngineContext): Promise<EngineOutput>;
  cancel?(providerJobId: string): Promise<void>;
}

export type EngineErrorCode =
  /** The request cannot succeed as asked (e.g. no face in the photo); never retried. */
  | 'engine.bad_input'
  /** A transient failure; the job is retried with backoff. */
  | 'engine.unavailable'
  | 'engine.timeout'
  /** The provider's safety system refused the prompt or its result; never retried elsewhere. */
  | 'engine.refused'
  | 'engine.failed';

export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly retryable: boolean,
    /** For bad input: what was wrong, as a code the app words in the user's language. */
    readonly reason: TGenerationFailureReason | null = null,
    /** For an outage the provider asked to wait out (429 Retry-After), in seconds. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  /** The request cannot succeed as asked; `message` is the engine's own (English) account. */
  static badInput(reason: TGenerationFailureReason, message: string): EngineError {
    return new EngineError('engine.bad_input', message, false, reason);
  }
}
