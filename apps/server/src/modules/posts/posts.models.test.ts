import { describe, expect, it } from 'vitest';
import {
  canGenerateFromPost,
  canSeePost,
  classifyPostUse,
  decodeCursor,
  displayName,
  encodeCursor,
  engagement,
  postScore,
  profileShareLinks,
  SCORE_DECAY_SECONDS,
  SEARCH_BUCKET_LEVELS,
  nextSearchLevel,
  searchBucket,
  searchBuckets,
  searchWindow,
  settleRoyalty,
  shouldHideAfterReports,
  viewDay,
  type PostRecipe,
} from './posts.models.js';

const none = { saves: 0, repeats: 0, remixes: 0, views: 0 };
const at = (iso: string) => new Date(iso);

describe('postScore (the recommended ranking)', () => {
  it('grows with every kind of engagement, paid uses weighing most and views least', () => {
    const base = postScore(none, at('2026-03-01T00:00:00Z'));
    const withSave = postScore({ ...none, saves: 1 }, at('2026-03-01T00:00:00Z'));
    const withRepeat = postScore({ ...none, repeats: 1 }, at('2026-03-01T00:00:00Z'));
    const withRemix = postScore({ ...none, remixes: 1 }, at('2026-03-01T00:00:00Z'));
    const withView = postScore({ ...none, views: 1 }, at('2026-03-01T00:00:00Z'));
    expect(withView).toBeGreaterThan(base);
    expect(withSave).toBeGreaterThan(withView);
    expect(withRepeat).toBeGreaterThan(withSave);
    expect(withRemix).toBe(withRepeat);
  });

  it('ranks a newer post higher at equal engagement, and never changes with the passage of time', () => {
    const older = postScore({ ...none, saves: 10 }, at('2026-03-01T00:00:00Z'));
    const newer = postScore({ ...none, saves: 10 }, at('2026-03-01T00:00:01Z'));
    expect(newer).toBeGreaterThan(older);
    // Pure: the same inputs always give the same score (no "now" in the formula).
    expect(postScore({ ...none, saves: 10 }, at('2026-03-01T00:00:00Z'))).toBe(older);
  });

  it('decays by e per 12 hours: a post 12 hours older needs e times the engagement to tie', () => {
    const t0 = at('2026-03-01T00:00:00Z');
    const t1 = new Date(t0.getTime() + SCORE_DECAY_SECONDS * 1000);
    const fresh = postScore({ ...none, saves: 1 }, t1); // engagement 3 → ln(4)
    // Engagement E with 1 + E = 4e ties with the fresher post.
    const needed = 4 * Math.E - 1;
    const older = postScore({ ...none, views: needed * 5 }, t0);
    expect(older).toBeCloseTo(fresh, 9);
    expect(postScore({ ...none, views: needed * 5 - 1 }, t0)).toBeLessThan(fresh);
  });

  it('weighs engagement as 3·saves + 5·repeats + 5·remixes + views/5', () => {
    expect(engagement({ saves: 2, repeats: 3, remixes: 4, views: 10 })).toBe(6 + 15 + 20 + 2);
  });

  it('is 0 for a post never published', () => {
    expect(postScore({ ...none, saves: 50 }, null)).toBe(0);
  });
});

describe('classifyPostUse', () => {
  const post: PostRecipe = {
    mode: 'simple',
    prompt: 'a lighthouse at dusk',
    guidance: 7,
    style: null,
    seed: 42,
    durationSeconds: null,
  };
  const same = { ...post };

  it.each([
    ['the exact recipe', same, 'repeat'],
    ['an edited prompt', { ...same, prompt: 'a lighthouse at dawn' }, 'remix'],
    ['another seed', { ...same, seed: 43 }, 'remix'],
    ['no seed (a random one)', { ...same, seed: undefined }, 'remix'],
    ['another guidance', { ...same, guidance: 8 }, 'remix'],
    ['another mode', { ...same, mode: 'face_swap' as const }, 'remix'],
    ['a style added', { ...same, style: 'toy' }, 'remix'],
  ])('%s is a %s', (_name, request, expected) => {
    expect(classifyPostUse(post, request)).toBe(expected);
  });

  it('tolerates the float rounding of a stored guidance', () => {
    expect(classifyPostUse({ ...post, guidance: 7.300000190734863 }, { ...same, guidance: 7.3 })).toBe(
      'repeat',
    );
  });
});

