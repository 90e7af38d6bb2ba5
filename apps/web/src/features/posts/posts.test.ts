import type { InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { GUIDANCE_DEFAULT } from '@mirra/contracts';
import { ApiError } from '../../lib/api-error';
import type { TPostList } from '../../lib/api-types';
import { makePost } from '../../test/posts';
import { EMPTY_DRAFT } from '../generations/generation-draft';
import { existingPostUuid } from './components/publish-sheet';
import { layoutMasonry, masonryColumnCount } from './masonry';
import { dropCachedPost, patchCachedPost, uniquePosts, withSaved } from './post-pages';
import { draftFromRecipe, isUntouchedDraft, repeatBody } from '../generations/post-recipe';
import { emptyMessageKey, FEED_TABS, isPersonalTab, routeOfTab, tabOfRoute } from './post-tabs';

describe('feed tabs and their addresses', () => {
  it('offers the four tabs in their order', () => {
    expect(FEED_TABS).toEqual(['saved', 'recommended', 'new', 'subscribed']);
  });

  it('reads top (where /posts/ leads) and recommended as the recommended tab; anything else is no tab', () => {
    expect(tabOfRoute('top')).toBe('recommended');
    expect(tabOfRoute('recommended')).toBe('recommended');
    expect(tabOfRoute('new')).toBe('new');
    expect(tabOfRoute('saved')).toBe('saved');
    expect(tabOfRoute('subscribed')).toBe('subscribed');
    expect(tabOfRoute('drafts')).toBeNull();
    expect(tabOfRoute('TOP')).toBeNull();
    expect(tabOfRoute(undefined)).toBeNull();
  });

  it('links the recommended tab to /posts/top/ and keeps a search across tabs', () => {
    expect(routeOfTab('recommended')).toBe('/posts/top/');
    expect(routeOfTab('new', '  red fox ')).toBe('/posts/new/?q=red%20fox');
    expect(routeOfTab('saved', '   ')).toBe('/posts/saved/');
    expect(routeOfTab('subscribed', 'a&b')).toBe('/posts/subscribed/?q=a%26b');
  });

  it('asks guests to sign in only on the tabs about them', () => {
    expect(FEED_TABS.filter(isPersonalTab)).toEqual(['saved', 'subscribed']);
  });

  it('says no posts were found for an empty search, else the tab’s own message', () => {
    expect(emptyMessageKey('new', 'zebra')).toBe('feed.noResults');
    expect(emptyMessageKey('recommended', '')).toBe('feed.empty.top');
    expect(emptyMessageKey('saved', ' ')).toBe('feed.empty.saved');
  });
});

describe('pages of posts', () => {
  it('keeps each post once, where it first came (the recommended order moves while scrolling)', () => {
    const [a, b, c, d] = [1, 2, 3, 4].map((n) => makePost(n));
    const pages = [{ results: [a!, b!] }, { results: [b!, c!, a!] }, { results: [d!] }];
    expect(uniquePosts(pages).map((post) => post.title)).toEqual(['Post 1', 'Post 2', 'Post 3', 'Post 4']);
  });

  const list = (): InfiniteData<TPostList, string | null> => ({
    pages: [
      { results: [makePost(1), makePost(2)], next: 'x' },
      { results: [makePost(3)], next: null },
    ],
    pageParams: [null, 'x'],
  });

  it('changes one post wherever it is cached: a single post or a page of a list', () => {
    const uuid = makePost(2).uuid;
    const patched = patchCachedPost(list(), uuid, { is_saved: true, saves_count: 5 });
    expect(patched.pages[0]!.results[1]).toMatchObject({ is_saved: true, saves_count: 5 });
    expect(patched.pages[0]!.results[0]!.is_saved).toBe(false);
    expect(patchCachedPost(makePost(2), uuid, (post) => ({ title: `${post.title}!` })).title).toBe('Post 2!');
  });

  it('returns untouched data as it was (nothing re-renders) and leaves other data alone', () => {
    const data = list();
    expect(patchCachedPost(data, makePost(9).uuid, { is_saved: true })).toBe(data);
    const post = makePost(1);
    expect(patchCachedPost(post, makePost(2).uuid, { title: 'x' })).toBe(post);
    expect(patchCachedPost(null, post.uuid, { title: 'x' })).toBeNull();
    const upload = { uuid: post.uuid, url: '/u.png' };
    expect(patchCachedPost(upload, post.uuid, { title: 'x' })).toBe(upload);
  });

  it('drops a post from the lists that hold it', () => {
    const dropped = dropCachedPost(list(), makePost(1).uuid);
    expect(dropped.pages.map((page) => page.results.map((post) => post.title))).toEqual([
      ['Post 2'],
      ['Post 3'],
    ]);
    const data = list();
    expect(dropCachedPost(data, makePost(7).uuid)).toBe(data);
  });

  it('moves the save count with the flag, never twice and never below zero', () => {
    expect(withSaved({ is_saved: false, saves_count: 2 }, true)).toEqual({ is_saved: true, saves_count: 3 });
    expect(withSaved({ is_saved: true, saves_count: 3 }, true)).toEqual({ is_saved: true, saves_count: 3 });
    expect(withSaved({ is_saved: true, saves_count: 3 }, false)).toEqual({ is_saved: false, saves_count: 2 });
    expect(withSaved({ is_saved: true, saves_count: 0 }, false)).toEqual({ is_saved: false, saves_count: 0 });
  });
});

describe('masonry', () => {
  const square = { width: 100, height: 100 };
  const tall = { width: 100, height: 200 };

  it('puts each picture under the shortest column, the first of equals on the left', () => {
    expect(layoutMasonry([tall, square, square, square], 2)).toEqual([
      [0, 3],
      [1, 2],
    ]);
  });

  it('never moves what is placed when more pages arrive', () => {
    const first = [tall, square, square, tall, square];
    const more = [...first, square, tall, square];
    const before = layoutMasonry(first, 3, 0.3);
    const after = layoutMasonry(more, 3, 0.3);
    before.forEach((column, index) => expect(after[index]!.slice(0, column.length)).toEqual(column));
  });

  it('treats a picture without a size as square, and at least one column', () => {
    expect(layoutMasonry([{ width: 0, height: 0 }, square], 0)).toEqual([[0, 1]]);
  });

  it('fits two columns on phones and up to five on wide screens', () => {
    expect(masonryColumnCount(0)).toBe(2);
    expect(masonryColumnCount(358)).toBe(2);
    expect(masonryColumnCount(700)).toBe(3);
    expect(masonryColumnCount(1200)).toBe(5);
    expect(masonryColumnCount(4000)).toBe(5);
  });
});

describe('repeat and remix from a post', () => {
  const styled = makePost(5, {
    recipe: {
      mode: 'styling',
      prompt: 'soft light',
      guidance: 9,
      style: 'watercolor',
      seed: 42,
      duration: null,
      needs_image: true,
    },
  });

  it('fills an untouched form with the recipe in its own mode', () => {
    expect(draftFromRecipe('styling', styled.recipe)).toEqual({
      prompt: 'soft light',
      guidance: 9,
      seed: '42',
      style: 'watercolor',
    });
    expect(draftFromRecipe('simple', makePost(1).recipe)).toMatchObject({ style: null, seed: '1001' });
  });

  it('takes only the picture for another mode (face swap onto a post)', () => {
    expect(draftFromRecipe('face_swap', styled.recipe)).toEqual({});
  });

  it('fills only a form nobody has touched', () => {
    expect(isUntouchedDraft(EMPTY_DRAFT)).toBe(true);
    expect(isUntouchedDraft({ ...EMPTY_DRAFT, prompt: 'mine' })).toBe(false);
    expect(isUntouchedDraft({ ...EMPTY_DRAFT, seed: '3' })).toBe(false);
    expect(isUntouchedDraft({ ...EMPTY_DRAFT, guidance: GUIDANCE_DEFAULT + 1 })).toBe(false);
  });

  it('repeats the recipe exactly, naming the post (for the author’s royalty)', () => {
    expect(repeatBody(makePost(1), null)).toEqual({
      mode: 'simple',
      prompt: 'A picture number 1',
      guidance: 7,
      style: null,
      seed: 1001,
      duration: null,
      images: [],
      post_uuid: makePost(1).uuid,
    });
  });

  it('repeats a recipe that works on a photo on the post’s own picture', () => {
    const upload = '00000000-0000-4000-a000-000000000001';
    expect(repeatBody(styled, upload)).toMatchObject({
      mode: 'styling',
      style: 'watercolor',
      images: [upload],
    });
    expect(repeatBody(makePost(1), upload).images).toEqual([]);
  });
});

describe('publishing', () => {
  it('opens the existing post when the result already has one', () => {
    const uuid = makePost(3).uuid;
    const conflict = new ApiError(409, { code: 'posts.already_exists', detail: 'x', post_uuid: uuid });
    expect(existingPostUuid(conflict)).toBe(uuid);
    expect(existingPostUuid(new ApiError(409, { code: 'posts.under_review', detail: 'x' }))).toBeNull();
    expect(existingPostUuid(new Error('offline'))).toBeNull();
  });
});
