import { defineRoute, routes, type TPost } from '@mirra/contracts';
import type { FastifyInstance } from 'fastify';
import { describe, expectTypeOf, it } from 'vitest';
import { serve, type DeclaredRequest } from './serve-route.js';

// Compiled by `tsc` in `npm run check`: each `@ts-expect-error` below must stay an error, so a
// registration that does not match its declaration never compiles.

/** Never called: only its types are checked. */
export function registrations(app: FastifyInstance): void {
  // The answer must be the declared one.
  serve(app, routes.posts.get, async () => ({ uuid: 'x' }) as TPost);
  // @ts-expect-error -- a post is not what GET /api/posts/:uuid/ answers with
  serve(app, routes.posts.get, async () => ({ is_saved: true, saves_count: 1 }));
  // @ts-expect-error -- a 204 route answers null, not nothing
  serve(app, routes.posts.view, async () => undefined);

  serve(app, routes.posts.update, async (request) => {
    expectTypeOf(request.params).toEqualTypeOf<{ uuid: string }>();
    // @ts-expect-error -- the path names `uuid`, there is no `id`
    void request.params.id;
    // @ts-expect-error -- the declared body has no `caption`
    void request.body.caption;
    expectTypeOf(request.body.title).toEqualTypeOf<string | undefined>();
    return {} as TPost;
  });

  // Event streams, files, pages and redirects answer through `reply`, and may return nothing.
  serve(app, routes.generations.events, async (_request, reply) => {
    reply.hijack();
  });
}

describe('route declarations, at the type level', () => {
  it('pair a path with the params schema that names its parameters', () => {
    defineRoute({
      method: 'GET',
      path: '/api/things/:uuid/',
      auth: 'none',
      summary: 'A thing',
      tags: ['things'],
      params: 'ZUuidParams',
    });
    defineRoute({
      method: 'GET',
      path: '/api/things/:thing_id/',
      auth: 'none',
      summary: 'A thing',
      tags: ['things'],
      // @ts-expect-error -- ZUuidParams names `uuid`, the path names `thing_id`
      params: 'ZUuidParams',
    });
    // @ts-expect-error -- a path with a parameter needs its params schema
    defineRoute({ method: 'GET', path: '/api/things/:uuid/', auth: 'none', summary: 'A thing', tags: [] });
    defineRoute({
      method: 'GET',
      path: '/api/things/',
      auth: 'none',
      summary: 'Things',
      tags: [],
      // @ts-expect-error -- only exported zod schemas of the contracts can be named
      response: { 200: 'ZNoSuchSchema' },
    });
    // @ts-expect-error -- not an HTTP method the API uses
    defineRoute({ method: 'FETCH', path: '/api/things/', auth: 'none', summary: 'Things', tags: [] });
  });

  it('give handlers the declared request types', () => {
    expectTypeOf<DeclaredRequest<typeof routes.models.removePhoto>['params']>().toEqualTypeOf<{
      uuid: string;
      photo_uuid: string;
    }>();
    expectTypeOf<DeclaredRequest<typeof routes.generations.list>['query']>().toHaveProperty('cursor');
  });
});
