import { describe, expect, it } from 'vitest';
import { DEFAULT_NSFW_THRESHOLDS, judgeNsfwScores } from './image-moderation.models.js';

describe('judgeNsfwScores', () => {
  it.each([
    [{ Neutral: 0.9, Drawing: 0.05, Porn: 0.02, Hentai: 0.02, Sexy: 0.01 }, []],
    [{ Neutral: 0.1, Porn: 0.75, Hentai: 0.05, Sexy: 0.1 }, ['sexual']],
    // Split between the two explicit classes: neither alone passes 0.7, together they do.
    [{ Neutral: 0.1, Porn: 0.4, Hentai: 0.4, Sexy: 0.1 }, ['sexual']],
    [{ Neutral: 0.3, Porn: 0.35, Hentai: 0.35 }, []],
    [{ Neutral: 0.05, Sexy: 0.9, Porn: 0.05 }, ['sexual/suggestive']],
    [{ Neutral: 0.15, Sexy: 0.85 }, []],
    [{ Porn: 0.5, Hentai: 0.3, Sexy: 0.9 }, ['sexual', 'sexual/suggestive']],
    [{}, []],
  ])('%j → %j', (scores, categories) => {
    expect(judgeNsfwScores(scores, DEFAULT_NSFW_THRESHOLDS)).toEqual({
      flagged: categories.length > 0,
      categories,
    });
  });

  it('follows configured thresholds', () => {
    const strict = { explicit: 0.2, suggestive: 0.5 };
    expect(judgeNsfwScores({ Porn: 0.15, Hentai: 0.1 }, strict).flagged).toBe(true);
    expect(judgeNsfwScores({ Sexy: 0.6 }, strict).flagged).toBe(true);
    expect(judgeNsfwScores({ Sexy: 0.6 }, DEFAULT_NSFW_THRESHOLDS).flagged).toBe(false);
  });
});
