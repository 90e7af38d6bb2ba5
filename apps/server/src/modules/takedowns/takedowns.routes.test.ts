import { randomUUID } from 'node:crypto';
import type { TAdminReportedPost } from '@mirra/contracts';
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generations, posts, takedownRequests, uploads } from '../../shared/db/schema.js';
import { multipartBody } from '../../test/images.js';
import { uploadModelPhotos } from '../../test/models.js';
import {
  completedGeneration,
  publish,
  signedInPerson,
  signInAgain,
  type Person,
} from '../../test/posts-factories.js';
import { listStoredObjects } from '../../test/stored-objects.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantStaffRole } from '../admin/index.js';

let t: TestApp;
let moderator: Person;
let viewer: Person;

beforeAll(async () => {
  t = await createTestApp();
  moderator = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, moderator.user.email!, 'moderator');
  viewer = await signedInPerson(t);
});
afterAll(() => t?.close());

const HOUR = 3600_000;

/** A published post of a new author, with its generation's uuid. */
async function publishedPost(prompt: string) {
  const author = await signedInPerson(t);
  const generation = await completedGeneration(t, author, { mode: 'simple', prompt });
  const post = await publish(t, author, generation.uuid, { title: prompt });
  return { author, generation, post };
}

const requestTakedown = (payload: object, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: '/api/takedowns/', headers, payload, remoteAddress });

const queue = async (staff: Person = moderator): Promise<TAdminReportedPost[]> => {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/admin/reports/',
    headers: staff.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json().results;
};

const seenBy = (uuid: string, person: Person) =>
  t.app.inject({ method: 'GET', url: `/api/posts/${uuid}/`, headers: person.headers });

const upload = (data: Buffer, headers: Record<string, string>) => {
  const body = multipartBody([{ name: 'file', filename: 'photo.jpg', contentType: 'image/jpeg', data }]);
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads/',
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
};

