import { CURRENCY_XTR } from '@mirra/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  notifications,
  partnerCommissions,
  paymentOrders,
  users,
  walletEntries,
} from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { deliverTestPaymentEvent, orderWithTestProvider } from '../../test/payments.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  approvePayout,
  computeTops,
  createPartnerPaymentListener,
  rejectPayout,
  releaseDueCommissions,
} from './index.js';

// The partner programme against PostgreSQL, driven through HTTP: purchases paid and refunded
// through the test provider's signed webhook, commissions in the wallet, pay-outs reserved.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      PARTNER_LEVELS: '10,5,2',
      PARTNER_LEVEL_MIN_PAYING: '0,0,0',
      // These purchases go through the test provider: they earn as real ones would.
      PARTNER_TEST_PAYMENTS_EARN: 'true',
      PARTNER_HOLD_DAYS: '14',
      PAYOUT_MIN_RUB: '10',
      RATE_LIMIT_LOGIN_PER_IP: '10000',
      RATE_LIMIT_LOGIN_PER_EMAIL: '10000',
      // The clock jumps past the hold; sessions must outlive it.
      ACCESS_TOKEN_SECONDS: String(60 * 86_400),
    },
  });
});
afterAll(() => t.close());

const DAY = 86_400_000;
type Person = Awaited<ReturnType<typeof person>>;

async function person(referer?: { referralCode: string }) {
  const user = await createActiveUser(t, { referralCode: referer?.referralCode });
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: { ...bearer(access), 'x-country': 'RU' } };
}

/** A chain A ← B ← C ← D: each joined through the link of the one before. */
async function chain() {
  const a = await person();
  const b = await person(a.user);
  const c = await person(b.user);
  const d = await person(c.user);
  // The new-partner job counts each of them on every level above.
  await t.runJobs();
  return { a, b, c, d };
}

const buy = (who: Person, product = 'credits_100') => orderWithTestProvider(t, who.headers, product);
const deliver = (uuid: string, type: 'payment.succeeded' | 'refund.succeeded') =>
  deliverTestPaymentEvent(t, uuid, type);

const wallet = async (who: Person) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/wallet/', headers: who.headers });
  return response.json().balances.find((b: { currency: number }) => b.currency === 643) as {
    available: number;
    frozen: number;
    reserved: number;
  };
};
const statistics = async (who: Person) =>
  (await t.app.inject({ method: 'GET', url: '/api/partners/statistics/', headers: who.headers })).json();

describe('purchases in Telegram Stars', () => {
  it('pay no commission (the wallet holds no Stars) and do not stop the purchase', async () => {
    t.setNow(undefined);
    const { c, d } = await chain();
    const uuid = await buy(d);
    const row = (await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid)))[0]!;
    const inStars = { ...row, method: 'stars', provider: 'stars', currency: CURRENCY_XTR, amount: 150 };
    await t.deps.db.transaction((tx) =>
      createPartnerPaymentListener(t.deps).onPaid!(tx, { ...inStars, status: 'paid', paidAt: new Date() }),
    );
    expect(await wallet(c)).toMatchObject({ frozen: 0, available: 0 });
    const commissions = await t.deps.db
      .select()
      .from(partnerCommissions)
      .where(eq(partnerCommissions.orderUuid, uuid));
    expect(commissions).toEqual([]);
  });
});

