import { describe, expect, it } from 'vitest';
import { decideAccess, findRouteMeta } from './route-access';
import { routeMetaFor, routeTable } from './route-table';

describe('access decisions', () => {
  it.each([
    ['login-required', false, 'sign-in'],
    ['login-required', true, 'allow'],
    ['guest-only', true, 'home'],
    ['guest-only', false, 'allow'],
    ['soft', false, 'allow'],
    ['soft', true, 'allow'],
    ['open', false, 'allow'],
    ['open', true, 'allow'],
  ] as const)('%s with logged in = %s → %s', (rule, loggedIn, decision) => {
    expect(decideAccess(rule, loggedIn)).toBe(decision);
  });
});

describe('the route table', () => {
  it.each([
    ['/welcome/', 'soft'],
    ['/', 'soft'],
    ['/create/', 'soft'],
    ['/generate/face_swap/', 'soft'],
    ['/generate/simple/', 'soft'],
    ['/generate/face_swap/post/0b6f/', 'login-required'],
    ['/generate/styling/post/0b6f/', 'login-required'],
    ['/generate/video/generation/1a2b/', 'login-required'],
    ['/post/1a2b/', 'login-required'],
    ['/posts/top/', 'soft'],
    ['/upload/', 'login-required'],
    ['/model/1a2b/', 'login-required'],
    ['/generation/1a2b/', 'login-required'],
    ['/notifications', 'login-required'],
    ['/profile/', 'login-required'],
    ['/profile/1a2b/', 'login-required'],
    ['/profile-edit/', 'login-required'],
    ['/settings/', 'login-required'],
    ['/settings/subscription/', 'login-required'],
    ['/settings/language/', 'login-required'],
    ['/settings/socials/', 'login-required'],
    ['/settings/theme/', 'login-required'],
    ['/settings/mlm/', 'login-required'],
    ['/settings/notifications/', 'login-required'],
    ['/structure/linear/', 'login-required'],
    ['/structure/tops/', 'login-required'],
    ['/wallet/transactions/643/', 'login-required'],
    ['/wallet/pay-in/', 'login-required'],
    ['/wallet/pay-out/', 'login-required'],
    ['/sberpay/inv-1/', 'open'],
    ['/sign-in/', 'guest-only'],
    ['/sign-up/', 'guest-only'],
    ['/lost-pass/', 'guest-only'],
    ['/reset-pass/MQ/abc-123', 'open'],
    ['/activate/MQ/abc-123', 'open'],
    ['/no/such/page/', 'open'],
  ])('%s is %s', (path, access) => {
    expect(routeMetaFor(path).access).toBe(access);
  });

  it.each([
    ['/posts/', '/posts/top/'],
    ['/prompts/top/', '/posts/top/'],
    ['/structure/', '/structure/linear/'],
    ['/wallet', '/wallet/transactions/643/'],
  ])('%s redirects to %s', (path, target) => {
    expect(findRouteMeta(routeTable, path)?.redirect).toBe(target);
  });

  it('keeps /upload/ and /profile/ alive, and only them', () => {
    expect(routeTable.filter((r) => r.keepAlive).map((r) => r.path)).toEqual(['/upload/', '/profile/']);
  });

  it('shows the bottom menu on home, create, the feed and my profile only', () => {
    expect(routeTable.filter((r) => r.bottomMenu).map((r) => r.path)).toEqual([
      '/',
      '/create/',
      '/posts/:type/',
      '/profile/',
    ]);
    expect(routeMetaFor('/profile/1a2b/').bottomMenu).toBeFalsy();
  });

  it('makes the settings sub-pages compact', () => {
    expect(routeTable.filter((r) => r.compact).map((r) => r.path)).toEqual([
      '/settings/subscription/',
      '/settings/language/',
      '/settings/socials/',
      '/settings/theme/',
      '/settings/notifications/',
      '/settings/mlm/',
    ]);
  });

  it('gives every route a title key and a page or a redirect', () => {
    for (const route of routeTable) {
      expect(route.title).toMatch(/^titles\./);
      expect(Boolean(route.page) !== Boolean(route.redirect)).toBe(true);
    }
  });

  it('prefers literal segments over parameters, like the router', () => {
    expect(findRouteMeta(routeTable, '/generate/face_swap/post/x/')?.path).toBe(
      '/generate/face_swap/post/:post_uuid/',
    );
    expect(findRouteMeta(routeTable, '/profile/')?.path).toBe('/profile/');
  });
});
