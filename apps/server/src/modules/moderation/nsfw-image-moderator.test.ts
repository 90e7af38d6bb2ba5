import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_NSFW_THRESHOLDS, NSFW_CLASSES } from './image-moderation.models.js';
import { createNsfwImageModerator } from './nsfw-image-moderator.js';

/** A landscape: sky gradient over green hills, as SVG rendered by sharp. */
async function landscape(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#3b7dd8"/><stop offset="1" stop-color="#cfe8ff"/></linearGradient></defs>
    <rect width="480" height="320" fill="url(#sky)"/>
    <circle cx="380" cy="70" r="36" fill="#fff3b0"/>
    <path d="M0 220 Q120 150 240 210 T480 190 V320 H0 Z" fill="#3f8f3a"/>
    <path d="M0 260 Q160 220 300 260 T480 250 V320 H0 Z" fill="#2d6b29"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

afterEach(() => vi.unstubAllGlobals());

describe('the NSFW image moderator', () => {
  it('passes a landscape, with a score for every class summing to 1, loading nothing from the network', async () => {
    vi.stubGlobal('fetch', () => {
      throw new Error('no network: the model and the wasm binaries ship in node_modules');
    });
    const moderator = createNsfwImageModerator({ thresholds: DEFAULT_NSFW_THRESHOLDS });
    const verdict = await moderator.check(await landscape());
    expect(verdict.flagged).toBe(false);
    expect(verdict.categories).toEqual([]);
    expect(Object.keys(verdict.scores).sort()).toEqual([...NSFW_CLASSES].sort());
    const sum = Object.values(verdict.scores).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 3);
  });

  it('loads the model once and reuses it (also across moderators), for any image format', async () => {
    const first = createNsfwImageModerator({ thresholds: DEFAULT_NSFW_THRESHOLDS });
    await first.warmUp();
    const second = createNsfwImageModerator({ thresholds: DEFAULT_NSFW_THRESHOLDS });
    const grey = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    const transparent = await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const started = Date.now();
    for (const image of [grey, transparent, await landscape()]) {
      const verdict = await second.check(image);
      expect(Object.keys(verdict.scores)).toHaveLength(NSFW_CLASSES.length);
    }
    // Three classifications without a reload: loading alone takes far longer on this machine.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('applies the configured thresholds to the scores', async () => {
    // With thresholds below any score, even a landscape is refused: the policy is really applied.
    const paranoid = createNsfwImageModerator({ thresholds: { explicit: -1, suggestive: -1 } });
    const verdict = await paranoid.check(await landscape());
    expect(verdict).toMatchObject({ flagged: true, categories: ['sexual', 'sexual/suggestive'] });
  });

  it('fails loudly on bytes that are not an image', async () => {
    const moderator = createNsfwImageModerator({ thresholds: DEFAULT_NSFW_THRESHOLDS });
    await expect(moderator.check(Buffer.from('not an image'))).rejects.toThrow();
  });
});
