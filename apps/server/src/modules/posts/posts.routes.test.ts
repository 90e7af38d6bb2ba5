import { GenerationStatus } from '@mirra/contracts';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generations, modelConsents, notifications, posts, userCounters } from '../../shared/db/schema.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import {
  completedGeneration,
  createSwitchableModerator,
  publish,
  signedInPerson,
  signInAgain,
  type Person,
} from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createEngineRegistry } from '../../engines/index.js';

const engine = createScriptedEngine('test');
const moderator = createSwitchableModerator();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'test',
      ENGINE_VIDEO: 'test',
      FREE_DAILY_PHOTOS: '1000',
      POST_REPORT_HIDE_THRESHOLD: '2',
      TELEGRAM_BOT_USERNAME: 'MirraBot',
    },
    overrides: { imageModerator: moderator },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
});
afterAll(() => t.close());
beforeEach(() => {
  engine.script();
  moderator.flagged = false;
});

const call = (
  person: Person | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: person?.headers, ...(payload ? { payload } : {}) });

const postsCountOf = async (userId: number) =>
  (await t.deps.db.select().from(userCounters).where(eq(userCounters.userId, userId)))[0]?.postsCount ?? 0;

async function personWithResult(prompt = 'a lighthouse at dusk') {
  const person = await signedInPerson(t);
  const generation = await completedGeneration(t, person, { mode: 'simple', prompt, seed: 3 });
  return { person, generation };
}

