import { describe, expect, it } from 'vitest';
import { EngineError } from './engine.types.js';
import { movesToNextEngine, parseEngineList } from './engine-fallback.models.js';

describe('parseEngineList', () => {
  it('reads an ordered list of engine names, trimmed, lower-cased, without blanks or repeats', () => {
    expect(parseEngineList('fal, Replicate ,,local,fal')).toEqual(['fal', 'replicate', 'local']);
  });
  it('keeps a single name as a list of one, and an empty setting as none', () => {
    expect(parseEngineList('local')).toEqual(['local']);
    expect(parseEngineList(' ')).toEqual([]);
  });
});

describe('movesToNextEngine', () => {
  const error = (code: EngineError['code']) => new EngineError(code, 'x', true);
  it('moves on after an outage before the provider accepted the job', () => {
    expect(movesToNextEngine(error('engine.unavailable'), false)).toBe(true);
    expect(movesToNextEngine(error('engine.timeout'), false)).toBe(true);
  });
  it('does not move on after a safety refusal, bad input or another failure', () => {
    expect(movesToNextEngine(error('engine.refused'), false)).toBe(false);
    expect(movesToNextEngine(error('engine.bad_input'), false)).toBe(false);
    expect(movesToNextEngine(error('engine.failed'), false)).toBe(false);
  });
  it('does not move on once the provider accepted the job (it is resumed by its id)', () => {
    expect(movesToNextEngine(error('engine.unavailable'), true)).toBe(false);
  });
});
