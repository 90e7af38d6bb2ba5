import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineRegistry } from '../../engines/index.js';
import { reconcileStuckGenerations } from './generation-finish.usecases.js';
import { runGeneration } from './generation-run.usecases.js';
import { generationsRepository } from './generations.repository.js';
import { reconcileCreditBalances } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { creditEntries, creditAccounts } from '../../shared/db/schema.js';
import { eq, sql } from 'drizzle-orm';

const engine = createScriptedEngine('test');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'test',
      ENGINE_EDITING: 'test',
      ENGINE_STYLING: 'test',
      WELCOME_CREDITS: '10',
      PRICE_SIMPLE: '2',
      PRICE_EDITING: '1',
      FREE_DAILY_PHOTOS: '1000',
      GENERATION_TIMEOUT_SECONDS: '2',
      GENERATION_MAX_ATTEMPTS: '3',
      // Every test signs a fresh person in from the same address.
      RATE_LIMIT_LOGIN_PER_IP: '1000',
    },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
});
afterAll(() => t.close());
beforeEach(() => engine.script());

async function signedInUser() {
  const user = await createActiveUser(t);
  const { grantWelcomeCredits } = await import('../credits/credits.usecases.js');
  await grantWelcomeCredits(t.deps.db, user.id, 10);
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: bearer(access) };
}

const balanceOf = async (userId: number) =>
  (await t.deps.db.select().from(creditAccounts).where(eq(creditAccounts.userId, userId)))[0]?.balance ?? 0;
const ledgerSum = async (userId: number) =>
  Number(
    (
      await t.deps.db
        .select({ s: sql<number>`coalesce(sum(${creditEntries.delta}), 0)` })
        .from(creditEntries)
        .where(eq(creditEntries.userId, userId))
    )[0]!.s,
  );

async function create(headers: Record<string, string>, body: object) {
  return t.app.inject({ method: 'POST', url: '/api/generations/', headers, payload: body });
}
const rowOf = async (uuid: string) =>
  (await t.deps.db.query.generations.findFirst({ where: (g, { eq: e }) => e(g.uuid, uuid) }))!;

