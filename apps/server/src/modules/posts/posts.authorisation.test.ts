import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completedGeneration,
  createSwitchableModerator,
  publish,
  signedInPerson,
  type Person,
} from '../../test/posts-factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createEngineRegistry } from '../../engines/index.js';

let t: TestApp;
let owner: Person;
let stranger: Person;
let draft: { uuid: string };
let published: { uuid: string };
let generationUuid: string;

beforeAll(async () => {
  t = await createTestApp({
    env: { ENGINE_SIMPLE: 'test', FREE_DAILY_PHOTOS: '1000' },
    overrides: { imageModerator: createSwitchableModerator() },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [createScriptedEngine('test')]);
  owner = await signedInPerson(t);
  stranger = await signedInPerson(t);
  const first = await completedGeneration(t, owner, { mode: 'simple', prompt: 'a private sketch' });
  generationUuid = first.uuid;
  draft = await publish(t, owner, first.uuid, { draft: true, title: 'private' });
  const second = await completedGeneration(t, owner, { mode: 'simple', prompt: 'a public picture' });
  published = await publish(t, owner, second.uuid);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (who: Person | null, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who?.headers, ...(payload ? { payload } : {}) });

/** Every route that names a post, with a valid body. */
const postRoutes: Array<[Method, (uuid: string) => string, object?]> = [
  ['GET', (u) => `/api/posts/${u}/`],
  ['PATCH', (u) => `/api/posts/${u}/`, { title: 'taken over', draft: false }],
  ['DELETE', (u) => `/api/posts/${u}/`],
  ['POST', (u) => `/api/posts/${u}/save/`],
  ['DELETE', (u) => `/api/posts/${u}/save/`],
  ['POST', (u) => `/api/posts/${u}/view/`],
  ['POST', (u) => `/api/posts/${u}/report/`, { reason: 'spam' }],
  ['POST', (u) => `/api/posts/${u}/use_image/`],
];

describe('authorisation of every post and people route', () => {
  it.each(postRoutes)(
    '%s %s: another person’s draft is answered exactly like a post that does not exist',
    async (method, url, body) => {
      const forDraft = await call(stranger, method, url(draft.uuid), body);
      const forNothing = await call(stranger, method, url(crypto.randomUUID()), body);
      expect(forDraft.statusCode).toBe(404);
      expect(forDraft.json()).toEqual({ code: 'posts.not_found', detail: 'Not found.' });
      expect(forDraft.json()).toEqual(forNothing.json());
    },
  );

  it.each(postRoutes.filter(([method]) => method !== 'GET'))(
    '%s %s needs a signed-in caller',
    async (method, url, body) => {
      const response = await call(null, method, url(published.uuid), body);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'auth.not_authenticated' });
    },
  );

  it('lets guests read published posts and the public tabs, nothing else', async () => {
    expect((await call(null, 'GET', `/api/posts/${published.uuid}/`)).json()).toMatchObject({
      uuid: published.uuid,
      is_saved: false,
      is_mine: false,
      generation_uuid: null,
    });
    expect((await call(null, 'GET', `/api/posts/${draft.uuid}/`)).statusCode).toBe(404);
    for (const type of ['new', 'recommended']) {
      const feed = (await call(null, 'GET', `/api/posts/?type=${type}`)).json();
      expect(feed.results.map((p: { uuid: string }) => p.uuid)).toEqual([published.uuid]);
    }
    for (const url of [
      `/api/users/${owner.user.uuid}/`,
      `/api/users/${owner.user.uuid}/posts/`,
      `/api/generations/${generationUuid}/post/`,
    ]) {
      expect((await call(null, 'GET', url)).statusCode).toBe(401);
    }
    for (const method of ['POST', 'DELETE'] as const) {
      expect((await call(null, method, `/api/users/${owner.user.uuid}/subscribe/`)).statusCode).toBe(401);
    }
    expect((await call(null, 'POST', '/api/posts/', { generation_uuid: generationUuid })).statusCode).toBe(
      401,
    );
  });

  it('never shows a stranger someone’s drafts, generation or source, and a stranger’s actions change nothing', async () => {
    // Publishing, or finding the post of, someone else's generation: as if it did not exist.
    const publishing = await call(stranger, 'POST', '/api/posts/', { generation_uuid: generationUuid });
    expect(publishing.statusCode).toBe(404);
    expect(publishing.json()).toMatchObject({ code: 'generations.not_found' });
    expect((await call(stranger, 'GET', `/api/generations/${generationUuid}/post/`)).statusCode).toBe(404);
    // Drafts are only ever mine; profiles and grids show published posts only.
    expect((await call(stranger, 'GET', '/api/posts/?type=drafts')).json().results).toEqual([]);
    const grid = (await call(stranger, 'GET', `/api/users/${owner.user.uuid}/posts/`)).json();
    expect(grid.results.map((p: { uuid: string }) => p.uuid)).toEqual([published.uuid]);
    // Starting a generation from someone's draft.
    const fromDraft = await call(stranger, 'POST', '/api/generations/', {
      mode: 'simple',
      prompt: 'a private sketch',
      post_uuid: draft.uuid,
    });
    expect(fromDraft.statusCode).toBe(404);
    // A published post as a stranger sees it: no generation id.
    const seen = (await call(stranger, 'GET', `/api/posts/${published.uuid}/`)).json();
    expect(seen).toMatchObject({ is_mine: false, generation_uuid: null });
    // After the stranger tried everything above, the draft is unchanged.
    expect((await call(owner, 'GET', `/api/posts/${draft.uuid}/`)).json()).toMatchObject({
      status: 'draft',
      title: 'private',
      saves_count: 0,
      views_count: 0,
    });
  });
});

describe('documentation', () => {
  it('describes every posts and people route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const [path, methods] of Object.entries({
      '/api/posts/': ['get', 'post'],
      '/api/posts/{uuid}/': ['get', 'patch', 'delete'],
      '/api/posts/{uuid}/save/': ['post', 'delete'],
      '/api/posts/{uuid}/view/': ['post'],
      '/api/posts/{uuid}/report/': ['post'],
      '/api/posts/{uuid}/use_image/': ['post'],
      '/api/generations/{uuid}/post/': ['get'],
      '/api/users/{uuid}/': ['get'],
      '/api/users/{uuid}/posts/': ['get'],
      '/api/users/{uuid}/subscribe/': ['post', 'delete'],
    })) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
    }
    const listParams = doc.paths['/api/posts/'].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams.sort()).toEqual(['cursor', 'limit', 'q', 'type']);
  });
});
