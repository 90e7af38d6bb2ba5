import { jobKindOf, jobKindsOf, type TGenerationMode, type TJobKind } from '@mirra/contracts';
import { EngineError, type EngineRequest } from './engine.types.js';

/**
 * Provider engines run job kinds, never modes: a mode's declaration says which job makes each
 * shape of its request, so a new mode made of known jobs needs no engine change.
 */

/** The job a request runs: by its mode and whether it brings a photo. */
export function jobOf(request: Pick<EngineRequest, 'mode' | 'images'>): TJobKind {
  const kind = jobKindOf(request.mode, request.images.length);
  if (kind) return kind;
  if (request.images.length === 0) {
    throw EngineError.badInput('needs_one_photo', 'A photo is needed for this mode.');
  }
  throw EngineError.badInput('mode_unsupported', 'This mode takes no photo.');
}

/** Whether an engine that runs these jobs serves the mode: it runs one of the mode's jobs. */
export function servesMode(jobs: readonly TJobKind[], mode: TGenerationMode): boolean {
  return jobKindsOf(mode).some((kind) => jobs.includes(kind));
}

/**
 * The request's job, when this engine runs it. One it does not run (a video from a description
 * at a provider that only animates photos) is an outage of this engine for the request, so the
 * next engine of the mode's list makes it.
 */
export function jobServedBy(
  engine: string,
  jobs: readonly TJobKind[],
  request: Pick<EngineRequest, 'mode' | 'images'>,
): TJobKind {
  const kind = jobOf(request);
  if (!jobs.includes(kind)) {
    throw new EngineError(
      'engine.unavailable',
      `${engine} does not run ${kind.replaceAll('_', ' ')} jobs.`,
      true,
    );
  }
  return kind;
}
