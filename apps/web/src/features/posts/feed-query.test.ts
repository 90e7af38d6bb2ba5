import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TPostList } from '../../lib/api-types';
import { makePost } from '../../test/posts';
import { postsApi } from './api/posts.api';
import { feedListQuery, prefetchFeed } from './feed-query';

afterEach(() => vi.restoreAllMocks());

const firstPage: TPostList = { results: [makePost(1), makePost(2)], next: 'cursor-2' } as TPostList;

describe('prefetchFeed', () => {
  it("fetches the first page of the address's tab and search into the list's own cache entry", async () => {
    const list = vi.spyOn(postsApi, 'list').mockResolvedValue(firstPage);
    const client = new QueryClient();
    await prefetchFeed(client, 'top', new URLSearchParams('q=%20fox%20'), false);
    expect(list).toHaveBeenCalledExactlyOnceWith('recommended', 'fox', null);
    const cached = client.getQueryData<InfiniteData<TPostList>>(
      feedListQuery('recommended', 'fox', false).queryKey,
    );
    expect(cached?.pages).toEqual([firstPage]);
    // A signed-in person's list is another entry: their saved flags are not a guest's.
    expect(client.getQueryData(feedListQuery('recommended', 'fox', true).queryKey)).toBeUndefined();
  });

  it('fetches nothing for a guest on a personal tab, nor for an address that is not a tab', async () => {
    const list = vi.spyOn(postsApi, 'list').mockResolvedValue(firstPage);
    const client = new QueryClient();
    await prefetchFeed(client, 'saved', new URLSearchParams(), false);
    await prefetchFeed(client, 'subscribed', new URLSearchParams(), false);
    await prefetchFeed(client, 'nonsense', new URLSearchParams(), true);
    expect(list).not.toHaveBeenCalled();
    await prefetchFeed(client, 'saved', new URLSearchParams(), true);
    expect(list).toHaveBeenCalledExactlyOnceWith('saved', '', null);
  });
});
