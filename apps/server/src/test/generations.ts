import { asc, eq, sql } from 'drizzle-orm';
import { GenerationStatus } from '@mirra/contracts';
import { expect } from 'vitest';
import { grantWelcomeCredits } from '../modules/credits/credits.usecases.js';
import { creditEntries } from '../shared/db/schema.js';
import { bearer, createActiveUser, login } from './factories.js';
import type { TestApp } from './test-app.js';

/**
 * What a test of a generation engine does through the API: a signed-in user with credits, a
 * generation created, the worker run until it has ended, and what the row, the API and the ledger
 * then say. `app` is read at each call, so the helpers can be made before `beforeAll` starts it.
 */
export function generationTestHelpers(app: () => TestApp, options: { credits?: number } = {}) {
  const credits = options.credits ?? 50;

  async function signedInUser() {
    const t = app();
    const user = await createActiveUser(t);
    await grantWelcomeCredits(t.deps.db, user.id, credits);
    const { access } = await login(t, user.email!, user.password);
    return { user, headers: bearer(access) };
  }

  /** Creates a generation (it must be accepted) and gives its uuid. */
  async function create(headers: Record<string, string>, body: object) {
    const response = await app().app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers,
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { uuid: string };
  }

  const rowOf = async (uuid: string) =>
    (await app().deps.db.query.generations.findFirst({ where: (g, { eq: e }) => e(g.uuid, uuid) }))!;

  /** The generation as its owner sees it through the API. */
  const shown = async (uuid: string, headers: Record<string, string>) =>
    (await app().app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers })).json();

  /** The user's generation charges and refunds, oldest first, as their deltas. */
  const entriesOf = async (userId: number) =>
    (
      await app()
        .deps.db.select()
        .from(creditEntries)
        .where(eq(creditEntries.userId, userId))
        .orderBy(asc(creditEntries.id))
    )
      .filter((entry) => entry.kind === 'generation_charge' || entry.kind === 'generation_refund')
      .map((entry) => entry.delta);

  /**
   * Runs jobs until the generation has ended. On a loaded machine an attempt can fail for time and
   * be retried after a backoff; the retry is made due at once instead of waited for.
   */
  async function runJobsUntilEnded(uuid: string): Promise<void> {
    const t = app();
    for (let round = 0; round < 20; round++) {
      await t.runJobs();
      const { status } = await rowOf(uuid);
      if (status === GenerationStatus.COMPLETED || status < 0) return;
      await t.deps.db.execute(
        sql`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE locked_at IS NULL`,
      );
    }
  }

  return { signedInUser, create, rowOf, shown, entriesOf, runJobsUntilEnded };
}