describe('commissions from a three-level chain', () => {
  it('pays 10 / 5 / 2 % frozen for the hold, releases them, and a refund takes them back', async () => {
    t.setNow(undefined);
    const { a, b, c, d } = await chain();
    const uuid = await buy(d);
    const amount = await deliver(uuid, 'payment.succeeded');

    expect(await wallet(c)).toMatchObject({ frozen: Math.floor(amount / 10), available: 0 });
    expect(await wallet(b)).toMatchObject({ frozen: Math.floor(amount / 20), available: 0 });
    expect(await wallet(a)).toMatchObject({ frozen: Math.floor((amount * 2) / 100), available: 0 });
    // The buyer earns nothing from their own purchase.
    expect(await wallet(d)).toMatchObject({ frozen: 0, available: 0 });

    const cStats = await statistics(c);
    expect(cStats).toMatchObject({
      currency: 643,
      referals: 1,
      payedPartners: 1,
      income: Math.floor(amount / 10),
      turnoverAll: amount,
      turnoverMonth: amount,
      firstLineTurnover: amount,
      payouts: 0,
    });
    expect(cStats.months).toHaveLength(12);
    expect(cStats.months.at(-1)).toEqual(
      expect.objectContaining({ income: Math.floor(amount / 10), turnover: amount }),
    );
    // Two levels up, the sale is team turnover but not first-line turnover.
    expect(await statistics(a)).toMatchObject({
      referals: 1,
      payedPartners: 0,
      turnoverAll: amount,
      firstLineTurnover: 0,
      income: Math.floor((amount * 2) / 100),
    });

    // The hold passes: the money is available, and the partner hears of it once.
    t.setNow(new Date(Date.now() + 15 * DAY));
    expect(await releaseDueCommissions(t.deps)).toBeGreaterThanOrEqual(3);
    await releaseDueCommissions(t.deps);
    expect(await wallet(c)).toMatchObject({ frozen: 0, available: Math.floor(amount / 10) });
    const cNotices = await t.deps.db.select().from(notifications).where(eq(notifications.userId, c.user.id));
    expect(cNotices.map((n) => n.kind).sort()).toEqual([
      'commission_available',
      'commission_frozen',
      'partner_joined',
    ]);

    // C pays out part of it; then the purchase is refunded: the rest is taken and a debt remains.
    const payout = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/payouts/',
      headers: c.headers,
      payload: {
        currency: 643,
        amount: 1500,
        method: 'card',
        card: '4111 1111 1111 1111',
        holder: 'Clara Zetkin',
        client_key: 'payout-chain-1',
      },
    });
    expect(payout.statusCode).toBe(201);
    await approvePayout(t.deps, payout.json().uuid);
    expect(await wallet(c)).toMatchObject({ available: Math.floor(amount / 10) - 1500, reserved: 0 });

    await deliver(uuid, 'refund.succeeded');
    await deliver(uuid, 'refund.succeeded');
    expect(await wallet(c)).toMatchObject({ available: -1500, frozen: 0 });
    expect(await wallet(b)).toMatchObject({ available: 0, frozen: 0 });
    const rows = await t.deps.db
      .select()
      .from(partnerCommissions)
      .where(eq(partnerCommissions.orderUuid, uuid));
    expect(rows.map((r) => r.status)).toEqual(['reversed', 'reversed', 'reversed']);
    expect(await statistics(c)).toMatchObject({
      payedPartners: 0,
      income: 0,
      turnoverAll: 0,
      firstLineTurnover: 0,
      payouts: 1500,
    });

    // The debt is settled by the next commission before any of it can be spent.
    t.setNow(undefined);
    const again = await buy(d, 'credits_1000');
    const second = await deliver(again, 'payment.succeeded');
    t.setNow(new Date(Date.now() + 15 * DAY));
    await releaseDueCommissions(t.deps);
    expect(await wallet(c)).toMatchObject({ available: Math.floor(second / 10) - 1500 });
    t.setNow(undefined);
  });

  it('a refund during the hold cancels the frozen commissions', async () => {
    const { b, c, d } = await chain();
    const uuid = await buy(d);
    await deliver(uuid, 'payment.succeeded');
    await deliver(uuid, 'refund.succeeded');
    expect(await wallet(c)).toMatchObject({ frozen: 0, available: 0 });
    expect(await wallet(b)).toMatchObject({ frozen: 0, available: 0 });
    const rows = await t.deps.db
      .select()
      .from(partnerCommissions)
      .where(eq(partnerCommissions.orderUuid, uuid));
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    const entries = await t.deps.db.select().from(walletEntries).where(eq(walletEntries.userId, c.user.id));
    expect(entries.map((e) => [e.kind, e.status])).toEqual([['referral_bonus', 'cancelled']]);
  });

  it('duplicate payment events, delivered at once, pay each commission once', async () => {
    const { c, d } = await chain();
    const uuid = await buy(d);
    await Promise.all(Array.from({ length: 5 }, () => deliver(uuid, 'payment.succeeded')));
    const rows = await t.deps.db
      .select()
      .from(partnerCommissions)
      .where(eq(partnerCommissions.orderUuid, uuid));
    expect(rows).toHaveLength(3);
    const entries = await t.deps.db.select().from(walletEntries).where(eq(walletEntries.userId, c.user.id));
    expect(entries).toHaveLength(1);
    expect((await statistics(c)).turnoverAll).toBe(rows[0]!.baseAmount);
  });

  it('sign-ups and welcome credits earn nothing; a person without a referer earns nobody anything', async () => {
    const { a, b } = await chain();
    expect(await wallet(a)).toMatchObject({ frozen: 0, available: 0 });
    expect(await wallet(b)).toMatchObject({ frozen: 0, available: 0 });
    const loner = await person();
    const uuid = await buy(loner);
    await deliver(uuid, 'payment.succeeded');
    const rows = await t.deps.db
      .select()
      .from(partnerCommissions)
      .where(eq(partnerCommissions.orderUuid, uuid));
    expect(rows).toHaveLength(0);
  });
});

