import type { ComponentType } from 'react';
import { matchPath } from 'react-router';
import { DEFAULT_WALLET_CURRENCY_ID } from '@mirra/contracts';
import { loadExtraCatalogue, prefetchExtraCatalogue, type ExtraCatalogue } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { useSession } from '../lib/session';
import { findRouteMeta, type RouteMeta, type RouteMetaEntry } from './route-access';

type PageModule = { Page: ComponentType };
type PageLoader = () => Promise<PageModule>;

export interface RouteDef extends RouteMetaEntry {
  page?: PageLoader;
  redirect?: string;
  /** Starts fetching what the page shows first, before its code has arrived. */
  prefetch?: (params: Record<string, string | undefined>, search: URLSearchParams) => Promise<unknown>;
}

/** A failed lazy page load tells the app: the error screen then offers a reload. */
export const PRELOAD_ERROR_EVENT = 'preload-error';

/**
 * What a page loader downloads, without running anything: its code and its catalogues' files
 * (English, the fallback every language loads). A plain `import()` is its own download.
 */
const pageFiles = new WeakMap<PageLoader, () => Promise<unknown>>();
const filesOf = (load: PageLoader): (() => Promise<unknown>) => pageFiles.get(load) ?? load;

function lazyPage(load: PageLoader): PageLoader {
  const loader = () =>
    load().catch((error: unknown) => {
      window.dispatchEvent(new CustomEvent(PRELOAD_ERROR_EVENT, { detail: error }));
      throw error;
    });
  pageFiles.set(loader, filesOf(load));
  return loader;
}

/** A page whose texts live in an extra catalogue gets it loaded together with its code. */
function withCatalogue(name: ExtraCatalogue, load: PageLoader): PageLoader {
  const loader = () => Promise.all([load(), loadExtraCatalogue(name)]).then(([module]) => module);
  pageFiles.set(loader, () => Promise.all([filesOf(load)(), prefetchExtraCatalogue(name)]));
  return loader;
}

const page = {
  welcome: lazyPage(() => import('./routes/welcome')),
  home: lazyPage(() => import('./routes/home')),
  create: lazyPage(() => import('./routes/create')),
  generate: lazyPage(withCatalogue('generations', () => import('./routes/generate'))),
  post: lazyPage(
    withCatalogue(
      'social',
      withCatalogue('generations', () => import('./routes/post')),
    ),
  ),
  feed: lazyPage(withCatalogue('social', () => import('./routes/feed'))),
  share: lazyPage(withCatalogue('social', () => import('./routes/share'))),
  verify: lazyPage(() => import('./routes/verify')),
  photoPacks: lazyPage(withCatalogue('generations', () => import('./routes/photo-packs'))),
  photoPack: lazyPage(
    withCatalogue(
      'models',
      withCatalogue('generations', () => import('./routes/photo-pack')),
    ),
  ),
  album: lazyPage(withCatalogue('generations', () => import('./routes/album'))),
  takedown: lazyPage(() => import('./routes/takedown')),
  // The consent page runs the live check, whose texts are the models'.
  consent: lazyPage(withCatalogue('models', () => import('./routes/consent'))),
  // The model screens open the credit balance dialog too (its texts are the generations').
  upload: lazyPage(
    withCatalogue(
      'models',
      withCatalogue('generations', () => import('./routes/upload')),
    ),
  ),
  model: lazyPage(
    withCatalogue(
      'models',
      withCatalogue('generations', () => import('./routes/model')),
    ),
  ),
  generation: lazyPage(
    withCatalogue(
      'generations',
      withCatalogue('social', () => import('./routes/generation')),
    ),
  ),
  notifications: lazyPage(withCatalogue('social', () => import('./routes/notifications'))),
  profile: lazyPage(
    withCatalogue(
      'social',
      withCatalogue('generations', () => import('./routes/profile')),
    ),
  ),
  userProfile: lazyPage(withCatalogue('social', () => import('./routes/user-profile'))),
  profileEdit: lazyPage(() => import('./routes/profile-edit')),
  settings: lazyPage(withCatalogue('account', () => import('./routes/settings'))),
  subscription: lazyPage(withCatalogue('account', () => import('./routes/settings-subscription'))),
  language: lazyPage(() => import('./routes/settings-language')),
  socials: lazyPage(withCatalogue('account', () => import('./routes/settings-socials'))),
  theme: lazyPage(withCatalogue('account', () => import('./routes/settings-theme'))),
  notificationSettings: lazyPage(withCatalogue('account', () => import('./routes/settings-notifications'))),
  mlm: lazyPage(
    withCatalogue(
      'account',
      withCatalogue('partners', () => import('./routes/settings-mlm')),
    ),
  ),
  structure: lazyPage(
    withCatalogue(
      'account',
      withCatalogue('partners', () => import('./routes/structure')),
    ),
  ),
  wallet: lazyPage(
    withCatalogue(
      'account',
      withCatalogue('partners', () => import('./routes/wallet')),
    ),
  ),
  sberpay: lazyPage(withCatalogue('account', () => import('./routes/sberpay'))),
  signIn: lazyPage(() => import('./routes/sign-in')),
  signUp: lazyPage(() => import('./routes/sign-up')),
  lostPass: lazyPage(() => import('./routes/lost-pass')),
  resetPass: lazyPage(() => import('./routes/reset-pass')),
  activate: lazyPage(() => import('./routes/activate')),
  notFound: lazyPage(() => import('./routes/not-found')),
  // Staff only: its code loads when a staff address is opened, never with the first page, and it
  // loads its own texts (features/admin/admin-catalogue.ts), so nothing of it is in this table's chunk.
  admin: lazyPage(() => import('./routes/admin')),
};