describe('POST /api/takedowns/ (anyone, signed in or not)', () => {
  it('an intimate-image request by a guest hides the post at once and puts it first in the queue with its 48-hour deadline', async () => {
    // An older "not consented" report would otherwise lead the queue.
    const reported = await publishedPost('reported first');
    const reporter = await signedInPerson(t);
    const report = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${reported.post.uuid}/report/`,
      headers: reporter.headers,
      payload: { reason: 'not_consented' },
    });
    expect(report.statusCode).toBe(204);

    const { post } = await publishedPost('taken down');
    expect((await seenBy(post.uuid, viewer)).statusCode).toBe(200);
    const receivedAt = new Date(Date.now());
    t.setNow(receivedAt);
    const response = await requestTakedown({
      post_url: `https://mirra.example/post/${post.uuid}/`,
      category: 'intimate',
      contact_email: 'Me@Example.com',
      details: 'This is me.',
    });
    expect(response.statusCode).toBe(201);
    const deadline = new Date(receivedAt.getTime() + 48 * HOUR).toISOString();
    expect(response.json()).toEqual({
      received_at: receivedAt.toISOString(),
      deadline_at: deadline,
      hidden: true,
    });

    // Gone from the post's page and the feed for everyone but its author.
    expect((await seenBy(post.uuid, viewer)).statusCode).toBe(404);
    const feed = await t.app.inject({ method: 'GET', url: '/api/posts/?type=new', headers: viewer.headers });
    expect(feed.json().results.map((p: { uuid: string }) => p.uuid)).not.toContain(post.uuid);

    const [first, second] = await queue();
    expect(first!.post.uuid).toBe(post.uuid);
    expect(first!.deadline_at).toBe(deadline);
    expect(first!.deadline_state).toBe('on_time');
    expect(first!.takedowns).toEqual([
      {
        category: 'intimate',
        contact_email: 'me@example.com',
        details: 'This is me.',
        received_at: receivedAt.toISOString(),
        deadline_at: deadline,
      },
    ]);
    expect(second!.post.uuid).toBe(reported.post.uuid);

    // The deadline is shown as near under 12 hours before it, and missed after it.
    try {
      t.setNow(new Date(receivedAt.getTime() + 37 * HOUR));
      expect((await queue(await signInAgain(t, moderator)))[0]!.deadline_state).toBe('near');
      t.setNow(new Date(receivedAt.getTime() + 49 * HOUR));
      expect((await queue(await signInAgain(t, moderator)))[0]!.deadline_state).toBe('missed');
    } finally {
      t.setNow(undefined);
    }
  }, 90_000);

  it('other categories keep the post shown and queue it; rejecting restores it and closes the request', async () => {
    const { post } = await publishedPost('my face');
    const response = await requestTakedown(
      { post_url: post.uuid, category: 'my_face', contact_email: 'face@example.com' },
      viewer.headers,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ deadline_at: null, hidden: false });
    expect((await seenBy(post.uuid, viewer)).statusCode).toBe(200);
    const entry = (await queue()).find((e) => e.post.uuid === post.uuid)!;
    expect(entry).toMatchObject({ deadline_at: null, deadline_state: null });
    expect(entry.takedowns.map((d) => d.category)).toEqual(['my_face']);

    const hidden = await publishedPost('rejected');
    await requestTakedown({
      post_url: hidden.post.uuid,
      category: 'intimate',
      contact_email: 'x@example.com',
    });
    expect((await seenBy(hidden.post.uuid, viewer)).statusCode).toBe(404);
    const restore = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${hidden.post.uuid}/restore/`,
      headers: moderator.headers,
      payload: { reason: 'Not the person who asked.' },
    });
    expect(restore.statusCode).toBe(204);
    expect((await seenBy(hidden.post.uuid, viewer)).statusCode).toBe(200);
    expect((await queue()).map((e) => e.post.uuid)).not.toContain(hidden.post.uuid);
    const rows = await t.deps.db
      .select()
      .from(takedownRequests)
      .where(eq(takedownRequests.postUuid, hidden.post.uuid));
    expect(rows.map((row) => row.outcome)).toEqual(['rejected']);
  });

  it('answers bad input field by field, and a link to no post on its field', async () => {
    const bad = await requestTakedown({
      post_url: 'https://example.com/x',
      category: 'nope',
      contact_email: 'no',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      post_url: ['Paste the link to the post.'],
      category: ['Choose what the picture shows.'],
      contact_email: ['Enter a valid email address.'],
    });
    const missing = await requestTakedown({
      post_url: `/post/${randomUUID()}/`,
      category: 'other',
      contact_email: 'a@example.com',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ post_url: ['There is no post at this link.'] });
  });

  it('is rate-limited per address', async () => {
    const { post } = await publishedPost('limited');
    const limit = t.deps.config.rateLimits.takedownsPerIp;
    const send = (address: string) =>
      requestTakedown(
        { post_url: post.uuid, category: 'other', contact_email: 'r@example.com' },
        {},
        address,
      );
    for (let i = 0; i < limit; i++) expect((await send('10.1.2.3')).statusCode).toBe(201);
    expect((await send('10.1.2.3')).statusCode).toBe(429);
    expect((await send('10.9.9.9')).statusCode).toBe(201);
  });
});

describe('staff removal after a takedown request', () => {
  it('deletes every copy from storage, copies in anyone’s uploads too, and refuses the picture as an upload, re-encoded too', async () => {
    const author = await signedInPerson(t);
    const before = await listStoredObjects(t);
    const generation = await completedGeneration(t, author, { mode: 'simple', prompt: 'remove every copy' });
    const post = await publish(t, author, generation.uuid, { title: 'remove me' });
    // Copies of the picture in uploads: the author's "use this picture", and someone else's copy
    // of the post's picture taken for their own edit or face swap.
    const copies = [
      await t.app.inject({
        method: 'POST',
        url: `/api/generations/${generation.uuid}/use_result/`,
        headers: author.headers,
      }),
      await t.app.inject({
        method: 'POST',
        url: `/api/posts/${post.uuid}/use_image/`,
        headers: viewer.headers,
      }),
    ].map((response) => {
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json().uuid as string;
    });
    const made = [...(await listStoredObjects(t))].filter((name) => !before.has(name));
    expect(made.length).toBeGreaterThanOrEqual(4);
    const picture = (await t.fetchMedia(post.image.url)).rawPayload;

    await requestTakedown({ post_url: post.share_url, category: 'intimate', contact_email: 'v@example.com' });
    const removed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${post.uuid}/remove/`,
      headers: moderator.headers,
      payload: { reason: 'Intimate picture, confirmed.' },
    });
    expect(removed.statusCode).toBe(204);
    await t.runJobs();

    const after = await listStoredObjects(t);
    expect(made.filter((name) => after.has(name))).toEqual([]);
    expect(await t.deps.db.select().from(posts).where(eq(posts.uuid, post.uuid))).toEqual([]);
    expect(await t.deps.db.select().from(uploads).where(inArray(uploads.uuid, copies))).toEqual([]);
    expect(await t.deps.db.select().from(generations).where(eq(generations.uuid, generation.uuid))).toEqual(
      [],
    );
    expect((await queue()).map((e) => e.post.uuid)).not.toContain(post.uuid);

    // The same picture, and a re-encoded, slightly smaller JPEG of it, are refused by anyone.
    const reencoded = await sharp(picture)
      .resize({ width: Math.round(post.image.width * 0.9) })
      .jpeg({ quality: 72 })
      .toBuffer();
    for (const data of [picture, reencoded]) {
      const refused = await upload(data, viewer.headers);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().code).toBe('uploads.blocked');
    }
    const other = await sharp({
      create: { width: 320, height: 240, channels: 3, background: '#2a6' },
    })
      .composite([
        {
          input: await sharp({ create: { width: 160, height: 120, channels: 3, background: '#fff' } })
            .png()
            .toBuffer(),
          left: 20,
          top: 30,
        },
      ])
      .jpeg()
      .toBuffer();
    expect((await upload(other, viewer.headers)).statusCode).toBe(201);

    // As a digital model's photo too.
    const model = await t.app.inject({
      method: 'POST',
      url: '/api/models/',
      headers: viewer.headers,
      payload: { name: 'Someone' },
    });
    expect(model.statusCode).toBe(201);
    const photos = await uploadModelPhotos(t, viewer.headers, model.json().uuid, [{ data: reencoded }]);
    expect(JSON.stringify(photos.json())).toContain('file.blocked');
  });
});