describe('creating and running a generation', () => {
  it('charges, runs in the worker, and completes with a downloadable original and WebP variants', async () => {
    const { user, headers } = await signedInUser();
    const created = await create(headers, { mode: 'simple', prompt: 'a lighthouse at dusk', seed: 42 });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      status: GenerationStatus.NEW,
      cost: 2,
      seed: 42,
      prompt: 'a lighthouse at dusk',
      result: null,
    });
    expect(await balanceOf(user.id)).toBe(8);

    await t.runJobs();
    const done = (
      await t.app.inject({ method: 'GET', url: `/api/generations/${body.uuid}/`, headers })
    ).json();
    expect(done.status).toBe(GenerationStatus.COMPLETED);
    expect(done.progress).toBe(100);
    expect(done.result).toMatchObject({
      width: 1200,
      height: 800,
      // The engine's opaque PNG is kept as a JPEG (see result-encoding.ts).
      content_type: 'image/jpeg',
      engine: 'test',
      notes: [{ code: null, params: {}, text: 'scripted result' }],
    });
    expect(done.result.variants.map((v: { width: number }) => v.width)).toEqual([256, 512, 1024, 1200]);

    const original = await t.fetchMedia(done.result.url);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    const download = await t.fetchMedia(done.result.download_url);
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="mirra-[0-9a-f]{8}\.jpg"$/,
    );
    const variant = await t.fetchMedia(done.result.variants[0].url);
    expect(variant.headers['content-type']).toBe('image/webp');
    // A tampered or foreign media link is refused.
    const forged = done.result.url.replace(/(sig|X-Amz-Signature)=[^&]+/, '$1=forged');
    expect(forged).not.toBe(done.result.url);
    expect([403, 404]).toContain((await t.fetchMedia(forged)).statusCode);
    expect(await ledgerSum(user.id)).toBe(await balanceOf(user.id));
  });

  it('refuses with 402 and the shortfall when credits do not cover the price; nothing is created', async () => {
    const { user, headers } = await signedInUser();
    await t.deps.db.update(creditAccounts).set({ balance: 1 }).where(eq(creditAccounts.userId, user.id));
    await t.deps.db.insert(creditEntries).values({
      userId: user.id,
      delta: -9,
      kind: 'adjustment',
      idempotencyKey: `test-drain-${user.id}`,
      balanceAfter: 1,
    });
    const response = await create(headers, { mode: 'simple', prompt: 'a red fox' });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      code: 'credits.insufficient',
      detail: "You don't have enough 1 credits for generation.",
      required: 2,
      balance: 1,
      difference: 1,
    });
    expect(
      await t.deps.db.query.generations.findMany({ where: (g, { eq: e }) => e(g.userId, user.id) }),
    ).toHaveLength(0);
  });

  it('validates the request per mode before charging', async () => {
    const { user, headers } = await signedInUser();
    expect((await create(headers, { mode: 'simple', prompt: '   ' })).json()).toEqual({
      code: 'common.validation',
      prompt: ['This field may not be blank.'],
    });
    expect((await create(headers, { mode: 'editing', prompt: 'make it brighter' })).json()).toMatchObject({
      code: 'generations.image_required',
    });
    expect((await create(headers, { mode: 'styling', images: [] })).json()).toMatchObject({
      code: 'common.validation',
      style: ['Choose a style.'],
    });
    const long = await create(headers, { mode: 'simple', prompt: 'x'.repeat(1001) });
    expect(long.json()).toEqual({
      code: 'common.validation',
      prompt: ['Maximum number of characters - 1000'],
    });
    const foreign = await create(headers, {
      mode: 'editing',
      prompt: 'brighter',
      images: ['11111111-1111-4111-8111-111111111111'],
    });
    expect(foreign.json()).toEqual({
      code: 'generations.image_required',
      images: ['This photo was not found. Upload it again.'],
    });
    expect((await create(headers, { mode: 'nope' })).statusCode).toBe(400);
    for (const prompt of ['кот в космосе', 'eine Katze mit einem Hut und einer Brille']) {
      const notEnglish = await create(headers, { mode: 'simple', prompt });
      expect(notEnglish.statusCode).toBe(400);
      expect(notEnglish.json()).toEqual({
        code: 'generations.prompt_not_english',
        prompt: ['Only in English'],
      });
    }
    expect(await balanceOf(user.id)).toBe(10);
  });

  it('hands the uploaded photo to the engine for editing', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const created = (
      await create(headers, { mode: 'editing', prompt: 'make it brighter', images: [upload.uuid] })
    ).json();
    await t.runJobs();
    expect(engine.calls.at(-1)).toMatchObject({ mode: 'editing', prompt: 'make it brighter' });
    expect(engine.calls.at(-1)!.images[0]!.width).toBe(400);
    expect((await rowOf(created.uuid)).status).toBe(GenerationStatus.COMPLETED);
  });

  it('keeps generations private: another user gets 404', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const created = (await create(alice.headers, { mode: 'simple', prompt: 'a boat' })).json();
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/generations/${created.uuid}/`, headers: bob.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/generations/${created.uuid}/repeat/`,
          headers: bob.headers,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('failures refund exactly once', () => {
  it('an engine refusal (bad input) ends as ERROR with the reason, refunded', async () => {
    const { user, headers } = await signedInUser();
    engine.script({
      kind: 'throw',
      code: 'engine.bad_input',
      retryable: false,
      message: 'No face found in the photo.',
    });
    const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
    await runGeneration(t.deps, (await rowOf(created.uuid)).id, { attempt: 1, maxAttempts: 3 });
    const row = await rowOf(created.uuid);
    expect(row).toMatchObject({
      status: GenerationStatus.ERROR,
      errorCode: 'generations.bad_input',
      errorDetail: 'No face found in the photo.',
      refunded: true,
    });
    expect(await balanceOf(user.id)).toBe(10);
    expect(await ledgerSum(user.id)).toBe(10);
  });

  it('a transient engine error is retried, and after the last attempt ends as FAILED, refunded once', async () => {
    const { user, headers } = await signedInUser();
    engine.script(
      { kind: 'throw', code: 'engine.unavailable', retryable: true },
      { kind: 'throw', code: 'engine.unavailable', retryable: true },
      { kind: 'throw', code: 'engine.unavailable', retryable: true },
    );
    const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
    const row = await rowOf(created.uuid);
    await expect(runGeneration(t.deps, row.id, { attempt: 1, maxAttempts: 3 })).rejects.toThrow(
      'scripted failure',
    );
    expect((await rowOf(created.uuid)).status).toBe(GenerationStatus.IN_QUEUE);
    await expect(runGeneration(t.deps, row.id, { attempt: 2, maxAttempts: 3 })).rejects.toThrow();
    await runGeneration(t.deps, row.id, { attempt: 3, maxAttempts: 3 });
    expect(await rowOf(created.uuid)).toMatchObject({
      status: GenerationStatus.FAILED,
      errorCode: 'generations.engine_failed',
      refunded: true,
    });
    // A stray extra run changes nothing.
    await runGeneration(t.deps, row.id, { attempt: 3, maxAttempts: 3 });
    expect(await balanceOf(user.id)).toBe(10);
    expect(
      await t.deps.db.query.creditEntries.findMany({ where: (e, { eq: q }) => q(e.ref, created.uuid) }),
    ).toHaveLength(2);
  });

  it('a transient error followed by success completes, charged once', async () => {
    const { user, headers } = await signedInUser();
    engine.script({ kind: 'throw', code: 'engine.unavailable', retryable: true }, { kind: 'succeed' });
    const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
    const row = await rowOf(created.uuid);
    await expect(runGeneration(t.deps, row.id, { attempt: 1, maxAttempts: 3 })).rejects.toThrow();
    await runGeneration(t.deps, row.id, { attempt: 2, maxAttempts: 3 });
    expect((await rowOf(created.uuid)).status).toBe(GenerationStatus.COMPLETED);
    expect(await balanceOf(user.id)).toBe(8);
  });

  it('an engine that hangs is stopped at the timeout and refunded on the last attempt', async () => {
    const { user, headers } = await signedInUser();
    engine.script({ kind: 'hang' });
    const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
    const row = await rowOf(created.uuid);
    await runGeneration(t.deps, row.id, { attempt: 3, maxAttempts: 3 });
    expect(await rowOf(created.uuid)).toMatchObject({ status: GenerationStatus.FAILED, refunded: true });
    expect(await balanceOf(user.id)).toBe(10);
  });

  it('running the job twice at once does the work once', async () => {
    const { user, headers } = await signedInUser();
    engine.script({ kind: 'slow', ms: 200 }, { kind: 'slow', ms: 200 });
    const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
    const row = await rowOf(created.uuid);
    const callsBefore = engine.calls.length;
    await Promise.all([
      runGeneration(t.deps, row.id, { attempt: 1, maxAttempts: 3 }),
      runGeneration(t.deps, row.id, { attempt: 1, maxAttempts: 3 }),
    ]);
    expect(engine.calls.length - callsBefore).toBe(1);
    expect((await rowOf(created.uuid)).status).toBe(GenerationStatus.COMPLETED);
    await runGeneration(t.deps, row.id, { attempt: 2, maxAttempts: 3 });
    expect(engine.calls.length - callsBefore).toBe(1);
    expect(await balanceOf(user.id)).toBe(8);
  });

  it('a worker killed mid-job: the reconciler fails and refunds it, and a late finish cannot revive it', async () => {
    const { user, headers } = await signedInUser();
    const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
    const row = await rowOf(created.uuid);
    // The worker claimed it and died: IN_PROGRESS with nobody working on it.
    await generationsRepository.transition(t.deps.db, row.id, t.deps.now(), GenerationStatus.IN_PROGRESS, {
      startedAt: new Date(),
    });
    await reconcileStuckGenerations(t.deps);
    expect((await rowOf(created.uuid)).status).toBe(GenerationStatus.IN_PROGRESS); // not stale yet
    t.setNow(new Date(Date.now() + 3000));
    try {
      expect(await reconcileStuckGenerations(t.deps)).toBeGreaterThanOrEqual(1);
    } finally {
      t.setNow(undefined);
    }
    expect(await rowOf(created.uuid)).toMatchObject({
      status: GenerationStatus.FAILED,
      errorCode: 'generations.timeout',
      refunded: true,
    });
    expect(await balanceOf(user.id)).toBe(10);
    // The job, run again after the crash, finds it ended and does nothing.
    await runGeneration(t.deps, row.id, { attempt: 2, maxAttempts: 3 });
    expect((await rowOf(created.uuid)).status).toBe(GenerationStatus.FAILED);
    expect(await ledgerSum(user.id)).toBe(10);
  });

  it('a result refused by moderation is not shown and is refunded', async () => {
    const { user, headers } = await signedInUser();
    const original = t.deps.imageModerator;
    t.deps.imageModerator = {
      check: async () => ({ flagged: true, categories: ['porn'], scores: { Porn: 0.99 } }),
    };
    try {
      const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
      await t.runJobs();
      const got = (
        await t.app.inject({ method: 'GET', url: `/api/generations/${created.uuid}/`, headers })
      ).json();
      expect(got).toMatchObject({
        status: GenerationStatus.ERROR,
        error_code: 'generations.result_moderated',
        error_detail: 'Moderation failed, credits refunded',
        refunded: true,
        result: null,
      });
      expect(await balanceOf(user.id)).toBe(10);
    } finally {
      t.deps.imageModerator = original;
    }
  });

  it('a step after the engine breaking (the classifier) sends it back to the queue; the retry completes it, charged once', async () => {
    const { user, headers } = await signedInUser();
    const original = t.deps.imageModerator;
    let checks = 0;
    t.deps.imageModerator = {
      check: async () => {
        checks += 1;
        if (checks === 1) throw new Error('the classifier could not load');
        return { flagged: false, categories: [], scores: {} };
      },
    };
    try {
      const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
      const row = await rowOf(created.uuid);
      await expect(runGeneration(t.deps, row.id, { attempt: 1, maxAttempts: 3 })).rejects.toThrow(
        'the classifier could not load',
      );
      expect((await rowOf(created.uuid)).status).toBe(GenerationStatus.IN_QUEUE);
      await runGeneration(t.deps, row.id, { attempt: 2, maxAttempts: 3 });
      expect(await rowOf(created.uuid)).toMatchObject({
        status: GenerationStatus.COMPLETED,
        refunded: false,
      });
      expect(checks).toBe(2);
      expect(await balanceOf(user.id)).toBe(8);
    } finally {
      t.deps.imageModerator = original;
    }
  });

  it('a step after the engine breaking on the last attempt ends as FAILED, refunded once', async () => {
    const { user, headers } = await signedInUser();
    const original = t.deps.imageModerator;
    t.deps.imageModerator = {
      check: async () => {
        throw new Error('the classifier could not load');
      },
    };
    try {
      const created = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
      const row = await rowOf(created.uuid);
      await runGeneration(t.deps, row.id, { attempt: 3, maxAttempts: 3 });
      expect(await rowOf(created.uuid)).toMatchObject({
        status: GenerationStatus.FAILED,
        errorCode: 'generations.engine_failed',
        refunded: true,
      });
      expect(await balanceOf(user.id)).toBe(10);
      expect(await ledgerSum(user.id)).toBe(10);
    } finally {
      t.deps.imageModerator = original;
    }
  });

  it('a picture drawn by code from shapes is not put to the classifier, which misreads abstract art', async () => {
    const { headers } = await signedInUser();
    const original = t.deps.imageModerator;
    let checked = 0;
    t.deps.imageModerator = {
      check: async () => {
        checked++;
        return { flagged: true, categories: ['sexual'], scores: { Hentai: 0.88 } };
      },
    };
    try {
      engine.script({ kind: 'succeed', procedural: true }, { kind: 'succeed' });
      const drawn = (await create(headers, { mode: 'simple', prompt: 'a paper boat' })).json();
      await t.runJobs();
      const photo = (await create(headers, { mode: 'simple', prompt: 'a paper boat' })).json();
      await t.runJobs();
      const statusOf = async (uuid: string) =>
        (await t.app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers })).json().status;
      expect(await statusOf(drawn.uuid)).toBe(GenerationStatus.COMPLETED);
      expect(await statusOf(photo.uuid)).toBe(GenerationStatus.ERROR);
      expect(checked).toBe(1);
    } finally {
      t.deps.imageModerator = original;
    }
  });

  it('a prompt refused by moderation is refused before anything is charged', async () => {
    const { user, headers } = await signedInUser();
    const original = t.deps.promptModerator;
    t.deps.promptModerator = { check: async () => ({ flagged: true, categories: ['sexual'] }) };
    try {
      const response = await create(headers, { mode: 'simple', prompt: 'something refused' });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('generations.prompt_moderated');
      expect(await balanceOf(user.id)).toBe(10);
    } finally {
      t.deps.promptModerator = original;
    }
  });
});