describe('pay-outs', () => {
  async function earner(amount: number) {
    const p = await person();
    await t.deps.db.transaction(async (tx) => {
      const { recordWalletEntry } = await import('../wallet/index.js');
      await recordWalletEntry(
        tx,
        // Earned money (only commission can be paid out).
        {
          userId: p.user.id,
          currency: 643,
          amount,
          kind: 'referral_bonus',
          idempotencyKey: `seed:${p.user.id}`,
        },
        t.deps.now(),
      );
    });
    return p;
  }
  const request = (who: Person, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/wallet/payouts/',
      headers: who.headers,
      payload: {
        currency: 643,
        method: 'card',
        card: '4111111111111111',
        holder: 'Rosa Luxemburg',
        client_key: `k-${Math.random().toString(36).slice(2)}`,
        ...payload,
      },
    });

  it('concurrent requests never reserve more than the available balance', async () => {
    const p = await earner(5000);
    const responses = await Promise.all(Array.from({ length: 6 }, () => request(p, { amount: 2000 })));
    const created = responses.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(2);
    for (const refused of responses.filter((r) => r.statusCode !== 201)) {
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('wallet.insufficient');
    }
    expect(await wallet(p)).toMatchObject({ available: 1000, reserved: 4000 });
  });

  it('checks requisites and the minimum, saves them for next time, and a double submit is one request', async () => {
    const p = await earner(5000);
    const bad = await request(p, { amount: 500, card: '4111 1111 1111 1112', holder: '1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      card: ['Enter a valid card number.'],
      holder: ["Enter the holder's full name."],
      amount: ['The minimum pay-out is 10.00.'],
    });
    const crypto = await request(p, { amount: 1000, method: 'crypto', network: 'TRC20', address: '0xabc' });
    expect(crypto.json()).toMatchObject({ address: ['This is not a TRC20 address.'] });

    const payload = {
      amount: 1200,
      method: 'sbp',
      phone: '8 (912) 345-67-89',
      bank: 'Т-Банк',
      client_key: 'same-key-1',
    };
    const [one, two] = await Promise.all([request(p, payload), request(p, payload)]);
    expect([one.statusCode, two.statusCode].filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/wallet/payouts/', headers: p.headers })
    ).json();
    expect(list.results).toHaveLength(1);
    expect(list.results[0]).toMatchObject({ status: 'pending', amount: 1200, method: 'sbp' });
    expect(list.saved).toEqual({
      method: 'sbp',
      phone: '+79123456789',
      bank: 'Т-Банк',
      holder: 'Rosa Luxemburg',
    });
    expect(list.minimum).toEqual({ '643': 1000, '840': 1000 });
    expect(await wallet(p)).toMatchObject({ available: 3800, reserved: 1200 });
  });

  it('a rejection returns the money; an approved one cannot be rejected', async () => {
    const p = await earner(5000);
    const first = (await request(p, { amount: 3000 })).json();
    await rejectPayout(t.deps, first.uuid, 'Wrong card');
    expect(await wallet(p)).toMatchObject({ available: 5000, reserved: 0 });
    const second = (await request(p, { amount: 3000 })).json();
    await approvePayout(t.deps, second.uuid);
    await approvePayout(t.deps, second.uuid);
    await expect(rejectPayout(t.deps, second.uuid, 'late')).rejects.toMatchObject({
      code: 'partners.payout_decided',
    });
    expect(await wallet(p)).toMatchObject({ available: 2000, reserved: 0 });
    const kinds = (
      await t.deps.db.select().from(notifications).where(eq(notifications.userId, p.user.id))
    ).map((n) => n.kind);
    expect(kinds.sort()).toEqual(['payout_paid', 'payout_rejected']);
  });

  it('moves money to own credits at the rate, and to another user by profile', async () => {
    const p = await earner(5000);
    const friend = await person();
    const credits = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/transfers/credits/',
      headers: p.headers,
      payload: { currency: 643, credits: 25, client_key: 'credits-once-1' },
    });
    expect(credits.json()).toMatchObject({ credits: 25, cost: 2500, balance: 25 });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/transfers/user/',
      headers: p.headers,
      payload: { currency: 643, amount: 2000, to: friend.user.uuid, client_key: 'gift-once-1' },
    });
    expect(sent.statusCode).toBe(200);
    expect(await wallet(p)).toMatchObject({ available: 500 });
    expect(await wallet(friend)).toMatchObject({ available: 2000 });
    const tooMuch = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/transfers/user/',
      headers: p.headers,
      payload: { currency: 643, amount: 600, to: friend.user.uuid, client_key: 'gift-twice-1' },
    });
    expect(tooMuch.json().code).toBe('wallet.insufficient');
  });
});

