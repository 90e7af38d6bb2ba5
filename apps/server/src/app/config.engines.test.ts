import { GENERATION_MODES } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import { parseConfig, parseProviderPrices, providerCost } from '../shared/config.js';

describe('engine configuration', () => {
  it('keeps local as the only engine of every mode, and no fal engine, without settings', () => {
    const config = parseConfig({ NODE_ENV: 'test' });
    expect(config.engines).toEqual(Object.fromEntries(GENERATION_MODES.map((mode) => [mode, ['local']])));
    expect(Object.keys(config.engines)).toContain('upscale');
    expect(config.fal).toBeNull();
  });

  it('reads ordered fallbacks per mode and the fal settings with a key', () => {
    const config = parseConfig({
      NODE_ENV: 'test',
      ENGINE_SIMPLE: 'fal, local',
      FAL_KEY: 'k',
      FAL_BASE_URL: 'http://127.0.0.1:4610/',
    });
    expect(config.engines.simple).toEqual(['fal', 'local']);
    expect(config.fal).toMatchObject({ key: 'k', baseUrl: 'http://127.0.0.1:4610', userId: null });
    expect(config.fal?.models.textToImage).toBe('fal-ai/flux/schnell');
    expect(config.providerPrices['fal-ai/flux/dev']).toEqual({ usd: 0.025, perSecond: false });
    expect(config.trainingEngines).toEqual(['local']);
  });

  it('reads a price table, skipping entries that are not prices', () => {
    expect(parseProviderPrices('a/b=0.5, c=x,=1,d=0,v=0.05/s')).toEqual({
      'a/b': { usd: 0.5, perSecond: false },
      d: { usd: 0, perSecond: false },
      v: { usd: 0.05, perSecond: true },
    });
  });

  it('prices a video by its seconds, a picture by the result, an unlisted model not at all', () => {
    const prices = parseProviderPrices('img=0.04,vid=0.056/s');
    expect(providerCost(prices, 'img')).toBe(0.04);
    expect(providerCost(prices, 'vid', 5)).toBeCloseTo(0.28, 6);
    expect(providerCost(prices, 'other')).toBeNull();
  });
});