describe('who may see and use a post', () => {
  it.each([
    ['published', 1, null, true],
    ['published', 1, 2, true],
    ['draft', 1, 1, true],
    ['draft', 1, 2, false],
    ['draft', 1, null, false],
    ['hidden', 1, 1, true],
    ['hidden', 1, 2, false],
  ] as const)('%s post of user %d, viewer %s → %s', (status, authorId, viewerId, expected) => {
    expect(canSeePost({ status, authorId }, viewerId)).toBe(expected);
    expect(canGenerateFromPost({ status, authorId }, viewerId)).toBe(expected);
  });
});

describe('settleRoyalty (20% of what is spent, fractions carried)', () => {
  it.each([
    // carried, spent → paid now, carried on
    [0, 5, 1, 0],
    [0, 10, 2, 0],
    [0, 1, 0, 20],
    [80, 1, 1, 0],
    [60, 2, 1, 0],
    [90, 7, 2, 30],
    [0, 14, 2, 80],
    [40, 0, 0, 40],
  ])('carried %d hundredths, %d credits spent → pays %d, carries %d', (carried, spent, pay, carry) => {
    expect(settleRoyalty({ carriedHundredths: carried, spentCredits: spent })).toEqual({
      payCredits: pay,
      carriedHundredths: carry,
    });
  });

  it('pays exactly 20% of any run of spends, less under one credit still carried', () => {
    const spends = [1, 1, 2, 1, 3, 7, 1, 1, 14, 1, 2, 5, 1, 1, 1, 9];
    let carried = 0;
    let paid = 0;
    for (const spent of spends) {
      const settled = settleRoyalty({ carriedHundredths: carried, spentCredits: spent });
      paid += settled.payCredits;
      carried = settled.carriedHundredths;
      expect(carried).toBeGreaterThanOrEqual(0);
      expect(carried).toBeLessThan(100);
    }
    const spentTotal = spends.reduce((sum, spent) => sum + spent, 0);
    expect(paid * 100 + carried).toBe(spentTotal * 20);
  });

  it('pays one credit for every five 1-credit uses', () => {
    let carried = 0;
    const payments: number[] = [];
    for (let use = 0; use < 10; use++) {
      const settled = settleRoyalty({ carriedHundredths: carried, spentCredits: 1 });
      payments.push(settled.payCredits);
      carried = settled.carriedHundredths;
    }
    expect(payments).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(carried).toBe(0);
  });
});

describe('reports, views, names and links', () => {
  it('hides at the threshold, never when the threshold is 0', () => {
    expect(shouldHideAfterReports(2, 3)).toBe(false);
    expect(shouldHideAfterReports(3, 3)).toBe(true);
    expect(shouldHideAfterReports(100, 0)).toBe(false);
  });

  it('counts views by UTC day', () => {
    expect(viewDay(at('2026-03-01T23:59:59Z'))).toBe('2026-03-01');
    expect(viewDay(at('2026-03-02T00:00:00Z'))).toBe('2026-03-02');
  });

  it('names people by name, else username', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', username: 'ada' })).toBe('Ada Lovelace');
    expect(displayName({ firstName: '', lastName: '', username: 'ada' })).toBe('ada');
  });

  it('shares profiles on the web and, with a bot, in the Mini App with the p_ start parameter', () => {
    const uuid = '6f1c1c9e-5a6b-4c1d-9e8f-0a1b2c3d4e5f';
    expect(profileShareLinks({ publicUrl: 'https://mirra.app' }, uuid)).toEqual({
      web: `https://mirra.app/profile/${uuid}/`,
      telegram: null,
    });
    expect(
      profileShareLinks(
        { publicUrl: 'https://mirra.app', botUsername: 'MirraBot', miniAppName: 'app' },
        uuid,
      ),
    ).toEqual({
      web: `https://mirra.app/profile/${uuid}/`,
      telegram: `https://t.me/MirraBot/app?startapp=p_${uuid}`,
    });
  });
});

