import type { TGenerationFailureReason, TGenerationNoteCode } from '@mirra/contracts';
import type { FaceProfile } from './faces/index.js';

/*
 * What the pipelines take and report, shared with the server's engine interface (which re-exports
 * the data types): the input images, the notes a result carries, the digital model a face pipeline
 * works from, and the error of an input that cannot succeed (the engine translates it into its own).
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
  /**
   * True while its training is under way (photos checked, no LoRA yet): provider engines make its
   * face photos with an identity-preserving model fed its reference photos instead of a LoRA.
   */
  inTraining?: boolean;
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

/**
 * The input cannot make a result as asked (no face in the photo, an unreadable photo, a model with
 * no usable references): retrying cannot help. `reason` is a code the app words in the user's
 * language; `message` is the pipeline's own (English) account. The server's engine turns it into
 * its engine error.
 */
export class UnusableInputError extends Error {
  override name = 'UnusableInputError';
  constructor(
    readonly reason: TGenerationFailureReason,
    message: string,
  ) {
    super(message);
  }
}