describe('structure and tops', () => {
  it('lists the team by level with the paid filter and search, and ranks partners', async () => {
    const { a, b, c, d } = await chain();
    await deliver(await buy(c), 'payment.succeeded');
    const team = (await t.app.inject({ method: 'GET', url: '/api/linear/', headers: a.headers })).json();
    expect(
      team.results.map((m: { uuid: string; level: number; paid: boolean }) => [m.uuid, m.level, m.paid]),
    ).toEqual([
      [b.user.uuid, 1, false],
      [c.user.uuid, 2, true],
      [d.user.uuid, 3, false],
    ]);
    const paid = (
      await t.app.inject({ method: 'GET', url: '/api/linear/?paid=true', headers: a.headers })
    ).json();
    expect(paid.results.map((m: { uuid: string }) => m.uuid)).toEqual([c.user.uuid]);
    const unpaid = (
      await t.app.inject({ method: 'GET', url: '/api/linear/?paid=false&level=3', headers: a.headers })
    ).json();
    expect(unpaid.results.map((m: { uuid: string }) => m.uuid)).toEqual([d.user.uuid]);

    const summary = (
      await t.app.inject({ method: 'GET', url: '/api/partners/me/', headers: a.headers })
    ).json();
    expect(summary.levels.map((l: { team: number; team_paid: number }) => [l.team, l.team_paid])).toEqual([
      [1, 0],
      [1, 1],
      [1, 0],
    ]);
    expect(summary.curator).toBeNull();
    const bSummary = (
      await t.app.inject({ method: 'GET', url: '/api/partners/me/', headers: b.headers })
    ).json();
    expect(bSummary.curator).toMatchObject({ uuid: a.user.uuid, contact_url: null });
    await t.app.inject({
      method: 'PUT',
      url: '/api/partners/me/',
      headers: a.headers,
      payload: { show_contact: true },
    });
    const shown = (
      await t.app.inject({ method: 'GET', url: '/api/partners/me/', headers: b.headers })
    ).json();
    expect(shown.curator.contact_url).toBe(`mailto:${a.user.email}`);

    await computeTops(t.deps);
    const tops = (
      await t.app.inject({ method: 'GET', url: '/api/linear/top/?period=all&by=income', headers: b.headers })
    ).json();
    expect(tops.computed_at).not.toBeNull();
    const ranks = tops.results.map((r: { rank: number }) => r.rank);
    expect(ranks).toEqual(ranks.map((_: number, i: number) => i + 1));
    expect(tops.results.find((r: { uuid: string }) => r.uuid === b.user.uuid)).toMatchObject({ is_me: true });
  });
});

