import { adminRoutes, routes, type RouteSpec } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.js';

// An operator points each provider's dashboard at Mirra's webhook paths, so the API document lists
// every one of them (tagged `webhooks`): the paths a provider calls are part of the contract.

const declared: RouteSpec[] = Object.values({ ...routes, admin: adminRoutes }).flatMap((group) =>
  Object.values(group as Record<string, RouteSpec>),
);
const WEBHOOK_PATH = /\/webhooks?\//;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      PAYMENTS_TEST_PROVIDER: 'true',
      FAL_KEY: 'webhooks-doc-test',
      REPLICATE_API_TOKEN: 'webhooks-doc-test',
      REPLICATE_WEBHOOK_SECRET: 'whsec_d2ViaG9va3MtZG9jLXRlc3Q=',
      TELEGRAM_WEBHOOK_SECRET: 'webhooks-doc-test',
    },
  });
});
afterAll(() => t?.close());

describe('webhooks in the OpenAPI document', () => {
  it('lists every webhook path a provider calls, tagged webhooks, and nothing else under that tag', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const webhooks = declared.filter((route) => WEBHOOK_PATH.test(route.path));
    // The providers the README names: YooKassa, Stripe, Cryptomus, fal, Replicate and Telegram.
    for (const provider of ['yookassa', 'stripe', 'cryptomus', 'fal', 'replicate', 'tg']) {
      expect(
        webhooks.some((route) => route.path.includes(`/${provider}/`)),
        provider,
      ).toBe(true);
    }
    for (const route of webhooks) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation!.tags).toContain('webhooks');
    }
    const tagged = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.values(operations).some((operation) => operation.tags?.includes('webhooks')) ? [path] : [],
    );
    expect(tagged.sort()).toEqual(webhooks.map((route) => route.path).sort());
  });
});
