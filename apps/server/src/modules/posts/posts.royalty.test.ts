import { GenerationStatus } from '@mirra/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { creditEntries, notifications, posts } from '../../shared/db/schema.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import {
  balanceOf,
  completedGeneration,
  createSwitchableModerator,
  publish,
  signedInPerson,
  type Person,
} from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createUploadFor } from '../../test/factories.js';
import { createEngineRegistry } from '../../engines/index.js';
import { runGeneration } from '../generations/generation-run.usecases.js';
import { generationsRepository } from '../generations/generations.repository.js';
import { completeGeneration } from '../generations/generations.usecases.js';
import type { StoredResult } from '../generations/generations.serializers.js';
import { settlePostUse } from './post-generations.usecases.js';

const engine = createScriptedEngine('test');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'test',
      ENGINE_EDITING: 'test',
      ENGINE_STYLING: 'test',
      PRICE_SIMPLE: '5', // royalty 1
      PRICE_EDITING: '14', // royalty 2.8: 2 paid, 0.8 carried
      PRICE_STYLING: '1', // royalty 0.2: carried until a whole credit is owed
      FREE_DAILY_PHOTOS: '1000',
      GENERATION_MAX_ATTEMPTS: '1',
    },
    overrides: { imageModerator: createSwitchableModerator() },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
});
afterAll(() => t.close());
beforeEach(() => engine.script());

const recipe = { mode: 'simple' as const, prompt: 'a lighthouse at dusk', guidance: 7, seed: 42 };

/** An author with a published post of a simple generation. */
async function authorWithPost(body: Record<string, unknown> = recipe) {
  const author = await signedInPerson(t, { firstName: 'Author' });
  const generation = await completedGeneration(t, author, body as never);
  expect(generation.status).toBe(GenerationStatus.COMPLETED);
  const post = await publish(t, author, generation.uuid, { title: 'Lighthouse' });
  return { author, post };
}

async function startFrom(person: Person, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/generations/', headers: person.headers, payload: body });
}

const royaltiesOf = (userId: number) =>
  t.deps.db
    .select()
    .from(creditEntries)
    .where(and(eq(creditEntries.userId, userId), eq(creditEntries.kind, 'royalty')));
const royaltyNotificationsOf = (userId: number) =>
  t.deps.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'royalty')));
const postRow = async (uuid: string) =>
  (await t.deps.db.select().from(posts).where(eq(posts.uuid, uuid)))[0]!;

