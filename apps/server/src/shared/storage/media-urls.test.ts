import { describe, expect, it } from 'vitest';
import { createMediaUrls } from './media-urls.js';

const now = new Date('2026-03-01T10:15:00Z');
const media = createMediaUrls('a-secret-long-enough-for-tests', { defaultTtlSeconds: 3600 });
const KEY = 'results/17/3f2b8c1e-5d4a-4c1b-9a7e-0c2d4e6f8a10/w256.webp';
const partsOf = (url: string) => {
  const parsed = new URL(url, 'http://mirra.test');
  return {
    path: parsed.pathname.slice('/api/media/'.length),
    query: Object.fromEntries(parsed.searchParams) as { exp?: string; sig?: string; download?: string },
  };
};

describe('media URLs', () => {
  it('name the file without revealing its storage key: no owner id, no uuid, only the extension', () => {
    const url = media.url(KEY, now);
    expect(url).toMatch(/^\/api\/media\/[\w-]{40,}\.webp\?exp=\d+&sig=[\w-]{32}$/);
    for (const part of ['results', '/17/', '3f2b8c1e', 'w256']) expect(url).not.toContain(part);
    const { path, query } = partsOf(url);
    expect(media.resolve(path, query, now)).toBe(KEY);
  });

  it('give one file one URL while the expiry holds, and different files different paths', () => {
    expect(media.url(KEY, now)).toBe(media.url(KEY, new Date(now.getTime() + 60_000)));
    const other = KEY.replace('w256', 'w512');
    expect(partsOf(media.url(other, now)).path).not.toBe(partsOf(media.url(KEY, now)).path);
  });

  it('resolve nothing for a changed path, another file’s path, a changed extension, a bare key, a wrong signature or an expired link', () => {
    const { path, query } = partsOf(media.url(KEY, now));
    const other = partsOf(media.url(KEY.replace('w256', 'w512'), now));
    const flipped = `${path[0] === 'A' ? 'B' : 'A'}${path.slice(1)}`;
    expect(media.resolve(flipped, query, now)).toBeNull();
    expect(media.resolve(other.path, query, now)).toBeNull();
    expect(media.resolve(path.replace('.webp', '.png'), query, now)).toBeNull();
    expect(media.resolve(path.replace('.webp', ''), query, now)).toBeNull();
    expect(media.resolve(KEY, query, now)).toBeNull();
    expect(media.resolve(path, { ...query, sig: 'A'.repeat(32) }, now)).toBeNull();
    expect(media.resolve(path, { ...query, download: 'x.png' }, now)).toBeNull();
    expect(media.resolve(path, query, new Date(now.getTime() + 3 * 3600_000))).toBeNull();
    const foreign = createMediaUrls('another-secret-long-enough', { defaultTtlSeconds: 3600 });
    expect(foreign.resolve(path, query, now)).toBeNull();
  });

  it('keep the download name signed', () => {
    const { path, query } = partsOf(media.url(KEY, now, { download: 'mirra.webp' }));
    expect(query.download).toBe('mirra.webp');
    expect(media.resolve(path, query, now)).toBe(KEY);
    expect(media.resolve(path, { ...query, download: 'other.webp' }, now)).toBeNull();
  });
});
