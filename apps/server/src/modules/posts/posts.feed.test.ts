import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../shared/db/schema.js';
import { insertPost, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { postScore, searchBuckets } from './posts.models.js';
import { postsRepository } from './posts.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface PostJson {
  uuid: string;
  title: string;
  is_saved: boolean;
  published_at: string;
  author: { uuid: string };
}

async function page(person: Person | null, url: string) {
  const response = await t.app.inject({ method: 'GET', url, headers: person?.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { results: PostJson[]; next: string | null };
}

/** Every page of a feed, following `next`, checking no post comes twice. */
async function allPages(person: Person | null, url: string, limit = 2): Promise<PostJson[]> {
  const seen: PostJson[] = [];
  let cursor: string | null = null;
  const join = url.includes('?') ? '&' : '?';
  for (let i = 0; i < 200; i++) {
    const current = await page(person, `${url}${join}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(current.results.length).toBeLessThanOrEqual(limit);
    seen.push(...current.results);
    cursor = current.next;
    if (!cursor) break;
  }
  expect(new Set(seen.map((p) => p.uuid)).size).toBe(seen.length);
  return seen;
}

const titlesOf = (list: PostJson[], only: Set<string>) =>
  list.filter((p) => only.has(p.uuid)).map((p) => p.title);
const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 12, minutes));

describe('the new tab', () => {
  it('lists published posts newest first across keyset pages, ties broken by id, drafts and hidden left out', async () => {
    const author = await signedInPerson(t);
    const mine = new Set<string>();
    const add = async (title: string, publishedAt: Date | null, status?: 'draft' | 'hidden') =>
      mine.add((await insertPost(t, author.user.id, { title, publishedAt, status })).uuid);
    await add('oldest', at(1));
    await add('tie-a', at(5));
    await add('tie-b', at(5));
    await add('tie-c', at(5));
    await add('newest', at(9));
    await add('a draft', null, 'draft');
    await add('hidden', at(7), 'hidden');

    const feed = await allPages(null, '/api/posts/?type=new');
    expect(titlesOf(feed, mine)).toEqual(['newest', 'tie-c', 'tie-b', 'tie-a', 'oldest']);
    const times = feed.map((p) => Date.parse(p.published_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('refuses a cursor it did not make, and personal tabs for guests', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/posts/?type=new&cursor=abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'common.validation', cursor: ['Invalid cursor.'] });
    for (const type of ['saved', 'subscribed', 'drafts']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/posts/?type=${type}` });
      expect(response.statusCode).toBe(401);
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/api/posts/?type=popular' });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('the recommended tab', () => {
  it('ranks by engagement with time decay, in stored score order, and `top` is the same tab', async () => {
    const author = await signedInPerson(t);
    const mine = new Set<string>();
    const add = async (title: string, publishedAt: Date, counts: Record<string, number>) =>
      mine.add((await insertPost(t, author.user.id, { title, publishedAt, ...counts })).uuid);
    const day = 24 * 60;
    await add('old but loved', at(0), { saves: 40, repeats: 10 }); // ln(1+170) ≈ 5.1: worth ~2.5 days
    await add('yesterday, quiet', at(day), {});
    await add('yesterday, liked', at(day), { saves: 2 });
    await add('today, quiet', at(2 * day), {});
    await add('long ago, loved', at(-10 * day), { saves: 40, repeats: 10 });

    const feed = await allPages(null, '/api/posts/?type=recommended');
    expect(titlesOf(feed, mine)).toEqual([
      'old but loved',
      'today, quiet',
      'yesterday, liked',
      'yesterday, quiet',
      'long ago, loved',
    ]);
    const top = await allPages(null, '/api/posts/?type=top');
    expect(top.map((p) => p.uuid)).toEqual(feed.map((p) => p.uuid));
  });

  it('stores exactly the score the TypeScript formula gives, on insert and on every counter change', async () => {
    const author = await signedInPerson(t);
    const cases = [
      { saves: 0, repeats: 0, remixes: 0, views: 0, publishedAt: at(0) },
      { saves: 3, repeats: 1, remixes: 2, views: 7, publishedAt: new Date('2025-06-15T08:30:12.345Z') },
      {
        saves: 1000,
        repeats: 50,
        remixes: 20,
        views: 123_457,
        publishedAt: new Date('2031-12-31T23:59:59.999Z'),
      },
      { saves: 0, repeats: 0, remixes: 0, views: 1, publishedAt: new Date('2024-02-29T00:00:00.001Z') },
    ];
    for (const c of cases) {
      const inserted = await insertPost(t, author.user.id, { ...c });
      const expected = postScore(c, c.publishedAt);
      expect(inserted.score).toBeCloseTo(expected, 9);
      await postsRepository.addToCounter(t.deps.db, inserted.id, 'savesCount', 1);
      await postsRepository.addToCounter(t.deps.db, inserted.id, 'viewsCount', 3);
      const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, inserted.id));
      expect(row!.score).toBeCloseTo(
        postScore({ ...c, saves: c.saves + 1, views: c.views + 3 }, c.publishedAt),
        9,
      );
    }
    // Search buckets: the trigger's, the SQL function's and TypeScript's agree.
    const [row] = await t.deps.db
      .select()
      .from(posts)
      .where(eq(posts.id, (await insertPost(t, author.user.id, { publishedAt: at(7) })).id));
    expect(row!.searchBuckets).toEqual(searchBuckets(at(7)));
    for (let i = 0; i < 20; i++) {
      const publishedAt = new Date(Date.UTC(2024, 0, 1) + i * 3_987_654_321);
      const { rows } = await t.deps.db.execute<{ buckets: number[] }>(
        sql`SELECT mirra_post_search_buckets(${publishedAt.toISOString()}::timestamptz) AS buckets`,
      );
      expect(rows[0]!.buckets).toEqual(searchBuckets(publishedAt));
    }
    // And the SQL function itself, for a spread of inputs.
    for (let i = 0; i < 50; i++) {
      const c = { saves: i * 7, repeats: i % 5, remixes: (i * 3) % 11, views: i * 101 };
      const publishedAt = new Date(Date.UTC(2025, 0, 1) + i * 987_654_321);
      const { rows } = await t.deps.db.execute<{ score: number }>(
        sql`SELECT mirra_post_score(${c.saves}, ${c.repeats}, ${c.remixes}, ${c.views}, ${publishedAt.toISOString()}::timestamptz) AS score`,
      );
      expect(rows[0]!.score).toBeCloseTo(postScore(c, publishedAt), 9);
    }
  });
});