describe('keyset cursors', () => {
  it('round-trip the sort key and id exactly, scores and millisecond times alike', () => {
    for (const [key, id] of [
      [1_772_323_200_123, 17],
      [1234.5678901234567, 1_000_000],
      [-3.25, 1],
    ] as const) {
      expect(decodeCursor(encodeCursor(key, id))).toEqual({ key, id });
    }
  });

  it.each([
    '',
    'not base64!',
    Buffer.from('[1]').toString('base64url'),
    Buffer.from('["a",1]').toString('base64url'),
    Buffer.from('[1,-5]').toString('base64url'),
    Buffer.from('{').toString('base64url'),
  ])('rejects %j', (cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});

describe('search buckets', () => {
  const DAY = 86_400_000;

  it('nest: days sharing a bucket at one level share it at every wider level, and the last holds all', () => {
    for (const [a, b] of [
      [20_000, 20_003],
      [20_480, 20_990],
      [0, 30_000],
    ]) {
      let shared = false;
      for (let level = 0; level < SEARCH_BUCKET_LEVELS; level++) {
        const same = searchBucket(level, a!) === searchBucket(level, b!);
        if (shared) expect(same, `level ${level}`).toBe(true);
        shared ||= same;
      }
      expect(searchBucket(SEARCH_BUCKET_LEVELS - 1, a!)).toBe(searchBucket(SEARCH_BUCKET_LEVELS - 1, b!));
    }
  });

  it('group 4^level days at each level, levels never colliding', () => {
    expect(searchBucket(1, 4 * 5000)).toBe(searchBucket(1, 4 * 5000 + 3));
    expect(searchBucket(1, 4 * 5000)).not.toBe(searchBucket(1, 4 * 5000 + 4));
    expect(searchBucket(3, 64 * 300)).toBe(searchBucket(3, 64 * 300 + 63));
    expect(searchBucket(3, 64 * 300)).not.toBe(searchBucket(3, 64 * 300 - 1));
    const all = searchBuckets(at('2026-03-01T12:00:00Z'));
    expect(all).toHaveLength(SEARCH_BUCKET_LEVELS);
    expect(new Set(all).size).toBe(SEARCH_BUCKET_LEVELS);
    expect(all[0]).toBe(Math.floor(Date.parse('2026-03-01T00:00:00Z') / DAY));
    expect(searchBuckets(null)).toEqual([]);
  });

  it('search windows reach back at least 4^level days, even on a day where buckets start', () => {
    for (const day of [20_480, 20_481, 20_735, 16_384]) {
      let previousFirst = Infinity;
      for (let level = 0; level < SEARCH_BUCKET_LEVELS - 1; level++) {
        const { buckets, firstDay } = searchWindow(level, day);
        expect(buckets).toEqual([searchBucket(level, day), searchBucket(level, day) - 1]);
        expect(day - firstDay + 1).toBeGreaterThanOrEqual(4 ** level);
        // Every day from firstDay to day is in one of the two buckets, and nothing older.
        expect(buckets).toContain(searchBucket(level, firstDay));
        expect(buckets).not.toContain(searchBucket(level, firstDay - 1));
        expect(firstDay).toBeLessThanOrEqual(previousFirst); // wider levels reach further back
        previousFirst = firstDay;
      }
      expect(searchWindow(SEARCH_BUCKET_LEVELS - 1, day)).toEqual({ buckets: [8e7], firstDay: -Infinity });
    }
  });

  it('picks the next window from the density found so far', () => {
    // Half an hour into day 20527, which is 3 days into its 4-day bucket, 15 into its 16-day one,
    // and 47 into its 64-, 256- and 1024-day ones: levels 0–5 reach back about 1, 8, 32, 112, 304
    // and 1072 days.
    const upperMs = Date.UTC(2026, 2, 15, 0, 30);
    const next = (level: number, found: number) => nextSearchLevel(level, { found, wanted: 21, upperMs });
    // 20 found in a day: two days are plenty, and level 1 reaches 8.
    expect(next(0, 20)).toBe(1);
    // 2 found: about 21 days are needed, which level 2 (32 days) covers.
    expect(next(0, 2)).toBe(2);
    // Nothing found: 16 times further back (16 days → level 2; 512 days → level 5).
    expect(next(0, 0)).toBe(2);
    expect(next(2, 0)).toBe(5);
    // Never past everything, and after everything, stop.
    expect(next(7, 0)).toBe(SEARCH_BUCKET_LEVELS - 1);
    expect(next(SEARCH_BUCKET_LEVELS - 1, 0)).toBe(SEARCH_BUCKET_LEVELS);
  });
});
