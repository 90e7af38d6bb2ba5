import type { TGenerationFailureReason } from '@mirra/contracts';

/*
 * How an engine says a request failed, whichever engine it is (local, fal, Replicate, ComfyUI):
 * the code decides retrying, moving to the next engine and the refund's wording.
 */

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