describe('concurrency', () => {
  it('50 parallel creations against a balance for 10: exactly 10 succeed, the rest get 402, the ledger adds up', async () => {
    const { user, headers } = await signedInUser();
    await t.deps.db.transaction(async (tx) => {
      const { applyCreditChange } = await import('../credits/credits.usecases.js');
      await applyCreditChange(tx, {
        userId: user.id,
        delta: 10,
        kind: 'adjustment',
        idempotencyKey: `topup-${user.id}`,
      });
    });
    expect(await balanceOf(user.id)).toBe(20); // 10 generations at 2 credits
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => create(headers, { mode: 'simple', prompt: 'a crowd' })),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(10);
    expect(codes.filter((c) => c === 402)).toHaveLength(40);
    expect(await balanceOf(user.id)).toBe(0);
    expect(await ledgerSum(user.id)).toBe(0);
    expect(await reconcileCreditBalances(t.deps)).toBe(0);
  });
});

describe('a resent request (Idempotency-Key)', () => {
  it('the same key again returns the first generation, charged once, even racing itself', async () => {
    const { user, headers } = await signedInUser();
    const key = { ...headers, 'idempotency-key': 'c6f1d0c2-5b8e-4e43-9f5a-2f6f1b0f9a11' };
    const first = await create(key, { mode: 'simple', prompt: 'a cat' });
    expect(first.statusCode).toBe(201);
    const again = await Promise.all([1, 2, 3].map(() => create(key, { mode: 'simple', prompt: 'a cat' })));
    for (const answer of again) {
      expect(answer.statusCode).toBe(201);
      expect(answer.json().uuid).toBe(first.json().uuid);
    }
    expect(await balanceOf(user.id)).toBe(8);
    // Another key, or none, is another generation.
    const other = await create(
      { ...headers, 'idempotency-key': 'another-key-0001' },
      { mode: 'simple', prompt: 'a cat' },
    );
    const plain = await create(headers, { mode: 'simple', prompt: 'a cat' });
    expect(new Set([first.json().uuid, other.json().uuid, plain.json().uuid]).size).toBe(3);
    expect(await balanceOf(user.id)).toBe(4);
    expect(await ledgerSum(user.id)).toBe(4);
  });

  it('keys are per person', async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const shared = 'shared-key-123456';
    const mine = (
      await create({ ...a.headers, 'idempotency-key': shared }, { mode: 'simple', prompt: 'a cat' })
    ).json();
    const theirs = (
      await create({ ...b.headers, 'idempotency-key': shared }, { mode: 'simple', prompt: 'a dog' })
    ).json();
    expect(theirs.uuid).not.toBe(mine.uuid);
    expect(theirs.prompt).toBe('a dog');
  });

  it.each(['short', 'has spaces in it', 'x'.repeat(129), 'key/with/slashes', ''])(
    'refuses the malformed key %j with 400 and charges nothing',
    async (badKey) => {
      const { user, headers } = await signedInUser();
      const answer = await create(
        { ...headers, 'idempotency-key': badKey },
        { mode: 'simple', prompt: 'a cat' },
      );
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({
        detail: expect.stringContaining('Idempotency-Key'),
        code: 'generations.idempotency_key_invalid',
      });
      expect(await balanceOf(user.id)).toBe(10);
    },
  );

  it('refuses the same key with other inputs (422), charging nothing more, also when racing', async () => {
    const { user, headers } = await signedInUser();
    const key = { ...headers, 'idempotency-key': 'reused-key-0000001' };
    const first = await create(key, { mode: 'simple', prompt: 'a cat' });
    expect(first.statusCode).toBe(201);
    const others = await Promise.all([
      create(key, { mode: 'simple', prompt: 'a dog' }),
      create(key, { mode: 'simple', prompt: 'a cat', seed: 5 }),
      create(key, { mode: 'simple', prompt: 'a cat', guidance: 3 }),
    ]);
    for (const answer of others) {
      expect(answer.statusCode).toBe(422);
      expect(answer.json()).toEqual({
        detail: expect.stringContaining('Idempotency-Key'),
        code: 'generations.idempotency_key_reused',
      });
    }
    // The same inputs again, spelled differently (prompt spacing, defaults written out), are a resend.
    const resend = await create(key, { prompt: '  a cat ', mode: 'simple', images: [] });
    expect(resend.statusCode).toBe(201);
    expect(resend.json().uuid).toBe(first.json().uuid);
    expect(await balanceOf(user.id)).toBe(8);
    expect(await ledgerSum(user.id)).toBe(8);
  });

  it('refuses a key of a create sent again on a repeat', async () => {
    const { headers } = await signedInUser();
    const key = { ...headers, 'idempotency-key': 'create-then-repeat-1' };
    const made = (await create(key, { mode: 'simple', prompt: 'a cat' })).json();
    const repeat = await t.app.inject({
      method: 'POST',
      url: `/api/generations/${made.uuid}/repeat/`,
      headers: key,
    });
    expect(repeat.statusCode).toBe(422);
    expect(repeat.json().code).toBe('generations.idempotency_key_reused');
  });

  it('repeat honours the key too', async () => {
    const { user, headers } = await signedInUser();
    const source = (await create(headers, { mode: 'simple', prompt: 'a cat' })).json();
    const key = { ...headers, 'idempotency-key': 'repeat-key-000001' };
    const repeat = () =>
      t.app.inject({ method: 'POST', url: `/api/generations/${source.uuid}/repeat/`, headers: key });
    const [x, y] = [await repeat(), await repeat()];
    expect(x.statusCode).toBe(201);
    expect(y.json().uuid).toBe(x.json().uuid);
    expect(await balanceOf(user.id)).toBe(6);
  });
});

