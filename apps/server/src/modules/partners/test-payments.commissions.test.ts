import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerCommissions } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { buyAndPayWithTestProvider } from '../../test/payments.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// The `test` provider's checkout moves no money: its payments grant what was bought but pay no
// partner anything, which could otherwise be paid out for real.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      PARTNER_LEVELS: '10,5,2',
      PARTNER_LEVEL_MIN_PAYING: '0,0,0',
    },
  });
});
afterAll(() => t.close());

async function person(referer?: { referralCode: string }) {
  const user = await createActiveUser(t, { referralCode: referer?.referralCode });
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: { ...bearer(access), 'x-country': 'RU' } };
}

const get = async (url: string, headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url, headers })).json();

describe('payments through the test provider', () => {
  it('grant the purchase but pay no partner commission: no money moved', async () => {
    const partner = await person();
    const buyer = await person(partner.user);
    await t.runJobs();
    const { uuid } = await buyAndPayWithTestProvider(t, buyer.headers);

    expect((await get('/api/credits/', buyer.headers)).balance).toBe(100);
    const commissions = await t.deps.db
      .select()
      .from(partnerCommissions)
      .where(eq(partnerCommissions.orderUuid, uuid));
    expect(commissions).toEqual([]);
    const wallet = (await get('/api/wallet/', partner.headers)).balances as Array<{
      available: number;
      frozen: number;
    }>;
    expect(wallet.every((b) => b.available === 0 && b.frozen === 0)).toBe(true);
    expect(await get('/api/partners/statistics/', partner.headers)).toMatchObject({ income: 0 });
  });
});