describe('prompt royalties', () => {
  it('pays the author 20% of a repeat, once, through the ledger, with a notification', async () => {
    const { author, post } = await authorWithPost();
    const fan = await signedInPerson(t, { firstName: 'Fan' });
    const before = await balanceOf(t, author.user.id);

    // The post carries everything a repeat needs.
    expect(post.recipe).toEqual({ ...recipe, style: null, duration: null, needs_image: false });
    const created = await startFrom(fan, { ...post.recipe, post_uuid: post.uuid });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ post_uuid: post.uuid, seed: 42, cost: 5 });
    // Nothing is paid before the generation completes.
    expect(await balanceOf(t, author.user.id)).toBe(before);

    await t.runJobs();
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 1);
    const entries = await royaltiesOf(author.user.id);
    expect(entries).toEqual([
      expect.objectContaining({
        delta: 1,
        ref: created.json().uuid,
        idempotencyKey: `royalty:${created.json().uuid}`,
      }),
    ]);
    const notes = await royaltyNotificationsOf(author.user.id);
    expect(notes.map((n) => n.data)).toEqual([
      { amount: 1, post_uuid: post.uuid, user_uuid: fan.user.uuid, user_name: 'Fan' },
    ]);
    const row = await postRow(post.uuid);
    expect([row.repeatsCount, row.remixesCount]).toEqual([1, 0]);

    // The author sees it in their credits history.
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/credits/history/',
      headers: author.headers,
    });
    expect(history.json().results[0]).toMatchObject({ kind: 'royalty', delta: 1, ref: created.json().uuid });
  });

  it('pays for a remix too (changed prompt), and counts it as a remix', async () => {
    const { author, post } = await authorWithPost();
    const fan = await signedInPerson(t);
    const before = await balanceOf(t, author.user.id);
    const created = await startFrom(fan, {
      ...post.recipe,
      prompt: 'a lighthouse at dawn',
      post_uuid: post.uuid,
    });
    expect(created.statusCode).toBe(201);
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 1);
    const row = await postRow(post.uuid);
    expect([row.repeatsCount, row.remixesCount]).toEqual([0, 1]);
  });

  it('pays the whole credits of 20% of the price spent and carries the rest: 14 credits of an editing repeat pay 2 now', async () => {
    const author = await signedInPerson(t);
    const photo = await createUploadFor(t, author.user.id);
    const generation = await completedGeneration(t, author, {
      mode: 'editing',
      prompt: 'make it brighter',
      images: [photo.uuid],
      seed: 7,
    });
    const post = await publish(t, author, generation.uuid);
    // The author's photo is private: the post asks for the caller's own.
    expect(post.recipe).toMatchObject({ mode: 'editing', needs_image: true });
    expect(JSON.stringify(post)).not.toContain(photo.uuid);

    const fan = await signedInPerson(t);
    // Someone else's photo cannot be borrowed through the post.
    const borrowed = await startFrom(fan, { ...post.recipe, images: [photo.uuid], post_uuid: post.uuid });
    expect(borrowed.json()).toMatchObject({ code: 'generations.image_required' });
    const own = await createUploadFor(t, fan.user.id);
    const before = await balanceOf(t, author.user.id);
    const created = await startFrom(fan, { ...post.recipe, images: [own.uuid], post_uuid: post.uuid });
    expect(created.statusCode).toBe(201);
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 2);
    expect((await postRow(post.uuid)).repeatsCount).toBe(1);
  });

  it('pays nothing when a generation fails and is refunded, and does not count it', async () => {
    const { author, post } = await authorWithPost();
    const fan = await signedInPerson(t);
    const before = await balanceOf(t, author.user.id);
    const fanBefore = await balanceOf(t, fan.user.id);
    engine.script({ kind: 'throw', code: 'engine.bad_input', retryable: false });
    const created = await startFrom(fan, { ...post.recipe, post_uuid: post.uuid });
    await t.runJobs();
    const failed = await generationsRepository.findByUuidForUser(t.deps.db, created.json().uuid, fan.user.id);
    expect(failed).toMatchObject({ status: GenerationStatus.ERROR, refunded: true });
    expect(await balanceOf(t, fan.user.id)).toBe(fanBefore);
    expect(await balanceOf(t, author.user.id)).toBe(before);
    expect(await royaltiesOf(author.user.id)).toEqual([]);
    const row = await postRow(post.uuid);
    expect([row.repeatsCount, row.remixesCount]).toEqual([0, 0]);
  });

  it('pays once when the job runs twice at once, and when completion hooks are replayed', async () => {
    const { author, post } = await authorWithPost();
    const fan = await signedInPerson(t);
    const before = await balanceOf(t, author.user.id);
    const created = await startFrom(fan, { ...post.recipe, post_uuid: post.uuid });
    const row = await generationsRepository.findByUuidForUser(t.deps.db, created.json().uuid, fan.user.id);
    await Promise.all([
      runGeneration(t.deps, row!.id, { attempt: 1, maxAttempts: 1 }),
      runGeneration(t.deps, row!.id, { attempt: 1, maxAttempts: 1 }),
    ]);
    await t.runJobs();
    const completed = await generationsRepository.findById(t.deps.db, row!.id);
    expect(completed!.status).toBe(GenerationStatus.COMPLETED);
    // A completion replayed, and the settlement replayed on its own: both change nothing.
    expect(await completeGeneration(t.deps, completed!, completed!.result as StoredResult)).toBeUndefined();
    await t.deps.db.transaction((tx) => settlePostUse(tx, completed!, new Date()));
    expect(await balanceOf(t, author.user.id)).toBe(before + 1);
    expect(await royaltiesOf(author.user.id)).toHaveLength(1);
    expect(await royaltyNotificationsOf(author.user.id)).toHaveLength(1);
    expect((await postRow(post.uuid)).repeatsCount).toBe(1);
  });

  it('pays nothing for generations from my own post, and counts none', async () => {
    const { author, post } = await authorWithPost();
    const before = await balanceOf(t, author.user.id);
    const created = await startFrom(author, { ...post.recipe, post_uuid: post.uuid });
    expect(created.statusCode).toBe(201);
    await t.runJobs();
    // Only the price was spent; nothing came back.
    expect(await balanceOf(t, author.user.id)).toBe(before - 5);
    expect(await royaltiesOf(author.user.id)).toEqual([]);
    expect((await postRow(post.uuid)).repeatsCount).toBe(0);
  });

  /** An author with a published styling post (1 credit a use: 0.2 credits of royalty). */
  async function authorWithOneCreditPost() {
    const author = await signedInPerson(t);
    const photo = await createUploadFor(t, author.user.id);
    const generation = await completedGeneration(t, author, {
      mode: 'styling',
      style: 'toy',
      images: [photo.uuid],
    });
    return { author, post: await publish(t, author, generation.uuid) };
  }

  async function styleFrom(person: Person, post: { uuid: string; recipe: Record<string, unknown> }) {
    const own = await createUploadFor(t, person.user.id);
    const created = await startFrom(person, { ...post.recipe, images: [own.uuid], post_uuid: post.uuid });
    expect(created.json().cost).toBe(1);
    return created.json().uuid as string;
  }

  it('carries a share under one credit to the next use: no ledger entry or notice until a whole credit is owed', async () => {
    const { author, post } = await authorWithOneCreditPost();
    const before = await balanceOf(t, author.user.id);
    const fan = await signedInPerson(t);
    for (let use = 0; use < 4; use++) await styleFrom(fan, post);
    await t.runJobs();
    expect(await royaltiesOf(author.user.id)).toEqual([]);
    expect(await royaltyNotificationsOf(author.user.id)).toEqual([]);
    expect((await postRow(post.uuid)).repeatsCount).toBe(4);

    // The fifth 1-credit use brings the carried 0.8 to a whole credit.
    const fifth = await styleFrom(fan, post);
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 1);
    expect(await royaltiesOf(author.user.id)).toEqual([
      expect.objectContaining({ delta: 1, ref: fifth, idempotencyKey: `royalty:${fifth}` }),
    ]);
    expect((await royaltyNotificationsOf(author.user.id)).map((n) => n.data)).toEqual([
      expect.objectContaining({ amount: 1, post_uuid: post.uuid }),
    ]);
  });

  it('pays exactly 20% in total of many 1-credit uses by several people, once, however the settlements are replayed', async () => {
    const { author, post } = await authorWithOneCreditPost();
    const before = await balanceOf(t, author.user.id);
    const fans = [await signedInPerson(t), await signedInPerson(t), await signedInPerson(t)];
    const started: { fan: Person; uuid: string }[] = [];
    for (let use = 0; use < 15; use++) {
      const fan = fans[use % fans.length]!;
      started.push({ fan, uuid: await styleFrom(fan, post) });
    }
    await t.runJobs();
    await t.runJobs();

    // 15 credits spent: 3 credits paid, in three entries of one credit, nothing left carried.
    const paid = await royaltiesOf(author.user.id);
    expect(paid.map((entry) => entry.delta)).toEqual([1, 1, 1]);
    expect(await balanceOf(t, author.user.id)).toBe(before + 3);
    expect(await royaltyNotificationsOf(author.user.id)).toHaveLength(3);

    // Replaying every settlement at once, and every completion, changes nothing.
    const generations = await Promise.all(
      started.map(({ fan, uuid }) => generationsRepository.findByUuidForUser(t.deps.db, uuid, fan.user.id)),
    );
    await Promise.all(
      generations.map((generation) =>
        t.deps.db.transaction((tx) => settlePostUse(tx, generation!, new Date())),
      ),
    );
    for (const generation of generations) {
      expect(generation!.status).toBe(GenerationStatus.COMPLETED);
      await completeGeneration(t.deps, generation!, generation!.result as StoredResult);
    }
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 3);
    expect(await royaltiesOf(author.user.id)).toHaveLength(3);
    expect(await royaltyNotificationsOf(author.user.id)).toHaveLength(3);
    expect((await postRow(post.uuid)).repeatsCount).toBe(15);

    // The carry is empty again: five more uses pay exactly one more credit.
    for (let use = 0; use < 5; use++) await styleFrom(fans[0]!, post);
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 4);
  });

  it('keeps the fraction of an uneven price for the next use: 14 credits carry 0.8, a 1-credit use then pays 1', async () => {
    const author = await signedInPerson(t);
    const photo = await createUploadFor(t, author.user.id);
    const edited = await completedGeneration(t, author, {
      mode: 'editing',
      prompt: 'make it brighter',
      images: [photo.uuid],
      seed: 7,
    });
    const editingPost = await publish(t, author, edited.uuid);
    const styled = await completedGeneration(t, author, {
      mode: 'styling',
      style: 'toy',
      images: [photo.uuid],
    });
    const stylingPost = await publish(t, author, styled.uuid);
    const fan = await signedInPerson(t);
    const before = await balanceOf(t, author.user.id);

    const own = await createUploadFor(t, fan.user.id);
    await startFrom(fan, { ...editingPost.recipe, images: [own.uuid], post_uuid: editingPost.uuid });
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 2);
    // The carry is the author's, across their posts.
    await styleFrom(fan, stylingPost);
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 3);
  });

  it('refuses generations from drafts and unpublished posts of others, but still pays for one started before unpublishing', async () => {
    const { author, post } = await authorWithPost();
    const fan = await signedInPerson(t);
    const inFlight = await startFrom(fan, { ...post.recipe, post_uuid: post.uuid });
    expect(inFlight.statusCode).toBe(201);
    const before = await balanceOf(t, author.user.id);

    const unpublished = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${post.uuid}/`,
      headers: author.headers,
    });
    expect(unpublished.json().status).toBe('draft');
    const refused = await startFrom(fan, { ...post.recipe, post_uuid: post.uuid });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'posts.not_found' });
    const unknown = await startFrom(fan, { ...post.recipe, post_uuid: crypto.randomUUID() });
    expect(unknown.json()).toMatchObject({ code: 'posts.not_found' });

    // Started while the post was public: the author is paid when it completes.
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 1);

    // Repeating my own generation from the vanished post still works, now without the post.
    const repeat = await t.app.inject({
      method: 'POST',
      url: `/api/generations/${inFlight.json().uuid}/repeat/`,
      headers: fan.headers,
    });
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json().post_uuid).toBeNull();
    await t.runJobs();
    expect(await balanceOf(t, author.user.id)).toBe(before + 1);
  });
});
