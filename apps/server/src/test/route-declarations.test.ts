import { adminRoutes, routes, type RouteSpec } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTableOf } from '../shared/http/route-table.js';
import { schemaNamed } from '../shared/http/serve-route.js';
import { createTestApp, type TestApp } from './test-app.js';

// Every endpoint under /api/ is declared once in @mirra/contracts and registered from that
// declaration (serve()). This reads the route table of an app with every optional route switched
// on, so a route registered by hand, or a declaration nothing serves, fails here.

/** Served by the OpenAPI plugin itself, not by a feature. */
const DOCS_PREFIX = '/api/docs';

const declarations: Array<[string, RouteSpec]> = Object.entries({ ...routes, admin: adminRoutes }).flatMap(
  ([feature, group]) =>
    Object.entries(group as Record<string, RouteSpec>).map(([name, route]): [string, RouteSpec] => [
      `routes.${feature}.${name}`,
      route,
    ]),
);
const keyOf = (method: string, path: string) => `${method} ${path}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      DEV_TELEGRAM_MOCK: 'true',
      PAYMENTS_TEST_PROVIDER: 'true',
      FAL_KEY: 'route-table-test',
      REPLICATE_API_TOKEN: 'route-table-test',
      REPLICATE_WEBHOOK_SECRET: 'whsec_cm91dGUtdGFibGUtdGVzdA==',
      TELEGRAM_WEBHOOK_SECRET: 'route-table-test',
    },
  });
});
afterAll(() => t?.close());

describe('route declarations', () => {
  it('every /api/ route the server registers comes from a declaration in @mirra/contracts', () => {
    const apiRoutes = routeTableOf(t.app).filter(
      (route) =>
        route.url.startsWith('/api/') &&
        !route.url.startsWith(DOCS_PREFIX) &&
        // Fastify's automatic HEAD twin of a GET.
        route.method !== 'HEAD',
    );
    expect(apiRoutes.length).toBeGreaterThan(50);
    const undeclared = apiRoutes
      .filter((route) => !route.declaration)
      .map((route) => keyOf(route.method, route.url));
    expect(
      undeclared,
      'declare these in packages/contracts/src/routes and register them with serve()',
    ).toEqual([]);
    const mismatched = apiRoutes
      .filter((route) => route.declaration)
      .filter(
        (route) =>
          keyOf(route.method, route.url) !== keyOf(route.declaration!.method, route.declaration!.path),
      )
      .map((route) => keyOf(route.method, route.url));
    expect(mismatched).toEqual([]);
  });

  it('every declaration is served, once', () => {
    const served = routeTableOf(t.app).map((route) => keyOf(route.method, route.url));
    const unserved = declarations
      .filter(([, route]) => !served.includes(keyOf(route.method, route.path)))
      .map(([name]) => name);
    expect(unserved, 'declared but not registered').toEqual([]);
    const keys = declarations.map(([, route]) => keyOf(route.method, route.path));
    expect(
      keys.filter((key, index) => keys.indexOf(key) !== index),
      'declared twice',
    ).toEqual([]);
    expect(
      served.filter((key, index) => served.indexOf(key) !== index),
      'registered twice',
    ).toEqual([]);
  });

  it('names only schemas the contracts export', () => {
    for (const [name, route] of declarations) {
      const names = [route.params, route.query, route.body, ...Object.values(route.response ?? {})];
      for (const schema of names.filter((value) => value !== undefined)) {
        expect(() => schemaNamed(schema), `${name}: ${schema}`).not.toThrow();
      }
    }
  });

  it('publishes each declared error code in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
    };
    const train = doc.paths['/api/models/{uuid}/train/']!.post!.responses;
    expect(train['402']?.description).toContain('`credits.insufficient`');
    expect(train['409']?.description).toContain('`models.already_trained`');
    expect(train['401']?.description).toContain('`auth.not_authenticated`');
    expect(doc.paths['/api/generations/{uuid}/events/']!.get!.responses['200']).toMatchObject({
      content: { 'text/event-stream': {} },
    });
  });
});