describe('publishing', () => {
  it('publishes my completed result with its prompt, image variants and recipe, moderated again', async () => {
    const { person, generation } = await personWithResult();
    const before = moderator.calls;
    const response = await call(person, 'POST', '/api/posts/', {
      generation_uuid: generation.uuid,
      title: '  Evening light ',
    });
    expect(response.statusCode).toBe(201);
    const post = response.json();
    expect(moderator.calls).toBe(before + 1);
    expect(post).toMatchObject({
      title: 'Evening light',
      prompt: 'a lighthouse at dusk',
      status: 'published',
      author: { uuid: person.user.uuid, firstName: person.user.firstName },
      image: { width: 1200, height: 800 },
      recipe: { mode: 'simple', prompt: 'a lighthouse at dusk', seed: 3, needs_image: false },
      saves_count: 0,
      is_mine: true,
      is_saved: false,
      generation_uuid: generation.uuid,
      share_url: `http://mirra.test/post/${post.uuid}/`,
    });
    expect(post.image.variants.map((v: { width: number }) => v.width)).toEqual([256, 512, 1024, 1200]);
    expect(post.published_at).not.toBeNull();
    // The signed image link works for anyone.
    expect((await t.fetchMedia(post.image.variants[0].url)).statusCode).toBe(200);
    expect(await postsCountOf(person.user.id)).toBe(1);

    // The result screen can find it; a second publish of the same result is refused with its uuid.
    const found = await call(person, 'GET', `/api/generations/${generation.uuid}/post/`);
    expect(found.statusCode).toBe(200);
    expect(found.json().post.uuid).toBe(post.uuid);
    const again = await call(person, 'POST', '/api/posts/', { generation_uuid: generation.uuid });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'posts.already_exists', post_uuid: post.uuid });
  });

  it('a result not posted yet answers 200 with post null, not a 404', async () => {
    const { person, generation } = await personWithResult('an unposted harbour');
    const answer = await call(person, 'GET', `/api/generations/${generation.uuid}/post/`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ post: null });
  });

  it('publishing the same result twice at once makes one post; the other request gets 409 with it', async () => {
    const { person, generation } = await personWithResult('twin lighthouses');
    const answers = await Promise.all(
      [1, 2, 3].map(() => call(person, 'POST', '/api/posts/', { generation_uuid: generation.uuid })),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    const post = answers.find((answer) => answer.statusCode === 201)!.json();
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(refused.json()).toMatchObject({ code: 'posts.already_exists', post_uuid: post.uuid });
    }
    expect(await postsCountOf(person.user.id)).toBe(1);
  });

  it('publishes a picture drawn by code from shapes without asking the classifier again', async () => {
    const person = await signedInPerson(t);
    engine.script({ kind: 'succeed', procedural: true });
    const generation = await completedGeneration(t, person, { mode: 'simple', prompt: 'a paper boat' });
    moderator.flagged = true;
    const before = moderator.calls;
    const response = await call(person, 'POST', '/api/posts/', { generation_uuid: generation.uuid });
    expect(response.statusCode).toBe(201);
    expect(moderator.calls).toBe(before);
  });

  it('refuses a result that fails moderation now, and titles moderation refuses', async () => {
    const { person, generation } = await personWithResult();
    moderator.flagged = true;
    const refused = await call(person, 'POST', '/api/posts/', { generation_uuid: generation.uuid });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'posts.result_moderated' });
    moderator.flagged = false;
    const badTitle = await call(person, 'POST', '/api/posts/', {
      generation_uuid: generation.uuid,
      title: 'porn',
    });
    expect(badTitle.statusCode).toBe(400);
    expect(badTitle.json()).toEqual({
      code: 'posts.title_moderated',
      title: ['Moderation failed: this title is not allowed.'],
    });
    expect(await postsCountOf(person.user.id)).toBe(0);
  });

  it('publishes only completed picture results, and only my own', async () => {
    const person = await signedInPerson(t);
    engine.script({ kind: 'throw', code: 'engine.bad_input', retryable: false });
    const failed = await completedGeneration(t, person, { mode: 'simple', prompt: 'a red fox' });
    expect(failed.status).toBe(GenerationStatus.ERROR);
    const notCompleted = await call(person, 'POST', '/api/posts/', { generation_uuid: failed.uuid });
    expect(notCompleted.json()).toMatchObject({ code: 'posts.not_publishable' });

    const pending = await call(person, 'POST', '/api/generations/', { mode: 'simple', prompt: 'a blue fox' });
    const early = await call(person, 'POST', '/api/posts/', { generation_uuid: pending.json().uuid });
    expect(early.json()).toMatchObject({ code: 'posts.not_publishable' });
    await t.runJobs();

    const other = await personWithResult();
    const foreign = await call(person, 'POST', '/api/posts/', { generation_uuid: other.generation.uuid });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'generations.not_found' });
  });

  it('keeps drafts private until published, then publishes them from PATCH; unpublishing returns them to drafts', async () => {
    const { person, generation } = await personWithResult();
    const stranger = await signedInPerson(t);
    const draft = await publish(t, person, generation.uuid, { title: 'Not yet', draft: true });
    expect(draft).toMatchObject({ status: 'draft', published_at: null });
    expect(await postsCountOf(person.user.id)).toBe(0);
    expect((await call(stranger, 'GET', `/api/posts/${draft.uuid}/`)).statusCode).toBe(404);
    expect((await call(null, 'GET', `/api/posts/${draft.uuid}/`)).statusCode).toBe(404);
    const drafts = await call(person, 'GET', '/api/posts/?type=drafts');
    expect(drafts.json().results.map((p: { uuid: string }) => p.uuid)).toEqual([draft.uuid]);
    expect((await call(stranger, 'GET', '/api/posts/?type=drafts')).json().results).toEqual([]);

    const published = await call(person, 'PATCH', `/api/posts/${draft.uuid}/`, {
      draft: false,
      title: 'Now',
    });
    expect(published.json()).toMatchObject({ status: 'published', title: 'Now' });
    const firstPublishedAt = published.json().published_at;
    expect(await postsCountOf(person.user.id)).toBe(1);
    expect((await call(stranger, 'GET', `/api/posts/${draft.uuid}/`)).json().title).toBe('Now');

    const unpublished = await call(person, 'DELETE', `/api/posts/${draft.uuid}/`);
    expect(unpublished.json().status).toBe('draft');
    // Unpublishing twice is one unpublish.
    expect((await call(person, 'DELETE', `/api/posts/${draft.uuid}/`)).statusCode).toBe(200);
    expect(await postsCountOf(person.user.id)).toBe(0);
    expect((await call(stranger, 'GET', `/api/posts/${draft.uuid}/`)).statusCode).toBe(404);

    // Publishing again keeps the first publication time: no bumping to the top of "new".
    t.setNow(new Date(Date.now() + 120_000));
    const republished = await call(person, 'PATCH', `/api/posts/${draft.uuid}/`, { draft: false });
    t.setNow(undefined);
    expect(republished.json().published_at).toBe(firstPublishedAt);
    expect(await postsCountOf(person.user.id)).toBe(1);
  });

  it('lets only the author change, publish or unpublish a post', async () => {
    const { person, generation } = await personWithResult();
    const post = await publish(t, person, generation.uuid);
    const stranger = await signedInPerson(t);
    expect(
      (await call(stranger, 'PATCH', `/api/posts/${post.uuid}/`, { title: 'Mine now' })).statusCode,
    ).toBe(404);
    expect((await call(stranger, 'DELETE', `/api/posts/${post.uuid}/`)).statusCode).toBe(404);
    expect((await call(null, 'DELETE', `/api/posts/${post.uuid}/`)).statusCode).toBe(401);
    expect((await call(person, 'GET', `/api/posts/${post.uuid}/`)).json()).toMatchObject({
      status: 'published',
      title: '',
    });
  });
});