describe('repeat', () => {
  it('makes a new variation: a seed drawn at random is drawn again, the request stays the same', async () => {
    const { headers } = await signedInUser();
    const first = (await create(headers, { mode: 'simple', prompt: 'a windmill', guidance: 9 })).json();
    const seeds = new Set<number>([first.seed]);
    let source = first;
    for (let i = 0; i < 3; i++) {
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/generations/${source.uuid}/repeat/`,
        headers,
      });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json()).toMatchObject({ prompt: 'a windmill', guidance: 9, mode: 'simple' });
      seeds.add(again.json().seed);
      // A repeat of a repeat is a variation too: the seed drawn for it was not chosen either.
      source = again.json();
    }
    // Four draws from 2^31 seeds: equal ones would mean the seed was copied.
    expect(seeds.size).toBe(4);
  });

  it('keeps a seed the person chose in the advanced settings, charged anew', async () => {
    const { user, headers } = await signedInUser();
    const first = (
      await create(headers, { mode: 'simple', prompt: 'a windmill', seed: 7, guidance: 9 })
    ).json();
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/generations/${first.uuid}/repeat/`,
      headers,
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ prompt: 'a windmill', seed: 7, guidance: 9, mode: 'simple' });
    expect(again.json().uuid).not.toBe(first.uuid);
    expect(await balanceOf(user.id)).toBe(6);
  });
});
