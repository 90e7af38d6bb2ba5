import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createEngineRegistry } from '../../engines/index.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { creditAccounts, creditEntries } from '../../shared/db/schema.js';
import { applyCreditChange, reconcileCreditBalances } from '../credits/credits.usecases.js';
import { createGeneration } from './generations.usecases.js';
import { generationsRepository } from './generations.repository.js';

const engine = createScriptedEngine('test');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'test',
      PRICE_SIMPLE: '3',
      FREE_DAILY_PHOTOS: '1000',
      GENERATION_MAX_ATTEMPTS: '4',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
    },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
});
afterAll(() => t.close());

async function userWithCredits(credits: number) {
  const user = await createActiveUser(t);
  if (credits > 0) {
    await t.deps.db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: user.id,
        delta: credits,
        kind: 'adjustment',
        idempotencyKey: `accept-test-${user.id}`,
      }),
    );
  }
  return user;
}

const balanceOf = async (userId: number) =>
  (await t.deps.db.select().from(creditAccounts).where(eq(creditAccounts.userId, userId)))[0]?.balance ?? 0;

describe('accepting a generation', () => {
  it('answers with the row as stored, writes its charge and its job, in one database statement', async () => {
    const user = await userWithCredits(10);
    // Prices are read once per process and kept while its LISTEN connection is up.
    await t.deps.pricing.current();
    const accept = vi.spyOn(generationsRepository, 'accept');
    const query = vi.spyOn(t.deps.database.pool, 'query');
    const made = await createGeneration(
      t.deps,
      user,
      { mode: 'simple', prompt: 'a lighthouse', guidance: 7.5, images: [], seed: 1234 },
      { timezoneOffsetMinutes: 0 },
    );
    // Validation of a plain prompt reads nothing; accepting is one statement (no BEGIN/COMMIT).
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    const returned = await accept.mock.results[0]!.value;
    accept.mockRestore();

    const stored = (await generationsRepository.findByUuidForUser(t.deps.db, made.uuid, user.id))!;
    expect(made).toMatchObject({ uuid: stored.uuid, status: stored.status, cost: 3, seed: 1234 });
    // The row the function returns maps to the same values as the query builder's read.
    expect(returned).toEqual(stored);
    expect(stored.createdAt).toBeInstanceOf(Date);
    expect(stored.inputUploads).toEqual([]);

    const [entry] = await t.deps.db
      .select()
      .from(creditEntries)
      .where(eq(creditEntries.idempotencyKey, `gen:${made.uuid}:charge`));
    expect(entry).toMatchObject({
      userId: user.id,
      delta: -3,
      kind: 'generation_charge',
      ref: made.uuid,
      balanceAfter: 7,
    });
    expect(await balanceOf(user.id)).toBe(7);

    const jobs = await t.deps.db.execute<{
      task_identifier: string;
      payload: { generationId: number };
      key: string;
      max_attempts: number;
      priority: number;
    }>(
      sql`SELECT task.identifier AS task_identifier, job.payload, job.key, job.max_attempts, job.priority
          FROM graphile_worker._private_jobs job
          JOIN graphile_worker._private_tasks task ON task.id = job.task_id
          WHERE job.key = ${`generation:${stored.id}`}`,
    );
    expect(jobs.rows).toEqual([
      {
        task_identifier: 'generations:run',
        payload: { generationId: stored.id },
        key: `generation:${stored.id}`,
        max_attempts: 4,
        priority: 0,
      },
    ]);
  });

  it('two accepts racing for the last credits: exactly one is made, the other is refused as before', async () => {
    const user = await userWithCredits(3);
    const { access } = await login(t, user.email!, user.password);
    const create = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/generations/',
        headers: bearer(access),
        payload: { mode: 'simple', prompt: 'the last one' },
      });
    const answers = await Promise.all([create(), create()]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, 402]);
    const refused = answers.find((a) => a.statusCode === 402)!.json();
    expect(refused).toMatchObject({
      code: 'credits.insufficient',
      detail: "You don't have enough 3 credits for generation.",
      required: 3,
      balance: 0,
      difference: 3,
    });
    expect(await balanceOf(user.id)).toBe(0);
    const made = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM generations WHERE user_id = ${user.id}`,
    );
    expect(made.rows[0]!.n).toBe(1);
    expect(await reconcileCreditBalances(t.deps)).toBe(0);
  });

  it('a refusal writes nothing: no row, no entry, no job, not even the account row', async () => {
    const user = await userWithCredits(0);
    const { access } = await login(t, user.email!, user.password);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: bearer(access),
      payload: { mode: 'simple', prompt: 'nothing to pay with' },
    });
    expect(answer.statusCode).toBe(402);
    expect(answer.json()).toMatchObject({ required: 3, balance: 0, difference: 3 });
    const counts = await t.deps.db.execute<{ generations: number; entries: number; accounts: number }>(
      sql`SELECT (SELECT count(*)::int FROM generations WHERE user_id = ${user.id}) AS generations,
                 (SELECT count(*)::int FROM credit_entries WHERE user_id = ${user.id}) AS entries,
                 (SELECT count(*)::int FROM credit_accounts WHERE user_id = ${user.id}) AS accounts`,
    );
    expect(counts.rows[0]).toEqual({ generations: 0, entries: 0, accounts: 0 });
  });
});
