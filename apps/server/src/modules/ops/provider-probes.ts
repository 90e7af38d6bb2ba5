import type { Config } from '../../shared/config.js';

/**
 * What a readiness probe says of a remote engine's provider: it answered (`ok`), it did not
 * (`down`), or it is configured but offers no cheap authenticated request to ask (`configured`).
 */
export type ProviderState = 'ok' | 'down' | 'configured';

/** A provider probe waits this long before calling the provider down. */
export const PROVIDER_PROBE_TIMEOUT_MS = 2000;
/** How long a provider's answer is reused, so frequent probes from load balancers cost it nothing. */
export const PROVIDER_PROBE_TTL_MS = 30_000;

type ProbeConfig = Pick<Config, 'engines' | 'trainingEngines' | 'comfyui' | 'replicate' | 'fal' | 'openai'>;

/**
 * The remote engines the configuration uses, each with how to ask it: ComfyUI's `GET /system_stats`
 * on each server (up when any answers), Replicate's `GET /v1/predictions` (one page, with the
 * token). fal and OpenAI are named `configured`: no cheap authenticated request of theirs is used.
 * Local engines need no probe.
 */
function probesOf(config: ProbeConfig, fetchImpl: typeof fetch): Map<string, () => Promise<ProviderState>> {
  const used = new Set([...Object.values(config.engines).flat(), ...config.trainingEngines]);
  const answers = async (url: string, headers: Record<string, string> = {}) => {
    try {
      const response = await fetchImpl(url, {
        headers,
        signal: AbortSignal.timeout(PROVIDER_PROBE_TIMEOUT_MS),
      });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  };
  const probes = new Map<string, () => Promise<ProviderState>>();
  if (used.has('comfyui') && config.comfyui.servers.length) {
    const servers = config.comfyui.servers;
    probes.set('comfyui', async () =>
      (await Promise.all(servers.map((server) => answers(`${server}/system_stats`)))).some(Boolean)
        ? 'ok'
        : 'down',
    );
  }
  const replicate = config.replicate;
  if (used.has('replicate') && replicate) {
    probes.set('replicate', async () =>
      (await answers(`${replicate.baseUrl}/predictions`, { authorization: `Bearer ${replicate.token}` }))
        ? 'ok'
        : 'down',
    );
  }
  if (used.has('fal') && config.fal) probes.set('fal', async () => 'configured');
  if (used.has('openai') && config.openai.apiKey) probes.set('openai', async () => 'configured');
  return probes;
}

/**
 * Probes the configured remote engines at most once per TTL (concurrent callers share one probe).
 * Their state is reported beside readiness, never part of it: a provider's outage has fallback
 * engines and must not take every API node out of its load balancer.
 */
export function createProviderProbe(
  config: ProbeConfig,
  options: { fetch?: typeof fetch; now?: () => number } = {},
): () => Promise<Record<string, ProviderState>> {
  const probes = probesOf(config, options.fetch ?? fetch);
  const now = options.now ?? Date.now;
  let cached: { at: number; states: Promise<Record<string, ProviderState>> } | null = null;
  return () => {
    if (cached && now() - cached.at < PROVIDER_PROBE_TTL_MS) return cached.states;
    const states = Promise.all([...probes].map(async ([name, probe]) => [name, await probe()] as const)).then(
      (entries) => Object.fromEntries(entries),
    );
    cached = { at: now(), states };
    return states;
  };
}