describe('publishing a result of a model whose consent is being withdrawn', () => {
  it('waits for the withdrawal under way and is refused by it', async () => {
    const { person, generation } = await personWithResult('a portrait by the sea');
    const modelUuid = randomUUID();
    await t.deps.db.update(generations).set({ modelUuid }).where(eq(generations.uuid, generation.uuid));
    const [consent] = await t.deps.db
      .insert(modelConsents)
      .values({
        modelUuid,
        modelName: 'Partner',
        ownerId: person.user.id,
        status: 'confirmed',
        linkExpiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    let answer: ReturnType<typeof call> | undefined;
    await t.deps.db.transaction(async (tx) => {
      // A withdrawal holds the consent row while it takes the model's posts down.
      await tx.select().from(modelConsents).where(eq(modelConsents.id, consent!.id)).for('update');
      answer = call(person, 'POST', '/api/posts/', { generation_uuid: generation.uuid, title: 'Sea' });
      // The publication reaches the consent row and waits for the withdrawal to end.
      await expect
        .poll(
          async () =>
            (
              await t.deps.db.execute<{ waiting: number }>(
                sql`SELECT count(*)::int AS waiting FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'`,
              )
            ).rows[0]!.waiting,
          { timeout: 10_000 },
        )
        .toBeGreaterThan(0);
      await tx
        .update(modelConsents)
        .set({ status: 'withdrawn', withdrawnAt: new Date() })
        .where(eq(modelConsents.id, consent!.id));
    });
    const response = await answer!;
    expect(response.json().code).toBe('posts.consent_withdrawn');
    expect(await t.deps.db.select().from(posts).where(eq(posts.generationUuid, generation.uuid))).toEqual([]);
  });
});

describe('saves, views and reports', () => {
  it('saves and unsaves idempotently, counting each person once', async () => {
    const { person, generation } = await personWithResult();
    const post = await publish(t, person, generation.uuid);
    const fan = await signedInPerson(t);
    const other = await signedInPerson(t);
    expect((await call(fan, 'POST', `/api/posts/${post.uuid}/save/`)).json()).toEqual({
      is_saved: true,
      saves_count: 1,
    });
    expect((await call(fan, 'POST', `/api/posts/${post.uuid}/save/`)).json()).toEqual({
      is_saved: true,
      saves_count: 1,
    });
    expect((await call(other, 'POST', `/api/posts/${post.uuid}/save/`)).json().saves_count).toBe(2);
    expect((await call(fan, 'GET', `/api/posts/${post.uuid}/`)).json()).toMatchObject({
      is_saved: true,
      saves_count: 2,
    });
    expect((await call(fan, 'DELETE', `/api/posts/${post.uuid}/save/`)).json()).toEqual({
      is_saved: false,
      saves_count: 1,
    });
    expect((await call(fan, 'DELETE', `/api/posts/${post.uuid}/save/`)).json().saves_count).toBe(1);
  });

  it('counts a view once per person and day, never the author’s', async () => {
    const { person, generation } = await personWithResult();
    const post = await publish(t, person, generation.uuid);
    const viewer = await signedInPerson(t);
    const view = (who: Person) => call(who, 'POST', `/api/posts/${post.uuid}/view/`);
    expect((await view(viewer)).statusCode).toBe(204);
    await view(viewer);
    await view(viewer);
    await view(person);
    expect((await call(viewer, 'GET', `/api/posts/${post.uuid}/`)).json().views_count).toBe(1);
    t.setNow(new Date(Date.now() + 24 * 3600_000));
    await view(await signInAgain(t, viewer));
    t.setNow(undefined);
    expect((await call(viewer, 'GET', `/api/posts/${post.uuid}/`)).json().views_count).toBe(2);
  });

  it('hides a post once enough different people report it, and tells the author once', async () => {
    const { person, generation } = await personWithResult();
    const post = await publish(t, person, generation.uuid);
    const [first, second] = [await signedInPerson(t), await signedInPerson(t)];
    const report = (who: Person) => call(who, 'POST', `/api/posts/${post.uuid}/report/`, { reason: 'spam' });
    expect((await report(first)).statusCode).toBe(204);
    // The same person twice, and the author, count once and not at all.
    await report(first);
    await report(person);
    expect((await call(first, 'GET', `/api/posts/${post.uuid}/`)).statusCode).toBe(200);
    expect((await report(second)).statusCode).toBe(204);

    expect((await call(first, 'GET', `/api/posts/${post.uuid}/`)).statusCode).toBe(404);
    const own = await call(person, 'GET', `/api/posts/${post.uuid}/`);
    expect(own.json().status).toBe('hidden');
    expect(await postsCountOf(person.user.id)).toBe(0);
    const removed = await t.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, person.user.id), eq(notifications.kind, 'post_removed')));
    expect(removed.map((n) => n.data)).toEqual([{ post_uuid: post.uuid, reason: 'reported' }]);

    // Hidden waits for review: the author can neither republish it nor unpublish it around the review.
    const republish = await call(person, 'PATCH', `/api/posts/${post.uuid}/`, { draft: false });
    expect(republish.statusCode).toBe(409);
    expect(republish.json()).toMatchObject({ code: 'posts.under_review' });
    expect((await call(person, 'DELETE', `/api/posts/${post.uuid}/`)).json().status).toBe('hidden');
    expect((await report(first)).statusCode).toBe(404);
  });

  it('validates the report reason', async () => {
    const { person, generation } = await personWithResult();
    const post = await publish(t, person, generation.uuid);
    const reporter = await signedInPerson(t);
    const response = await call(reporter, 'POST', `/api/posts/${post.uuid}/report/`, { reason: 'boring' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'common.validation', reason: ['Choose a reason.'] });
  });
});

describe('using a post’s picture', () => {
  it('copies only the published picture into my uploads, the same upload each time', async () => {
    const { person, generation } = await personWithResult();
    const post = await publish(t, person, generation.uuid);
    const fan = await signedInPerson(t);
    const first = await call(fan, 'POST', `/api/posts/${post.uuid}/use_image/`);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ width: 1200, height: 800, content_type: 'image/jpeg' });
    const second = await call(fan, 'POST', `/api/posts/${post.uuid}/use_image/`);
    expect(second.json().uuid).toBe(first.json().uuid);
    // It is mine: it can start a generation of mine (here a remix of the post that uses it).
    const upload = await call(fan, 'GET', `/api/uploads/${first.json().uuid}/`);
    expect(upload.statusCode).toBe(200);
    const video = await call(fan, 'POST', '/api/generations/', {
      mode: 'video',
      images: [first.json().uuid],
      post_uuid: post.uuid,
      duration: 3,
    });
    expect(video.statusCode).toBe(201);
    expect(video.json().post_uuid).toBe(post.uuid);
    await t.runJobs();
    const row = (await t.deps.db.select().from(posts).where(eq(posts.uuid, post.uuid)))[0]!;
    expect(row.remixesCount).toBe(1);
  });
});