describe('the saved and subscribed tabs', () => {
  it('saved: my saves, last saved first; others’ saves and unpublished posts left out', async () => {
    const author = await signedInPerson(t);
    const me = await signedInPerson(t);
    const someone = await signedInPerson(t);
    const [a, b, c] = [
      await insertPost(t, author.user.id, { title: 'A', publishedAt: at(1) }),
      await insertPost(t, author.user.id, { title: 'B', publishedAt: at(2) }),
      await insertPost(t, author.user.id, { title: 'C', publishedAt: at(3) }),
    ];
    const save = (who: Person, uuid: string) =>
      t.app.inject({ method: 'POST', url: `/api/posts/${uuid}/save/`, headers: who.headers });
    await save(me, b.uuid);
    await save(me, a.uuid);
    await save(me, c.uuid);
    await save(someone, a.uuid);
    const saved = await allPages(me, '/api/posts/?type=saved');
    expect(saved.map((p) => p.title)).toEqual(['C', 'A', 'B']);
    expect(saved.every((p) => p.is_saved)).toBe(true);

    await t.deps.db.update(posts).set({ status: 'draft' }).where(eq(posts.id, a.id));
    expect((await allPages(me, '/api/posts/?type=saved')).map((p) => p.title)).toEqual(['C', 'B']);
    expect((await allPages(someone, '/api/posts/?type=saved')).map((p) => p.title)).toEqual([]);
  });

  it('subscribed: posts of the people I follow, newest first, across pages; nobody else’s', async () => {
    const [ann, bob, eve] = [await signedInPerson(t), await signedInPerson(t), await signedInPerson(t)];
    const me = await signedInPerson(t);
    for (let i = 0; i < 4; i++) {
      await insertPost(t, ann.user.id, { title: `ann ${i}`, publishedAt: at(10 * i) });
      await insertPost(t, bob.user.id, { title: `bob ${i}`, publishedAt: at(10 * i + 5) });
      await insertPost(t, eve.user.id, { title: `eve ${i}`, publishedAt: at(10 * i + 7) });
    }
    await insertPost(t, ann.user.id, { title: 'ann draft', status: 'draft' });
    const follow = (uuid: string, method: 'POST' | 'DELETE' = 'POST') =>
      t.app.inject({ method, url: `/api/users/${uuid}/subscribe/`, headers: me.headers });
    expect((await allPages(me, '/api/posts/?type=subscribed')).map((p) => p.title)).toEqual([]);
    await follow(ann.user.uuid);
    await follow(bob.user.uuid);
    const feed = await allPages(me, '/api/posts/?type=subscribed', 3);
    expect(feed.map((p) => p.title)).toEqual([
      'bob 3',
      'ann 3',
      'bob 2',
      'ann 2',
      'bob 1',
      'ann 1',
      'bob 0',
      'ann 0',
    ]);
    await follow(bob.user.uuid, 'DELETE');
    expect((await allPages(me, '/api/posts/?type=subscribed')).map((p) => p.title)).toEqual([
      'ann 3',
      'ann 2',
      'ann 1',
      'ann 0',
    ]);
  });

  it('a profile’s grid: that person’s published posts only, newest first', async () => {
    const [ann, viewer] = [await signedInPerson(t), await signedInPerson(t)];
    await insertPost(t, ann.user.id, { title: 'one', publishedAt: at(1) });
    await insertPost(t, ann.user.id, { title: 'two', publishedAt: at(2) });
    await insertPost(t, ann.user.id, { title: 'draft', status: 'draft' });
    await insertPost(t, viewer.user.id, { title: 'not ann', publishedAt: at(3) });
    const grid = await allPages(viewer, `/api/users/${ann.user.uuid}/posts/`);
    expect(grid.map((p) => p.title)).toEqual(['two', 'one']);
    expect(grid.every((p) => p.author.uuid === ann.user.uuid)).toBe(true);
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/api/users/${crypto.randomUUID()}/posts/`,
      headers: viewer.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('search', () => {
  it('finds titles and prompts by full-text search in the six languages, newest first, paginated', async () => {
    const author = await signedInPerson(t);
    const add = (title: string, prompt: string, minute: number, status?: 'draft') =>
      insertPost(t, author.user.id, { title, prompt, publishedAt: status ? null : at(minute), status });
    await add('Evening', 'a red lighthouse on a cliff at dusk', 1);
    await add('Harbour', 'fishing boats resting in a calm harbour', 2);
    await add('Маяки севера', 'a white lighthouse in the snow', 3);
    await add('Leuchttürme', 'two lighthouses by the sea', 4);
    await add('Світанок над морем', 'sunrise over the sea', 5);
    await add('Теңіз жағасы', 'a beach with palm trees', 6);
    await add('Dəniz sahili', 'a sandy beach at noon', 7);
    await add('Secret lighthouse', 'a lighthouse nobody may see yet', 8, 'draft');

    const search = async (q: string, limit = 2) =>
      (await allPages(null, `/api/posts/?type=new&q=${encodeURIComponent(q)}`, limit)).map((p) => p.title);
    // English stems: "lighthouses" finds "lighthouse" and the other way round; drafts are never found.
    expect(await search('lighthouses')).toEqual(['Leuchttürme', 'Маяки севера', 'Evening']);
    expect(await search('lighthouse', 1)).toEqual(['Leuchttürme', 'Маяки севера', 'Evening']);
    // Russian and German stemming of titles.
    expect(await search('маяк')).toEqual(['Маяки севера']);
    expect(await search('Leuchtturm')).toEqual(['Leuchttürme']);
    // Ukrainian, Kazakh and Azerbaijani: whole words, any case.
    expect(await search('світанок')).toEqual(['Світанок над морем']);
    expect(await search('теңіз')).toEqual(['Теңіз жағасы']);
    expect(await search('DƏNIZ')).toEqual(['Dəniz sahili']);
    // Web-search syntax: all words must match, "-word" excludes, quotes keep a phrase.
    expect(await search('lighthouse snow')).toEqual(['Маяки севера']);
    expect(await search('lighthouse -snow -sea')).toEqual(['Evening']);
    expect(await search('"calm harbour"')).toEqual(['Harbour']);
    expect(await search('"harbour calm"')).toEqual([]);
    expect(await search('nothing-like-this')).toEqual([]);
    // Punctuation only, quotes and backslashes: no words, no error.
    expect(await search('!!! ???')).toEqual([]);
    expect(await search(`it's "a \\ test' -- ;`)).toEqual([]);
    // Search works within the other tabs too.
    const recommended = await allPages(null, `/api/posts/?type=recommended&q=beach`);
    expect(recommended.map((p) => p.title).sort()).toEqual(['Dəniz sahili', 'Теңіз жағасы']);
  });
});

describe('search across time', () => {
  it('finds matches spread over years in order, page by page, however far apart they are', async () => {
    const author = await signedInPerson(t);
    const now = Date.UTC(2026, 5, 15, 9, 30);
    const daysAgo = [0, 0, 1, 3, 9, 10, 40, 70, 300, 700, 2000, 6000];
    const expected: string[] = [];
    for (const [i, days] of daysAgo.entries()) {
      const title = `zebracorn ${i}`;
      await insertPost(t, author.user.id, {
        title,
        publishedAt: new Date(now - days * 86_400_000 - i * 1000),
      });
      expected.push(title);
    }
    // Plenty of newer posts without the word.
    for (let i = 0; i < 30; i++) {
      await insertPost(t, author.user.id, { title: `plain ${i}`, publishedAt: new Date(now + 1000 + i) });
    }
    for (const limit of [1, 2, 5, 50]) {
      const found = await allPages(null, '/api/posts/?type=new&q=zebracorn', limit);
      expect(
        found.map((p) => p.title),
        `pages of ${limit}`,
      ).toEqual(expected);
    }
    // A page beyond the last match is empty, with no next page.
    const last = await page(null, '/api/posts/?type=new&q=zebracorn&limit=50');
    expect(last.next).toBeNull();
  });
});
