import { describe, expect, it } from 'vitest';
import { routePath, successStatus } from './define-route.js';
import { adminRoutes, routes } from './index.js';

describe('routePath', () => {
  it('fills each path parameter, percent-encoded', () => {
    expect(routePath(routes.models.removePhoto, { uuid: 'm 1', photo_uuid: 'p/2' })).toBe(
      '/api/models/m%201/photos/p%2F2/',
    );
    expect(routePath(routes.posts.list)).toBe('/api/posts/');
  });

  it('refuses to build a path with a parameter missing', () => {
    expect(() => routePath(routes.posts.get, {})).toThrow(/uuid is missing/);
  });
});

describe('successStatus', () => {
  it('is the declared 2xx answer, 200 when none is declared', () => {
    expect(successStatus(routes.posts.create)).toBe(201);
    expect(successStatus(routes.posts.view)).toBe(204);
    expect(successStatus(routes.models.train)).toBe(202);
    expect(successStatus(routes.generations.events)).toBe(200);
  });
});

describe('the route declarations', () => {
  it('are unique by method and path, all under /api/', () => {
    const keys = Object.values({ ...routes, admin: adminRoutes }).flatMap((group) =>
      Object.values(group).map((route) => `${route.method} ${route.path}`),
    );
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.every((key) => key.split(' ')[1]!.startsWith('/api/'))).toBe(true);
  });
});
