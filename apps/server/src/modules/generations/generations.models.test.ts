import { GenerationStatus as S } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import {
  generationRequestHash,
  isSameKeyedRequest,
  isValidIdempotencyKey,
  allowedTransitions,
  canTransition,
  parseTimezoneOffset,
  startOfLocalDay,
  statusesAllowedBefore,
  variantWidths,
} from './generations.models.js';

describe('generation status transitions', () => {
  it('lets work move forward and end, never leave an end state', () => {
    expect(canTransition(S.NEW, S.IN_PROGRESS)).toBe(true);
    expect(canTransition(S.IN_PROGRESS, S.COMPLETED)).toBe(true);
    expect(canTransition(S.IN_PROGRESS, S.IN_QUEUE)).toBe(true);
    expect(canTransition(S.NEW, S.COMPLETED)).toBe(false);
    expect(canTransition(S.IN_PROGRESS, S.IN_PROGRESS)).toBe(false);
    for (const end of [S.COMPLETED, S.ERROR, S.FAILED]) expect(allowedTransitions[end]).toEqual([]);
  });

  it('lists where each status may be reached from', () => {
    expect(statusesAllowedBefore(S.COMPLETED)).toEqual([S.IN_PROGRESS]);
    expect(statusesAllowedBefore(S.FAILED).sort()).toEqual([S.NEW, S.IN_QUEUE, S.IN_PROGRESS].sort());
  });
});

describe('free tier', () => {
  it('resets at the user’s local midnight', () => {
    const now = new Date('2026-05-01T22:30:00Z');
    expect(startOfLocalDay(now, 0).toISOString()).toBe('2026-05-01T00:00:00.000Z');
    // UTC+3 (getTimezoneOffset -180): it is already 01:30 on 2 May there.
    expect(startOfLocalDay(now, -180).toISOString()).toBe('2026-05-01T21:00:00.000Z');
    // UTC-5 (offset 300): 17:30 on 1 May.
    expect(startOfLocalDay(now, 300).toISOString()).toBe('2026-05-01T05:00:00.000Z');
  });
  it('reads the timezone cookie defensively', () => {
    expect(parseTimezoneOffset('-180')).toBe(-180);
    expect(parseTimezoneOffset('9999')).toBe(0);
    expect(parseTimezoneOffset('abc')).toBe(0);
    expect(parseTimezoneOffset(undefined)).toBe(0);
  });
});

describe('variants', () => {
  it('are the standard widths below the original, plus the original (capped at 2048)', () => {
    expect(variantWidths(1200)).toEqual([256, 512, 1024, 1200]);
    expect(variantWidths(300)).toEqual([256, 300]);
    expect(variantWidths(4000)).toEqual([256, 512, 1024, 2048]);
  });
});

describe('keyed requests (Idempotency-Key)', () => {
  const inputs = { mode: 'simple', prompt: 'a cat', guidance: 7, images: ['a', 'b'] };

  it('accepts 8–128 letters, digits, "-" and "_" only', () => {
    for (const key of ['abcd1234', 'c6f1d0c2-5b8e-4e43-9f5a-2f6f1b0f9a11', 'a_b-c'.padEnd(128, 'x')]) {
      expect(isValidIdempotencyKey(key), key).toBe(true);
    }
    for (const key of ['', 'short', 'x'.repeat(129), 'has space1', 'a,b,c,d,e,f', 'ключ-ключ']) {
      expect(isValidIdempotencyKey(key), key).toBe(false);
    }
  });

  it('hashes the same inputs alike whatever their order and absent-versus-null', () => {
    expect(generationRequestHash(inputs)).toBe(
      generationRequestHash({ images: ['a', 'b'], guidance: 7, prompt: 'a cat', mode: 'simple', seed: null }),
    );
  });

  it.each([
    ['prompt', { prompt: 'a dog' }],
    ['mode', { mode: 'video' }],
    ['guidance', { guidance: 8 }],
    ['image order', { images: ['b', 'a'] }],
    ['seed', { seed: 1 }],
    ['style', { style: 'anime' }],
    ['model', { model_uuid: 'm' }],
    ['post', { post_uuid: 'p' }],
    ['duration', { duration: 5 }],
    ['repeat source', { repeatOf: 'g' }],
  ])('tells a different %s apart', (_name, change) => {
    expect(generationRequestHash({ ...inputs, ...change })).not.toBe(generationRequestHash(inputs));
  });

  it('a generation made before hashes were kept answers its key as before', () => {
    const hash = generationRequestHash(inputs);
    expect(isSameKeyedRequest(null, hash)).toBe(true);
    expect(isSameKeyedRequest(hash, hash)).toBe(true);
    expect(isSameKeyedRequest(generationRequestHash({ ...inputs, prompt: 'x' }), hash)).toBe(false);
  });
});
