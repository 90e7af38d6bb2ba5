import { randomUUID } from 'node:crypto';
import { GenerationStatus, type TCreateGenerationBody } from '@mirra/contracts';
import { eq } from 'drizzle-orm';
import { issueSession } from '../modules/auth/sessions.usecases.js';
import { grantWelcomeCredits } from '../modules/credits/credits.usecases.js';
import type { ImageModerator } from '../modules/moderation/moderation.types.js';
import { socialRepository } from '../modules/social/social.repository.js';
import { createUser } from '../modules/users/users.usecases.js';
import { creditAccounts, generations, posts } from '../shared/db/schema.js';
import type { TestApp } from './test-app.js';

let counter = 0;

/** A signed-in person with credits (no password hashing: a session is issued directly). */
export async function signedInPerson(t: TestApp, values: { firstName?: string; credits?: number } = {}) {
  counter += 1;
  const user = await createUser(t.deps.db, {
    email: `person.${process.pid}.${counter}.${randomUUID().slice(0, 6)}@example.com`,
    isActive: true,
    firstName: values.firstName ?? `Person${counter}`,
  });
  if (values.credits !== 0) await grantWelcomeCredits(t.deps.db, user.id, values.credits ?? 100);
  const { access } = await issueSession(t.deps, t.deps.db, user.id);
  return { user, headers: { authorization: `Bearer ${access}` } };
}

export type Person = Awaited<ReturnType<typeof signedInPerson>>;

/** A fresh session for the person at the app's current clock (after `t.setNow`). */
export async function signInAgain(t: TestApp, person: Person): Promise<Person> {
  const { access } = await issueSession(t.deps, t.deps.db, person.user.id);
  return { user: person.user, headers: { authorization: `Bearer ${access}` } };
}

/** An image moderator whose verdict a test sets. */
export function createSwitchableModerator(): ImageModerator & { flagged: boolean; calls: number } {
  const moderator = {
    flagged: false,
    calls: 0,
    async check() {
      moderator.calls += 1;
      return { flagged: moderator.flagged, categories: moderator.flagged ? ['Porn'] : [], scores: {} };
    },
  };
  return moderator;
}

/** A generation started through the API and run by the worker. */
export async function completedGeneration(t: TestApp, person: Person, body: TCreateGenerationBody) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/generations/',
    headers: person.headers,
    payload: body,
  });
  if (created.statusCode !== 201)
    throw new Error(`generation refused: ${created.statusCode} ${created.body}`);
  await t.runJobs();
  const done = await t.app.inject({
    method: 'GET',
    url: `/api/generations/${created.json().uuid}/`,
    headers: person.headers,
  });
  return done.json();
}

/** Publishes a result through the API. */
export async function publish(
  t: TestApp,
  person: Person,
  generationUuid: string,
  values: { title?: string; draft?: boolean } = {},
) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/posts/',
    headers: person.headers,
    payload: { generation_uuid: generationUuid, title: values.title ?? '', draft: values.draft ?? false },
  });
  if (response.statusCode !== 201)
    throw new Error(`publish refused: ${response.statusCode} ${response.body}`);
  return response.json();
}

/**
 * A post straight into the database (with a completed generation behind it), for feed tests that
 * need many posts with chosen times and counts. Its files do not exist.
 */
export async function insertPost(
  t: TestApp,
  userId: number,
  values: {
    title?: string;
    prompt?: string;
    status?: 'draft' | 'published' | 'hidden';
    publishedAt?: Date | null;
    saves?: number;
    views?: number;
    repeats?: number;
    remixes?: number;
  } = {},
) {
  const uuid = randomUUID();
  const [generation] = await t.deps.db
    .insert(generations)
    .values({
      uuid,
      userId,
      mode: 'simple',
      status: GenerationStatus.COMPLETED,
      prompt: values.prompt ?? 'a quiet harbour',
      guidance: 7,
      seed: 1,
      cost: 1,
      engine: 'test',
      result: {
        original: {
          key: `results/${userId}/${uuid}/original.png`,
          width: 1200,
          height: 800,
          contentType: 'image/png',
        },
        variants: [{ key: `results/${userId}/${uuid}/w256.webp`, width: 256, height: 171 }],
        engine: 'test',
        notes: [],
      },
    })
    .returning();
  const status = values.status ?? 'published';
  const publishedAt =
    values.publishedAt === undefined ? (status === 'draft' ? null : new Date()) : values.publishedAt;
  const [post] = await t.deps.db
    .insert(posts)
    .values({
      userId,
      generationId: generation!.id,
      generationUuid: generation!.uuid,
      status,
      title: values.title ?? '',
      prompt: generation!.prompt,
      mode: 'simple',
      guidance: 7,
      seed: 1,
      image: { original: generation!.result!.original, variants: generation!.result!.variants },
      savesCount: values.saves ?? 0,
      viewsCount: values.views ?? 0,
      repeatsCount: values.repeats ?? 0,
      remixesCount: values.remixes ?? 0,
      publishedAt,
    })
    .returning();
  if (status === 'published') await socialRepository.addToCounters(t.deps.db, userId, { posts: 1 });
  return post!;
}

export async function balanceOf(t: TestApp, userId: number): Promise<number> {
  const [row] = await t.deps.db.select().from(creditAccounts).where(eq(creditAccounts.userId, userId));
  return row?.balance ?? 0;
}