/**
 * Every route of the app, in one place: path, access rule, title, bottom menu,
 * kept-alive and compact flags, and the lazily loaded page or a redirect.
 */
export const routeTable: readonly RouteDef[] = [
  // The staff console: one entry, its sections (reports, users/<uuid>, generations) read from the rest.
  { path: '/admin/*', heading: true, access: 'login-required', title: 'titles.admin', page: page.admin },
  { path: '/welcome/', access: 'soft', title: 'titles.welcome', page: page.welcome },
  { path: '/', access: 'soft', title: 'titles.home', bottomMenu: true, page: page.home },
  { path: '/create/', access: 'soft', title: 'titles.create', bottomMenu: true, page: page.create },
  {
    path: '/generate/face_swap/',
    heading: true,
    access: 'soft',
    title: 'titles.generate',
    page: page.generate,
  },
  { path: '/generate/:mode/', heading: true, access: 'soft', title: 'titles.generate', page: page.generate },
  {
    path: '/generate/face_swap/post/:post_uuid/',
    heading: true,
    access: 'login-required',
    title: 'titles.generate',
    page: page.generate,
  },
  {
    path: '/generate/:mode/post/:post_uuid/',
    heading: true,
    access: 'login-required',
    title: 'titles.generate',
    page: page.generate,
  },
  {
    path: '/generate/:mode/generation/:generation_uuid/',
    heading: true,
    access: 'login-required',
    title: 'titles.generate',
    page: page.generate,
  },
  { path: '/post/:uuid/', access: 'login-required', guestView: true, title: 'titles.post', page: page.post },
  { path: '/s/:token/', access: 'open', title: 'titles.post', page: page.share },
  { path: '/verify/', access: 'open', title: 'titles.verify', page: page.verify },
  { path: '/takedown/', access: 'open', title: 'titles.takedown', page: page.takedown },
  { path: '/consent/:token/', access: 'open', title: 'titles.consent', page: page.consent },
  { path: '/posts/', access: 'open', title: 'titles.feed', redirect: '/posts/top/' },
  { path: '/prompts/top/', access: 'open', title: 'titles.feed', redirect: '/posts/top/' },
  {
    path: '/posts/:type/',
    access: 'soft',
    title: 'titles.feed',
    bottomMenu: true,
    page: page.feed,
    prefetch: ({ type }, search) =>
      import('../features/posts/feed-query.lazy').then(({ prefetchFeed }) =>
        prefetchFeed(queryClient, type, search, useSession.getState().isLoggedIn),
      ),
  },
  { path: '/upload/', access: 'login-required', title: 'titles.upload', keepAlive: true, page: page.upload },
  { path: '/model/:uuid/', access: 'login-required', title: 'titles.model', page: page.model },
  { path: '/generation/:uuid/', access: 'login-required', title: 'titles.generation', page: page.generation },
  { path: '/packs/', heading: true, access: 'soft', title: 'titles.photoPacks', page: page.photoPacks },
  { path: '/packs/:uuid/', heading: true, access: 'soft', title: 'titles.photoPacks', page: page.photoPack },
  {
    path: '/albums/:uuid/',
    heading: true,
    access: 'login-required',
    title: 'titles.album',
    page: page.album,
  },
  {
    path: '/notifications',
    heading: true,
    access: 'login-required',
    title: 'titles.notifications',
    page: page.notifications,
  },
  {
    path: '/profile/',
    access: 'login-required',
    title: 'titles.profile',
    bottomMenu: true,
    keepAlive: true,
    page: page.profile,
  },
  { path: '/profile/:uuid/', access: 'login-required', title: 'titles.userProfile', page: page.userProfile },
  {
    path: '/profile-edit/',
    heading: true,
    access: 'login-required',
    title: 'titles.profileEdit',
    page: page.profileEdit,
  },
  {
    path: '/settings/',
    heading: true,
    access: 'login-required',
    title: 'titles.settings',
    page: page.settings,
  },
  {
    path: '/settings/subscription/',
    heading: true,
    access: 'login-required',
    title: 'titles.subscription',
    compact: true,
    page: page.subscription,
  },
  {
    path: '/settings/language/',
    heading: true,
    access: 'login-required',
    title: 'titles.language',
    compact: true,
    page: page.language,
  },
  {
    path: '/settings/socials/',
    heading: true,
    access: 'login-required',
    title: 'titles.socials',
    compact: true,
    page: page.socials,
  },
  {
    path: '/settings/theme/',
    heading: true,
    access: 'login-required',
    title: 'titles.theme',
    compact: true,
    page: page.theme,
  },
  {
    path: '/settings/notifications/',
    heading: true,
    access: 'login-required',
    title: 'titles.notificationSettings',
    compact: true,
    page: page.notificationSettings,
  },
  {
    path: '/settings/mlm/',
    heading: true,
    access: 'login-required',
    title: 'titles.mlm',
    compact: true,
    page: page.mlm,
  },
  { path: '/structure/', access: 'open', title: 'titles.structure', redirect: '/structure/linear/' },
  {
    path: '/structure/:view/',
    heading: true,
    access: 'login-required',
    title: 'titles.structure',
    page: page.structure,
  },
  {
    path: '/wallet',
    access: 'open',
    title: 'titles.wallet',
    redirect: `/wallet/transactions/${DEFAULT_WALLET_CURRENCY_ID}/`,
  },
  {
    path: '/wallet/transactions/:currency/',
    heading: true,
    access: 'login-required',
    title: 'titles.wallet',
    page: page.wallet,
  },
  {
    path: '/wallet/pay-in/',
    heading: true,
    access: 'login-required',
    title: 'titles.payIn',
    page: page.wallet,
  },
  {
    path: '/wallet/pay-out/',
    heading: true,
    access: 'login-required',
    title: 'titles.payOut',
    page: page.wallet,
  },
  { path: '/sberpay/:invoiceId/', access: 'open', title: 'titles.sberpay', page: page.sberpay },
  { path: '/sign-in/', access: 'guest-only', title: 'titles.signIn', page: page.signIn },
  { path: '/sign-up/', access: 'guest-only', title: 'titles.signUp', page: page.signUp },
  { path: '/lost-pass/', access: 'guest-only', title: 'titles.lostPass', page: page.lostPass },
  { path: '/reset-pass/:uid/:token', access: 'open', title: 'titles.resetPass', page: page.resetPass },
  { path: '/activate/:uid/:token', access: 'open', title: 'titles.activate', page: page.activate },
  { path: '*', access: 'open', title: 'titles.notFound', page: page.notFound },
];

/**
 * Starts downloading the files of the page a path shows, so they arrive while the app boots
 * instead of after its first render. Nothing runs: the router loads the page as usual, and a
 * failed download shows there.
 */
export function preloadPage(pathname: string): void {
  const page = findRouteMeta(routeTable, pathname)?.page;
  if (page) filesOf(page)().catch(() => undefined);
}

/**
 * Starts fetching the data the page at an address shows first (after boot: the session and
 * Telegram's sign-in are known), while its code is still on the way. A failure shows when the page
 * asks again.
 */
export function prefetchPageData(pathname: string, search: string): Promise<void> {
  const def = findRouteMeta(routeTable, pathname);
  if (!def?.prefetch) return Promise.resolve();
  const params = matchPath({ path: def.path, end: true }, pathname)?.params ?? {};
  return def.prefetch(params, new URLSearchParams(search)).then(
    () => undefined,
    () => undefined,
  );
}

export function routeMetaFor(pathname: string): RouteMeta {
  return findRouteMeta(routeTable, pathname) ?? { access: 'open', title: 'titles.notFound' };
}
