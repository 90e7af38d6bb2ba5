import type { TGenerationFailureReason, TGenerationNoteCode } from '@mirra/contracts';
import type { FaceProfile } from './faces/index.js';

/*
 * What the pipelines take and report, shared with the server's engine interface (which re-exports
 * these): the input images, the notes a result carries, the error of a request that cannot
 * succeed, and the digital model a face pipeline works from.
 */

/** An image handed to an engine: already normalised (EXIF stripped, orientation applied). */
export interface EngineImage {
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
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
