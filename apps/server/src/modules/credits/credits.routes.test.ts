import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditAccounts, creditAuditFindings, entitlements } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login, uniqueEmail } from '../../test/factories.js';
import { buyAndPayWithTestProvider } from '../../test/payments.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyCreditChange, reconcileCreditBalances } from './credits.usecases.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { WELCOME_CREDITS: '7' } });
});
afterAll(() => t.close());

describe('credits', () => {
  it('shows when a bought unlimited package ends beside the balance, and nothing once it has ended', async () => {
    const user = await createActiveUser(t);
    const { access } = await login(t, user.email!, user.password);
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/credits/', headers: bearer(access) })).json();
    expect((await read()).unlimited_until).toBeNull();

    const before = Date.now();
    await buyAndPayWithTestProvider(t, bearer(access), 'unlimited_30');
    const until = Date.parse((await read()).unlimited_until);
    const days = (until - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);

    await t.deps.db
      .update(entitlements)
      .set({ until: new Date(Date.now() - 1000) })
      .where(and(eq(entitlements.userId, user.id), eq(entitlements.kind, 'unlimited')));
    expect((await read()).unlimited_until).toBeNull();
  });

  it('gives every new account the welcome grant, once', async () => {
    const email = uniqueEmail();
    const created = (
      await t.app.inject({
        method: 'POST',
        url: '/api/users/',
        payload: { email, password: 'Silver-Coast-81' },
      })
    ).json();
    const [account] = await t.deps.db
      .select()
      .from(creditAccounts)
      .where(eq(creditAccounts.userId, created.id));
    expect(account?.balance).toBe(7);
  });

  it('shows the balance and the history newest first, page by page', async () => {
    const user = await createActiveUser(t);
    for (let i = 1; i <= 5; i++) {
      await t.deps.db.transaction((tx) =>
        applyCreditChange(tx, {
          userId: user.id,
          delta: i,
          kind: 'adjustment',
          idempotencyKey: `h-${user.id}-${i}`,
        }),
      );
    }
    const { access } = await login(t, user.email!, user.password);
    const balance = await t.app.inject({ method: 'GET', url: '/api/credits/', headers: bearer(access) });
    expect(balance.json()).toEqual({ balance: 15, unlimited_until: null });

    const first = (
      await t.app.inject({ method: 'GET', url: '/api/credits/history/?limit=2', headers: bearer(access) })
    ).json();
    expect(first.results.map((e: { delta: number }) => e.delta)).toEqual([5, 4]);
    expect(first.results[0]).toMatchObject({ kind: 'adjustment', balance_after: 15 });
    const second = (
      await t.app.inject({
        method: 'GET',
        url: `/api/credits/history/?limit=2&cursor=${first.next}`,
        headers: bearer(access),
      })
    ).json();
    expect(second.results.map((e: { delta: number }) => e.delta)).toEqual([3, 2]);
    const last = (
      await t.app.inject({
        method: 'GET',
        url: `/api/credits/history/?limit=2&cursor=${second.next}`,
        headers: bearer(access),
      })
    ).json();
    expect(last).toMatchObject({ next: null });
    expect(last.results).toHaveLength(1);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/credits/history/?limit=0', headers: bearer(access) }))
        .statusCode,
    ).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/credits/' })).statusCode).toBe(401);
  });

  it('applies an entry once per idempotency key and never lets the balance go negative', async () => {
    const user = await createActiveUser(t);
    const change = {
      userId: user.id,
      delta: 3,
      kind: 'adjustment' as const,
      idempotencyKey: `once-${user.id}`,
    };
    expect(await t.deps.db.transaction((tx) => applyCreditChange(tx, change))).toEqual({
      applied: true,
      balance: 3,
    });
    expect(await t.deps.db.transaction((tx) => applyCreditChange(tx, change))).toEqual({
      applied: false,
      balance: 3,
    });
    await expect(
      t.deps.db.transaction((tx) =>
        applyCreditChange(tx, {
          userId: user.id,
          delta: -4,
          kind: 'generation_charge',
          idempotencyKey: `spend-${user.id}`,
        }),
      ),
    ).rejects.toMatchObject({
      code: 'credits.insufficient',
      extra: { required: 4, balance: 3, difference: 1 },
    });
    // The database refuses a negative balance even if code tried.
    await expect(
      t.deps.db.update(creditAccounts).set({ balance: -1 }).where(eq(creditAccounts.userId, user.id)),
    ).rejects.toThrow();
  });

  it('reconciliation finds and records a balance that disagrees with its ledger', async () => {
    const user = await createActiveUser(t);
    await t.deps.db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: user.id,
        delta: 5,
        kind: 'adjustment',
        idempotencyKey: `r-${user.id}`,
      }),
    );
    expect(await reconcileCreditBalances(t.deps)).toBe(0);
    await t.deps.db.update(creditAccounts).set({ balance: 50 }).where(eq(creditAccounts.userId, user.id));
    expect(await reconcileCreditBalances(t.deps)).toBe(1);
    const findings = await t.deps.db
      .select()
      .from(creditAuditFindings)
      .where(eq(creditAuditFindings.userId, user.id));
    expect(findings).toEqual([expect.objectContaining({ cachedBalance: 50, ledgerSum: 5 })]);
  });
});
