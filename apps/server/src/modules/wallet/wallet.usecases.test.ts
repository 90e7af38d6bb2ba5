import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  cancelWalletEntry,
  getWalletBalance,
  recordWalletEntry,
  releaseFrozen,
  reserveWalletMoney,
  settleWalletEntry,
  transferWalletMoney,
} from './index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const now = () => t.deps.now();
const balance = (userId: number, currency = 643) => getWalletBalance(t.deps.db, userId, currency, now());
const deposit = (userId: number, amount: number, key: string, extra: { frozenUntil?: Date } = {}) =>
  t.deps.db.transaction((tx) =>
    recordWalletEntry(
      tx,
      { userId, currency: 643, amount, kind: 'adjustment', idempotencyKey: key, ...extra },
      now(),
    ),
  );

describe('wallet ledger (PostgreSQL)', () => {
  it('never overdraws: of ten concurrent spends of 300 from 1000, exactly three succeed', async () => {
    const user = await createActiveUser(t);
    await deposit(user.id, 1000, `dep:${user.id}`);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        t.deps.db.transaction((tx) =>
          recordWalletEntry(
            tx,
            {
              userId: user.id,
              currency: 643,
              amount: -300,
              kind: 'purchase',
              idempotencyKey: `spend:${user.id}:${i}`,
            },
            now(),
          ),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(refused).toHaveLength(7);
    expect(refused.every((r) => (r.reason as { code?: string }).code === 'wallet.insufficient')).toBe(true);
    expect(await balance(user.id)).toMatchObject({ available: 100 });
  });

  it('applies the same key once, even when it arrives five times at once', async () => {
    const user = await createActiveUser(t);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => deposit(user.id, 2500, `bonus:${user.id}`)),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
    expect(await balance(user.id)).toMatchObject({ available: 2500 });
  });

  it('holds frozen money out of reach until its time, then counts it and releases it once', async () => {
    const user = await createActiveUser(t);
    const start = new Date('2031-01-01T00:00:00Z');
    t.setNow(start);
    try {
      await deposit(user.id, 700, `commission:${user.id}`, { frozenUntil: new Date('2031-01-15T00:00:00Z') });
      expect(await balance(user.id)).toMatchObject({ available: 0, frozen: 700 });
      await expect(
        t.deps.db.transaction((tx) =>
          recordWalletEntry(
            tx,
            {
              userId: user.id,
              currency: 643,
              amount: -100,
              kind: 'purchase',
              idempotencyKey: `early:${user.id}`,
            },
            now(),
          ),
        ),
      ).rejects.toMatchObject({ code: 'wallet.insufficient' });
      t.setNow(new Date('2031-01-15T00:00:01Z'));
      expect(await balance(user.id)).toMatchObject({ available: 700, frozen: 0 });
      const released = await releaseFrozen(t.deps);
      expect(released.map((e) => e.idempotencyKey)).toContain(`commission:${user.id}`);
      expect((await releaseFrozen(t.deps)).map((e) => e.idempotencyKey)).not.toContain(
        `commission:${user.id}`,
      );
    } finally {
      t.setNow(undefined);
    }
  });

  it('cancels a commission during its hold, but not once it is spendable', async () => {
    const user = await createActiveUser(t);
    await deposit(user.id, 400, `held:${user.id}`, { frozenUntil: new Date(Date.now() + 86_400_000) });
    await deposit(user.id, 300, `free:${user.id}`);
    const held = await t.deps.db.transaction((tx) => cancelWalletEntry(tx, `held:${user.id}`, now()));
    expect(held).toMatchObject({ applied: true, entry: { status: 'cancelled' } });
    const free = await t.deps.db.transaction((tx) => cancelWalletEntry(tx, `free:${user.id}`, now()));
    expect(free).toMatchObject({ applied: false, entry: { status: 'in' } });
    expect(await balance(user.id)).toMatchObject({ available: 300, frozen: 0 });
  });

  it('reserves a pay-out, then settles it as money out or cancels it back to available', async () => {
    const user = await createActiveUser(t);
    await deposit(user.id, 5000, `earned:${user.id}`);
    const reserve = (key: string, amount: number) =>
      t.deps.db.transaction((tx) =>
        reserveWalletMoney(tx, { userId: user.id, currency: 643, amount, idempotencyKey: key }, now()),
      );
    await reserve(`payout:${user.id}:1`, 3000);
    expect(await balance(user.id)).toMatchObject({ available: 2000, reserved: 3000 });
    await expect(reserve(`payout:${user.id}:2`, 2500)).rejects.toMatchObject({ code: 'wallet.insufficient' });
    const settled = await t.deps.db.transaction((tx) => settleWalletEntry(tx, `payout:${user.id}:1`));
    expect(settled.entry).toMatchObject({ status: 'out', amount: -3000, kind: 'withdrawal' });
    expect(await balance(user.id)).toMatchObject({ available: 2000, reserved: 0 });
    await reserve(`payout:${user.id}:3`, 2000);
    await t.deps.db.transaction((tx) => cancelWalletEntry(tx, `payout:${user.id}:3`, now()));
    expect(await balance(user.id)).toMatchObject({ available: 2000, reserved: 0 });
    // Settling again, or settling what was cancelled, changes nothing.
    expect((await t.deps.db.transaction((tx) => settleWalletEntry(tx, `payout:${user.id}:1`))).applied).toBe(
      false,
    );
    expect(
      (await t.deps.db.transaction((tx) => settleWalletEntry(tx, `payout:${user.id}:3`))).entry.status,
    ).toBe('cancelled');
  });

  it('transfers between two people once, both ways at once without deadlock', async () => {
    const a = await createActiveUser(t);
    const b = await createActiveUser(t);
    await deposit(a.id, 1000, `a:${a.id}`);
    await deposit(b.id, 1000, `b:${b.id}`);
    const move = (from: number, to: number, key: string) =>
      t.deps.db.transaction((tx) =>
        transferWalletMoney(
          tx,
          { fromUserId: from, toUserId: to, currency: 643, amount: 250, idempotencyKey: key },
          now(),
        ),
      );
    await Promise.all([
      move(a.id, b.id, `t1:${a.id}`),
      move(b.id, a.id, `t2:${b.id}`),
      move(a.id, b.id, `t1:${a.id}`),
      move(a.id, b.id, `t3:${a.id}`),
    ]);
    expect(await balance(a.id)).toMatchObject({ available: 750 });
    expect(await balance(b.id)).toMatchObject({ available: 1250 });
  });

  it('lists transactions per currency with the screen filters, and says so when there are none', async () => {
    const user = await createActiveUser(t);
    const { access } = await login(t, user.email!, user.password);
    await deposit(user.id, 900, `adj:${user.id}`);
    await t.deps.db.transaction(async (tx) => {
      await recordWalletEntry(
        tx,
        {
          userId: user.id,
          currency: 643,
          amount: 400,
          kind: 'referral_bonus',
          idempotencyKey: `rb:${user.id}`,
          frozenUntil: new Date(Date.now() + 86_400_000),
        },
        now(),
      );
      await recordWalletEntry(
        tx,
        { userId: user.id, currency: 643, amount: -200, kind: 'purchase', idempotencyKey: `p:${user.id}` },
        now(),
      );
      await recordWalletEntry(
        tx,
        { userId: user.id, currency: 840, amount: 300, kind: 'pay_in', idempotencyKey: `usd:${user.id}` },
        now(),
      );
    });
    const get = async (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(access) });
    const kinds = async (query: string) =>
      ((await get(`/api/wallet/transactions/643/${query}`)).json().results as Array<{ kind: string }>).map(
        (e) => e.kind,
      );
    expect(await kinds('')).toEqual(['purchase', 'referral_bonus', 'adjustment']);
    expect(await kinds('?filter=purchases')).toEqual(['purchase']);
    expect(await kinds('?filter=frozen')).toEqual(['referral_bonus']);
    expect(await kinds('?filter=referral')).toEqual(['referral_bonus']);
    expect(await kinds('?filter=withdrawals')).toEqual([]);
    expect(await kinds('?filter=transfers')).toEqual([]);
    const usd = (await get('/api/wallet/transactions/840/')).json();
    expect(usd.results).toMatchObject([{ kind: 'pay_in', amount: 300, status: 'in', currency: 840 }]);
    expect((await get('/api/wallet/transactions/978/')).statusCode).toBe(400);
    const page1 = (await get('/api/wallet/transactions/643/?limit=2')).json();
    expect(page1.results).toHaveLength(2);
    const page2 = (await get(`/api/wallet/transactions/643/?limit=2&cursor=${page1.next}`)).json();
    expect(page2).toMatchObject({ results: [{ kind: 'adjustment' }], next: null });
    const wallet = (await get('/api/wallet/')).json();
    expect(wallet).toEqual({
      default_currency: 643,
      balances: [
        // Nothing is payable: the commission is still frozen, and a pay-in or a staff adjustment
        // is money for spending, never for paying out.
        { currency: 643, available: 700, frozen: 400, pending: 0, reserved: 0, payable: 0 },
        { currency: 840, available: 300, frozen: 0, pending: 0, reserved: 0, payable: 0 },
      ],
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/wallet/' })).statusCode).toBe(401);
  });
});