describe('team search', () => {
  const named = async (referer: Person | null, first: string, last: string, username: string) => {
    const who = await person(referer?.user);
    await t.deps.db
      .update(users)
      .set({ firstName: first, lastName: last, username })
      .where(eq(users.id, who.user.id));
    return who;
  };
  const search = async (who: Person, query: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/linear/?${new URLSearchParams({ search: query }).toString()}`,
      headers: who.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json().results.map((m: { name: string }) => m.name) as string[];
  };

  it('finds my partners on every level by first, last or full name and username, ignoring case, and nobody else', async () => {
    t.setNow(undefined);
    const stamp = Date.now().toString(36);
    const owner = await named(null, 'Olga', 'Owner', `owner_${stamp}`);
    const anna = await named(owner, 'Anna', 'Berg', `anna_b_${stamp}`);
    const boris = await named(owner, 'Boris', 'Annenkov', `boris_${stamp}`);
    await named(anna, 'Clara', 'Zetkin', `clara_100%_${stamp}`);
    await named(boris, 'Dmitri', 'Volkov', `dima_${stamp}`);
    // Someone else's partner with a matching name stays out of my results.
    const stranger = await named(null, 'Stan', 'Ger', `stranger_${stamp}`);
    await named(stranger, 'Anna', 'Outsider', `anna_out_${stamp}`);
    await t.runJobs();

    expect((await search(owner, 'ANN')).sort()).toEqual(['Anna Berg', 'Boris Annenkov']);
    expect(await search(owner, 'ANNA BERG')).toEqual(['Anna Berg']);
    expect(await search(owner, 'zetk')).toEqual(['Clara Zetkin']);
    expect(await search(owner, `dima_${stamp}`)).toEqual(['Dmitri Volkov']);
    // LIKE's wildcards are plain characters: "%" matches only a username that has one.
    expect(await search(owner, '100%')).toEqual(['Clara Zetkin']);
    expect(await search(owner, '_')).toHaveLength(4);
    expect(await search(owner, 'Outsider')).toEqual([]);
    expect(await search(owner, '  berg  ')).toEqual(['Anna Berg']);

    // Search, level and the paid filter narrow together; turnover is the asked currency's own.
    const amount = await deliver(await buy(anna), 'payment.succeeded');
    const paid = (
      await t.app.inject({ method: 'GET', url: '/api/linear/?search=ann&paid=true', headers: owner.headers })
    ).json();
    expect(paid.results.map((m: { name: string; turnover: number }) => [m.name, m.turnover])).toEqual([
      ['Anna Berg', amount],
    ]);
    const inDollars = (
      await t.app.inject({
        method: 'GET',
        url: '/api/linear/?search=ann&paid=true&currency=840',
        headers: owner.headers,
      })
    ).json();
    expect(inDollars).toMatchObject({ currency: 840, results: [{ name: 'Anna Berg', turnover: 0 }] });
    const levelTwo = (
      await t.app.inject({ method: 'GET', url: '/api/linear/?search=a&level=2', headers: owner.headers })
    ).json();
    expect(levelTwo.results.map((m: { name: string }) => m.name).sort()).toEqual([
      'Clara Zetkin',
      'Dmitri Volkov',
    ]);
  });
});
