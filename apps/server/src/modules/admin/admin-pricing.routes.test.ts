import { GenerationStatus, type TAdminPricing, type TPricingSettings } from '@mirra/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { staffAuditLog } from '../../shared/db/schema.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { balanceOf, signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createEngineRegistry } from '../../engines/index.js';
import { grantStaffRole } from './index.js';

let t: TestApp;
let admin: Person;
const engine = createScriptedEngine('test');

beforeAll(async () => {
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'test',
      PRICE_SIMPLE: '3',
      FREE_DAILY_PHOTOS: '1000',
      GENERATION_MAX_ATTEMPTS: '1',
    },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
});
afterAll(() => t?.close());

const getPricing = async (app: TestApp = t) => {
  const response = await app.app.inject({
    method: 'GET',
    url: '/api/admin/pricing/',
    headers: admin.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as TAdminPricing;
};
const putPricing = (settings: TPricingSettings, reason = 'spring prices', headers = admin.headers) =>
  t.app.inject({ method: 'PUT', url: '/api/admin/pricing/', headers, payload: { ...settings, reason } });
const publicConfig = async (app: TestApp = t) =>
  (await app.app.inject({ method: 'GET', url: '/api/config/' })).json();
const quote = async (person: Person) =>
  (
    await t.app.inject({ method: 'GET', url: '/api/generations/price/?mode=simple', headers: person.headers })
  ).json();

describe('catalogue and prices in the console', () => {
  it('shows the configuration as defaults until an admin changes them', async () => {
    const pricing = await getPricing();
    expect(pricing.version).toBe(0);
    expect(pricing.overridden).toEqual([]);
    expect(pricing.settings).toEqual(pricing.defaults);
    expect(pricing.settings.prices.simple).toBe(3);
    expect(pricing.settings.free_tier.daily_photos).toBe(1000);
    expect(pricing.settings.catalogue.map((p) => p.id)).toContain('credits_100');
    expect(pricing.settings.plan.id).toBe('premium_monthly');
  });

  it('a change applies at once: public config, the price of a generation, the purchase sheet and the plan', async () => {
    const person = await signedInPerson(t, { credits: 50 });
    expect((await quote(person)).cost).toBe(3);
    const before = await getPricing();
    const wanted: TPricingSettings = {
      ...before.settings,
      prices: { ...before.settings.prices, simple: 7 },
      catalogue: before.settings.catalogue.map((p) =>
        p.id === 'credits_100' ? { ...p, prices: { ...p.prices, intl: 349 } } : p,
      ),
      plan: { ...before.settings.plan, prices: { ...before.settings.plan.prices, intl: 1499 } },
    };
    const response = await putPricing(wanted);
    expect(response.statusCode).toBe(200);
    const changed = response.json() as TAdminPricing;
    expect(changed.version).toBe(1);
    expect(changed.overridden.sort()).toEqual(['catalogue', 'plan', 'prices.simple']);
    expect(changed.defaults.prices.simple).toBe(3);

    expect((await publicConfig()).prices.simple).toBe(7);
    expect((await quote(person)).cost).toBe(7);
    const catalogue = (
      await t.app.inject({ method: 'GET', url: '/api/payments/catalogue/', headers: person.headers })
    ).json();
    expect(catalogue.region).toBe('intl');
    expect(catalogue.products.find((p: { id: string }) => p.id === 'credits_100').amount).toBe(349);
    const premium = (
      await t.app.inject({ method: 'GET', url: '/api/subscriptions/me/', headers: person.headers })
    ).json();
    expect(premium.plan.amount).toBe(1499);

    // Set back to the default, a value follows the configuration again.
    const reset = await putPricing({ ...wanted, prices: before.settings.prices }, 'back to normal');
    expect((reset.json() as TAdminPricing).overridden.sort()).toEqual(['catalogue', 'plan']);
    expect((await quote(person)).cost).toBe(3);
  });

  it('writes every change to the audit log with the values before and after', async () => {
    const before = await getPricing();
    const response = await putPricing(
      { ...before.settings, free_tier: { daily_photos: 1000, delay_seconds: 45 } },
      'slower free tier',
    );
    expect(response.statusCode).toBe(200);
    const [entry] = await t.deps.db
      .select()
      .from(staffAuditLog)
      .where(and(eq(staffAuditLog.action, 'pricing.change'), eq(staffAuditLog.reason, 'slower free tier')));
    expect(entry).toMatchObject({ staffUserId: admin.user.id, targetKind: 'pricing', targetId: 'catalogue' });
    const beforeValue = entry!.before as { version: number; settings: TPricingSettings };
    const afterValue = entry!.after as { version: number; settings: TPricingSettings; overridden: string[] };
    expect(beforeValue.version).toBe(before.version);
    expect(beforeValue.settings.free_tier.delay_seconds).toBe(before.settings.free_tier.delay_seconds);
    expect(afterValue.version).toBe(before.version + 1);
    expect(afterValue.settings.free_tier.delay_seconds).toBe(45);
    expect(afterValue.overridden).toContain('free_tier.delay_seconds');
    // The staff log shows it too.
    const log = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit/?action=pricing.',
      headers: admin.headers,
    });
    expect(log.json().results[0]).toMatchObject({ action: 'pricing.change', reason: 'slower free tier' });
  });

  it('refuses values outside the rules with field errors, and keeps what was in force', async () => {
    const before = await getPricing();
    const cases: Array<[string, TPricingSettings | Record<string, unknown>]> = [
      ['prices', { ...before.settings, prices: { ...before.settings.prices, simple: -1 } }],
      ['prices', { ...before.settings, prices: { ...before.settings.prices, editing: 2.5 } }],
      ['free_tier', { ...before.settings, free_tier: { daily_photos: 5, delay_seconds: 999_999 } }],
      ['catalogue', { ...before.settings, catalogue: [] }],
      [
        'catalogue',
        { ...before.settings, catalogue: [before.settings.catalogue[0], before.settings.catalogue[0]] },
      ],
      [
        'catalogue',
        {
          ...before.settings,
          catalogue: [{ ...before.settings.catalogue[0], prices: { ru: 0, intl: 100 } }],
        },
      ],
      ['plan', { ...before.settings, plan: { ...before.settings.plan, period_days: 0 } }],
    ];
    for (const [field, body] of cases) {
      const response = await putPricing(body as TPricingSettings);
      expect(response.statusCode, JSON.stringify(body[field as keyof typeof body])).toBe(400);
      expect(response.json().code).toBe('common.validation');
      expect(Object.keys(response.json())).toContain(field);
    }
    const noReason = await putPricing(before.settings, '  ');
    expect(Object.keys(noReason.json())).toContain('reason');
    expect((await getPricing()).version).toBe(before.version);
  });

  it('a generation accepted at the old price is charged and refunded that price', async () => {
    const before = await getPricing();
    const set = (simple: number) =>
      putPricing({ ...before.settings, prices: { ...before.settings.prices, simple } }, `simple ${simple}`);
    expect((await set(4)).statusCode).toBe(200);
    const person = await signedInPerson(t, { credits: 20 });
    engine.script({ kind: 'throw', code: 'engine.failed', retryable: false });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: person.headers,
      payload: { mode: 'simple', prompt: 'a tree' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().cost).toBe(4);
    expect(await balanceOf(t, person.user.id)).toBe(16);

    expect((await set(9)).statusCode).toBe(200);
    await t.runJobs();
    const finished = await t.app.inject({
      method: 'GET',
      url: `/api/generations/${created.json().uuid}/`,
      headers: person.headers,
    });
    expect(finished.json()).toMatchObject({ status: GenerationStatus.ERROR, cost: 4 });
    expect(await balanceOf(t, person.user.id)).toBe(20);
  });

  it('another API process on the same database sees a change without a restart', async () => {
    const other = await createTestApp({ shareDatabaseWith: t, env: { PRICE_SIMPLE: '3' } });
    try {
      const before = await getPricing();
      // The other process has read (and keeps) the values in force.
      expect((await publicConfig(other)).prices.editing).toBe(before.settings.prices.editing);
      await vi.waitFor(() => expect(other.deps.notifications?.isListening()).toBe(true));
      expect((await publicConfig(other)).prices.editing).toBe(before.settings.prices.editing);

      const response = await putPricing({
        ...before.settings,
        prices: { ...before.settings.prices, editing: 11 },
      });
      expect(response.statusCode).toBe(200);
      // Told by NOTIFY, it reads the new value on its next request (the copy would live 30 s).
      await vi.waitFor(async () => expect((await publicConfig(other)).prices.editing).toBe(11), {
        timeout: 10_000,
      });
    } finally {
      await other.close();
    }
  });
});
