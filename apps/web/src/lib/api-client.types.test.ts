import { routes, type TPost } from '@mirra/contracts';
import { describe, expectTypeOf, it } from 'vitest';
import { api } from './api-client';
import type { TPostList, TSaveState } from './api-types';
import { openEventStream, uploadForm } from './api-transfer';

// Compiled by `tsc` in `npm run check`: each `@ts-expect-error` below must stay an error, so a
// call that does not match its route's declaration never compiles.

/** Never called: only its types are checked. */
export async function calls(): Promise<void> {
  const post: TPost = await api(routes.posts.get, { params: { uuid: 'p' } });
  // @ts-expect-error -- GET /api/posts/:uuid/ answers a post, not a page of posts
  const page: TPostList = await api(routes.posts.get, { params: { uuid: 'p' } });
  // @ts-expect-error -- the path parameter is missing
  await api(routes.posts.get);
  // @ts-expect-error -- the path names `uuid`
  await api(routes.posts.get, { params: { id: 'p' } });
  // @ts-expect-error -- a title is text
  await api(routes.posts.create, { body: { generation_uuid: 'g', title: 42 } });
  // @ts-expect-error -- the body is required
  await api(routes.posts.create);
  // @ts-expect-error -- a GET takes no body
  await api(routes.posts.list, { body: { type: 'new' } });
  // @ts-expect-error -- `type` is one of the feed's kinds
  await api(routes.posts.list, { query: { type: 'everything' } });
  // @ts-expect-error -- only multipart routes take a form
  await uploadForm(routes.posts.create, { body: new FormData() });
  // @ts-expect-error -- only event-stream routes are streamed
  await openEventStream(routes.posts.get, { params: { uuid: 'p' } });
  void post;
  void page;
}

describe('calls by route declaration, at the type level', () => {
  it('answer with the declared type', () => {
    expectTypeOf<ReturnType<typeof api<typeof routes.posts.view>>>().resolves.toEqualTypeOf<null>();
    expectTypeOf<ReturnType<typeof api<typeof routes.posts.save>>>().resolves.toEqualTypeOf<TSaveState>();
  });

  it('take the method and path from the declaration', () => {
    expectTypeOf(routes.posts.unsave.method).toEqualTypeOf<'DELETE'>();
    expectTypeOf(routes.posts.unsave.path).toEqualTypeOf<'/api/posts/:uuid/save/'>();
  });
});
