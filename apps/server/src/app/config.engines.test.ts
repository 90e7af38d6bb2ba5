import { describe, expect, it } from 'vitest';
import { parseConfig, parseProviderPrices } from '../shared/config.js';

describe('engine configuration', () => {
  it('keeps local as the only engine of every mode, and no fal engine, without settings', () => {
    const config = parseConfig({ NODE_ENV: 'test' });
    expect(config.engines).toEqual({
      simple: ['local'],
      face_swap: ['local'],
      editing: ['local'],
      styling: ['local'],
      video: ['local'],
    });
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
    expect(config.fal?.models.simple).toBe('fal-ai/flux/schnell');
    expect(config.providerPrices['fal-ai/flux/dev']).toBe(0.025);
  });

  it('reads a price table, skipping entries that are not prices', () => {
    expect(parseProviderPrices('a/b=0.5, c=x,=1,d=0')).toEqual({ 'a/b': 0.5, d: 0 });
  });
});
