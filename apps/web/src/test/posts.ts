import type { TPost } from '../lib/api-types';

/** A post as the API sends it, numbered so tests can tell posts apart. */
export function makePost(n: number, patch: Partial<TPost> = {}): TPost {
  const id = String(n).padStart(12, '0');
  return {
    uuid: `00000000-0000-4000-8000-${id}`,
    title: `Post ${n}`,
    prompt: `A picture number ${n}`,
    status: 'published',
    author: {
      uuid: '00000000-0000-4000-9000-000000000001',
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: 'ada',
      avatar_url: null,
    },
    image: {
      url: `/m/${n}/original.png`,
      width: 1024,
      height: 768,
      variants: [
        { url: `/m/${n}/w256.webp`, width: 256, height: 192 },
        { url: `/m/${n}/w1024.webp`, width: 1024, height: 768 },
      ],
    },
    recipe: {
      mode: 'simple',
      prompt: `A picture number ${n}`,
      guidance: 7,
      style: null,
      seed: 1000 + n,
      duration: null,
      needs_image: false,
    },
    saves_count: 0,
    views_count: 0,
    repeats_count: 0,
    remixes_count: 0,
    is_saved: false,
    is_mine: false,
    generation_uuid: null,
    share_url: `http://localhost/post/00000000-0000-4000-8000-${id}/`,
    created_at: '2026-01-01T00:00:00.000Z',
    published_at: '2026-01-01T00:00:00.000Z',
    ...patch,
  };
}
