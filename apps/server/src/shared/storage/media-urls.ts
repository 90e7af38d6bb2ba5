import { createCipheriv, createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { DirectUrls } from './storage.js';

/**
 * Files reach browsers through URLs signed for one storage key and an expiry, so an <img> can
 * load a private result without an Authorization header, and a leaked link stops working.
 * `download` adds Content-Disposition: attachment with that file name.
 *
 * The URL's path is the storage key sealed (AES-256-GCM), not the key itself: keys are built from
 * owner ids and the uuids of private things (a published post's image lives under its private
 * generation's uuid), and a public URL must not hand those out. Sealing is deterministic (the
 * nonce is an HMAC of the key), so one file keeps one URL while its expiry holds (cacheable); the
 * file's extension stays visible for players and downloads.
 *
 * With a store browsers can reach (S3, `direct`), the URL is the store's own presigned GET URL
 * with the same expiry and download name, so files never pass through the API; GET /api/media
 * then answers old or provider-signed links with a redirect to one.
 */
export function createMediaUrls(
  secret: string,
  options: { defaultTtlSeconds: number; direct?: DirectUrls | undefined },
) {
  const signingKey = `${secret}:media-urls`;
  const sealingKey = createHash('sha256').update(`${secret}:media-paths:seal`).digest();
  const nonceKey = createHash('sha256').update(`${secret}:media-paths:nonce`).digest();
  const sign = (storageKey: string, exp: number, download: string) =>
    createHmac('sha256', signingKey)
      .update(`${storageKey}\n${exp}\n${download}`)
      .digest('base64url')
      .slice(0, 32);

  function seal(storageKey: string): string {
    const nonce = createHmac('sha256', nonceKey).update(storageKey).digest().subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', sealingKey, nonce);
    const sealed = Buffer.concat([cipher.update(storageKey, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  function unseal(token: string): string | null {
    if (!/^[A-Za-z0-9_-]{40,2000}$/.test(token)) return null;
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length < 12 + 16 + 1) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', sealingKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([
        decipher.update(bytes.subarray(12, bytes.length - 16)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }

  return {
    url(storageKey: string, now: Date, options2: { ttlSeconds?: number; download?: string } = {}): string {
      // Expiry rounded up to the hour, so the same file gets the same URL for a while (cacheable).
      const ttl = options2.ttlSeconds ?? options.defaultTtlSeconds;
      const exp = Math.ceil((Math.floor(now.getTime() / 1000) + ttl) / 3600) * 3600;
      const download = options2.download ?? '';
      const direct = options.direct?.signNow(storageKey, new Date(exp * 1000), {
        now,
        download: download || undefined,
      });
      if (direct) return direct;
      const params = new URLSearchParams({ exp: String(exp), sig: sign(storageKey, exp, download) });
      if (download) params.set('download', download);
      return `/api/media/${seal(storageKey)}${extensionOf(storageKey)}?${params}`;
    },

    /** The storage key a media URL's path names, if the path and its signature hold; else null. */
    resolve(
      path: string,
      query: { exp?: string; sig?: string; download?: string },
      now: Date,
    ): string | null {
      const match = /^([A-Za-z0-9_-]+)((?:\.[A-Za-z0-9]{1,8})?)$/.exec(path);
      const storageKey = match ? unseal(match[1]!) : null;
      if (!storageKey || extensionOf(storageKey) !== match![2]) return null;
      const exp = Number(query.exp);
      if (!Number.isInteger(exp) || exp < Math.floor(now.getTime() / 1000) || !query.sig) return null;
      const expected = Buffer.from(sign(storageKey, exp, query.download ?? ''));
      const given = Buffer.from(query.sig);
      return expected.length === given.length && timingSafeEqual(expected, given) ? storageKey : null;
    },
  };
}

/** `.webp` of `results/…/w256.webp`; empty when the last segment has none. */
function extensionOf(storageKey: string): string {
  return /\.[A-Za-z0-9]{1,8}$/.exec(storageKey.slice(storageKey.lastIndexOf('/') + 1))?.[0] ?? '';
}

export type MediaUrls = ReturnType<typeof createMediaUrls>;
