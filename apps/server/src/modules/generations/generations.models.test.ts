import { GenerationStatus as S } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import {
  generationRequestHash,
  isSameKeyedRequest,
  isValidIdempotencyKey,
  allowedTransitions,
  canTransition,
  freeDayStart,
  freeTierWaitSeconds,
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
  const base = { isUnlimited: false, dailyFree: 3, delaySeconds: 60, now: new Date('2026-05-01T12:00:00Z') };
  it('is free for the first photos of the day, then asks for a pause between generations', () => {
    expect(
      freeTierWaitSeconds({ ...base, generatedToday: 2, lastGenerationAt: new Date('2026-05-01T11:59:59Z') }),
    ).toBe(0);
    expect(
      freeTierWaitSeconds({ ...base, generatedToday: 3, lastGenerationAt: new Date('2026-05-01T11:59:30Z') }),
    ).toBe(30);
    expect(
      freeTierWaitSeconds({ ...base, generatedToday: 9, lastGenerationAt: new Date('2026-05-01T11:58:00Z') }),
    ).toBe(0);
  });
  it('does not apply to unlimited users', () => {
    expect(
      freeTierWaitSeconds({ ...base, isUnlimited: true, generatedToday: 50, lastGenerationAt: base.now }),
    ).toBe(0);
  });
  it('resets at the user’s local midnight', () => {
    const now = new Date('2026-05-01T22:30:00Z');
    expect(startOfLocalDay(now, 0).toISOString()).toBe('2026-05-01T00:00:00.000Z');
    // UTC+3 (getTimezoneOffset -180): it is already 01:30 on 2 May there.
    expect(startOfLocalDay(now, -180).toISOString()).toBe('2026-05-01T21:00:00.000Z');
    // UTC-5 (offset 300): 17:30 on 1 May.
    expect(startOfLocalDay(now, 300).toISOString()).toBe('2026-05-01T05:00:00.000Z');
  });
  describe('the free day', () => {
    const at = (iso: string) => new Date(iso);
    const utcMidnight = at('2026-05-01T00:00:00Z');
    it.each([
      ['no day counted yet: the local midnight', null, '2026-05-01T15:00:00Z', -180, '2026-04-30T21:00:00Z'],
      ['same offset, same day', utcMidnight, '2026-05-01T23:59:00Z', 0, '2026-05-01T00:00:00Z'],
      ['same offset, next local midnight', utcMidnight, '2026-05-02T00:00:00Z', 0, '2026-05-02T00:00:00Z'],
      [
        'days skipped: the latest local midnight',
        utcMidnight,
        '2026-05-04T10:00:00Z',
        0,
        '2026-05-04T00:00:00Z',
      ],
      // The bypass: a cookie whose midnight falls a minute ago, after the day's generations.
      [
        'an offset with a later midnight cannot start a day early',
        utcMidnight,
        '2026-05-01T15:02:00Z',
        -539,
        '2026-05-01T00:00:00Z',
      ],
      [
        'nor can one with an earlier midnight',
        utcMidnight,
        '2026-05-01T15:02:00Z',
        600,
        '2026-05-01T00:00:00Z',
      ],
      // Moving west (UTC → UTC−3): the day runs until the later local midnight.
      ['west: the old day goes on', utcMidnight, '2026-05-02T02:00:00Z', 180, '2026-05-01T00:00:00Z'],
      ['west: then the new local midnight', utcMidnight, '2026-05-02T03:00:00Z', 180, '2026-05-02T03:00:00Z'],
      // Moving east (UTC → UTC+3): the next local midnight is only 21 h on, so the day runs to the one after.
      [
        'east: a midnight 21 h on does not count',
        utcMidnight,
        '2026-05-02T02:00:00Z',
        -180,
        '2026-05-01T00:00:00Z',
      ],
      [
        'east: the first midnight 24 h on does',
        utcMidnight,
        '2026-05-02T21:00:00Z',
        -180,
        '2026-05-02T21:00:00Z',
      ],
    ])('%s', (_name, stored, now, offset, expected) => {
      expect(freeDayStart(at(now), stored, offset).toISOString()).toBe(at(expected).toISOString());
    });

    it('starts each day at least 24 h after the one before, whatever the cookies', () => {
      let previous: Date | null = null;
      const starts: number[] = [];
      // A request every 7 minutes for four days, each with a different offset.
      for (let minute = 0; minute < 4 * 1440; minute += 7) {
        const now = new Date(utcMidnight.getTime() + minute * 60_000);
        const offset = ((minute * 37) % 1561) - 840;
        const start = freeDayStart(now, previous, offset);
        expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
        if (start.getTime() !== previous?.getTime()) starts.push(start.getTime());
        previous = start;
      }
      expect(starts.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < starts.length; i++) {
        expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(24 * 3600_000);
      }
    });
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
