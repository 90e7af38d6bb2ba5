import type { EngineError } from './engine.types.js';

export { parseEngineList } from '../shared/config.js';

/**
 * Whether a failed attempt moves on to the next engine of the mode's list. Only an outage does:
 * the provider could not be reached, answered 5xx, was still rate-limited after its Retry-After,
 * or took too long. A refusal by the provider's safety system, bad input and other failures stay
 * with this engine (another engine would be asked to make the same refused picture), and so does
 * any failure after the provider accepted the job: the job is paid for and resumed by its id.
 */
export function movesToNextEngine(error: Pick<EngineError, 'code'>, submitted: boolean): boolean {
  if (submitted) return false;
  return error.code === 'engine.unavailable' || error.code === 'engine.timeout';
}
