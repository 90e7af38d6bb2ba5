import { GenerationStatus as S } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  canTransition,
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
