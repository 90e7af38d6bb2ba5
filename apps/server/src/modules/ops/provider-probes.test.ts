import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config.js';
import { createProviderProbe, PROVIDER_PROBE_TTL_MS } from './provider-probes.js';

describe('createProviderProbe', () => {
  it('asks each provider once per TTL, sharing the answer, then asks again', async () => {
    const config = parseConfig({
      ...process.env,
      ENGINE_SIMPLE: 'comfyui,local',
      COMFYUI_URLS: 'http://comfy-a.invalid,http://comfy-b.invalid',
    });
    const asked: string[] = [];
    let answer = 503;
    const fetchStub = (async (url: string | URL | Request) => {
      asked.push(String(url));
      return new Response('{}', { status: answer });
    }) as typeof fetch;
    let clock = 1_000_000;
    const probe = createProviderProbe(config, { fetch: fetchStub, now: () => clock });

    expect(await Promise.all([probe(), probe()])).toEqual([{ comfyui: 'down' }, { comfyui: 'down' }]);
    expect(asked).toEqual(['http://comfy-a.invalid/system_stats', 'http://comfy-b.invalid/system_stats']);
    answer = 200;
    clock += PROVIDER_PROBE_TTL_MS - 1;
    expect(await probe()).toEqual({ comfyui: 'down' });
    expect(asked).toHaveLength(2);
    clock += 1;
    expect(await probe()).toEqual({ comfyui: 'ok' });
    expect(asked).toHaveLength(4);
  });
});
