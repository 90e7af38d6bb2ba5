import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerationStatus } from '@mirra/contracts';
import { entitlements } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyCreditChange } from '../credits/credits.usecases.js';
import { createEngineRegistry } from '../../engines/index.js';
import { runGeneration } from './generation-run.usecases.js';
import { generationsRepository } from './generations.repository.js';

let t: TestApp;
const engine = createScriptedEngine('test');
beforeAll(async () => {
  t = await createTestApp({
    env: { ENGINE_SIMPLE: 'test', FREE_DAILY_PHOTOS: '2', FREE_DELAY_SECONDS: '60', PRICE_SIMPLE: '1' },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
});
afterAll(() => t.close());

async function richUser() {
  const user = await createActiveUser(t);
  await t.deps.db.transaction((tx) =>
    applyCreditChange(tx, {
      userId: user.id,
      delta: 100,
      kind: 'adjustment',
      idempotencyKey: `rich-${user.id}`,
    }),
  );
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: bearer(access) };
}

const create = (headers: Record<string, string>, cookie = '') =>
  t.app.inject({
    method: 'POST',
    url: '/api/generations/',
    headers: { ...headers, cookie },
    payload: { mode: 'simple', prompt: 'a tree' },
  });

describe('free tier', () => {
  it('lets the first photos of the day through, then asks to wait between generations', async () => {
    const { headers } = await richUser();
    const start = new Date('2026-06-10T10:00:00Z');
    t.setNow(start);
    try {
      expect((await create(headers)).statusCode).toBe(201);
      expect((await create(headers)).statusCode).toBe(201);
      const third = await create(headers);
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({
        code: 'generations.rate_limited',
        wait_seconds: 60,
        first: 2,
        seconds: 60,
      });
      expect(third.headers['retry-after']).toBe('60');
      const quote = (
        await t.app.inject({ method: 'GET', url: '/api/generations/price/?mode=simple', headers })
      ).json();
      expect(quote).toMatchObject({ cost: 1, wait_seconds: 60 });

      t.setNow(new Date(start.getTime() + 61_000));
      expect((await create(headers)).statusCode).toBe(201);
      expect((await create(headers)).statusCode).toBe(429);
    } finally {
      t.setNow(undefined);
    }
  });

  it('starts afresh at the user’s local midnight (timezone cookie)', async () => {
    const { headers } = await richUser();
    // 20:50 UTC = 23:50 in UTC+3; ten minutes later it is a new day there.
    t.setNow(new Date('2026-06-10T20:50:00Z'));
    try {
      const moscow = 'timezone=-180';
      expect((await create(headers, moscow)).statusCode).toBe(201);
      expect((await create(headers, moscow)).statusCode).toBe(201);
      expect((await create(headers, moscow)).statusCode).toBe(429);
      t.setNow(new Date('2026-06-10T21:00:30Z'));
      expect((await create(headers, moscow)).statusCode).toBe(201);
    } finally {
      t.setNow(undefined);
    }
  });

  it('cannot be reset early by a timezone cookie whose midnight falls after the last generation', async () => {
    const { headers } = await richUser();
    const start = new Date('2026-06-10T15:00:00Z');
    t.setNow(start);
    try {
      expect((await create(headers, 'timezone=0')).statusCode).toBe(201);
      expect((await create(headers, 'timezone=0')).statusCode).toBe(201);
      expect((await create(headers, 'timezone=0')).statusCode).toBe(429);

      // 130 s on: an offset whose local midnight was a minute ago (UTC minute of day − 1441).
      const later = new Date(start.getTime() + 130_000);
      t.setNow(later);
      const minuteOfDay = later.getUTCHours() * 60 + later.getUTCMinutes();
      const shifted = `timezone=${minuteOfDay - 1441}`;
      expect((await create(headers, shifted)).statusCode).toBe(201); // the pause is over
      const next = await create(headers, shifted);
      expect(next.statusCode).toBe(429);
      expect(next.json()).toMatchObject({ code: 'generations.rate_limited', wait_seconds: 60 });
      const quote = await t.app.inject({
        method: 'GET',
        url: '/api/generations/price/?mode=simple',
        headers: { ...headers, cookie: shifted },
      });
      expect(quote.json()).toMatchObject({ wait_seconds: 60 });
    } finally {
      t.setNow(undefined);
    }
  });

  it('after a move west, starts the next day at the new local midnight', async () => {
    const { headers } = await richUser();
    t.setNow(new Date('2026-06-10T12:00:00Z'));
    try {
      expect((await create(headers, 'timezone=0')).statusCode).toBe(201);
      expect((await create(headers, 'timezone=0')).statusCode).toBe(201);
      // UTC−3: the UTC day is over, but it is only 21:30 there; the day goes on.
      t.setNow(new Date('2026-06-11T00:30:00Z'));
      expect((await create(headers, 'timezone=180')).statusCode).toBe(201);
      expect((await create(headers, 'timezone=180')).statusCode).toBe(429);
      // Midnight in UTC−3: a new day with its free photos.
      t.setNow(new Date('2026-06-11T03:00:30Z'));
      expect((await create(headers, 'timezone=180')).statusCode).toBe(201);
      expect((await create(headers, 'timezone=180')).statusCode).toBe(201);
      expect((await create(headers, 'timezone=180')).statusCode).toBe(429);
    } finally {
      t.setNow(undefined);
    }
  });

  it('counts only generations that did not fail: failed and refunded ones leave the allowance', async () => {
    const { user, headers } = await richUser();
    const start = new Date('2026-06-12T10:00:00Z');
    t.setNow(start);
    try {
      // Two that the engine refuses: each ends as ERROR and is refunded.
      engine.script(
        { kind: 'throw', code: 'engine.bad_input', retryable: false },
        { kind: 'throw', code: 'engine.bad_input', retryable: false },
      );
      for (let i = 0; i < 2; i++) {
        const failed = await create(headers);
        expect(failed.statusCode).toBe(201);
        const { id } = (await generationsRepository.findByUuidForUser(
          t.deps.db,
          failed.json().uuid,
          user.id,
        ))!;
        await runGeneration(t.deps, id, { attempt: 1, maxAttempts: 1 });
        const row = await t.app.inject({
          method: 'GET',
          url: `/api/generations/${failed.json().uuid}/`,
          headers,
        });
        expect(row.json()).toMatchObject({ status: GenerationStatus.ERROR, refunded: true });
      }
      // The quote says so too: no wait.
      const quote = await t.app.inject({
        method: 'GET',
        url: '/api/generations/price/?mode=simple',
        headers,
      });
      expect(quote.json().wait_seconds).toBe(0);
      // The day's allowance (2) is still whole, and the pause starts after it.
      expect((await create(headers)).statusCode).toBe(201);
      expect((await create(headers)).statusCode).toBe(201);
      expect((await create(headers)).statusCode).toBe(429);
    } finally {
      engine.script();
      t.setNow(undefined);
    }
  });

  it('does not apply with the unlimited package', async () => {
    const { user, headers } = await richUser();
    await t.deps.db
      .insert(entitlements)
      .values({ userId: user.id, kind: 'unlimited', until: new Date(Date.now() + 86_400_000) });
    for (let i = 0; i < 4; i++) expect((await create(headers)).statusCode).toBe(201);
  });

  it('quotes prices to guests without a balance', async () => {
    const quote = await t.app.inject({ method: 'GET', url: '/api/generations/price/?mode=simple' });
    expect(quote.json()).toEqual({ cost: 1, balance: null, wait_seconds: 0 });
    expect((await t.app.inject({ method: 'GET', url: '/api/generations/price/?mode=warp' })).statusCode).toBe(
      400,
    );
  });
});
