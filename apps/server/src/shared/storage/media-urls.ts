import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Files reach browsers through URLs signed for one storage key and an expiry, so an <img> can
 * load a private result without an Authorization header, and a leaked link stops working.
 * `download` adds Content-Disposition: attachment with that file name.
 */
export function createMediaUrls(secret: string, options: { defaultTtlSeconds: number }) {
  const key = `${secret}:media-urls`;
  const sign = (storageKey: string, exp: number, download: string) =>
    createHmac('sha256', key).update(`${storageKey}\n${exp}\n${download}`).digest('base64url').slice(0, 32);

  return {
    url(storageKey: string, now: Date, options2: { ttlSeconds?: number; download?: string } = {}): string {
      // Expiry rounded up to the hour, so the same file gets the same URL for a while (cacheable).
      const ttl = options2.ttlSeconds ?? options.defaultTtlSeconds;
      const exp = Math.ceil((Math.floor(now.getTime() / 1000) + ttl) / 3600) * 3600;
      const download = options2.download ?? '';
      const params = new URLSearchParams({ exp: String(exp), sig: sign(storageKey, exp, download) });
      if (download) params.set('download', download);
      return `/api/media/${storageKey}?${params}`;
    },
    verify(storageKey: string, query: { exp?: string; sig?: string; download?: string }, now: Date): boolean {
      const exp = Number(query.exp);
      if (!Number.isInteger(exp) || exp < Math.floor(now.getTime() / 1000) || !query.sig) return false;
      const expected = Buffer.from(sign(storageKey, exp, query.download ?? ''));
      const given = Buffer.from(query.sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type MediaUrls = ReturnType<typeof createMediaUrls>;
