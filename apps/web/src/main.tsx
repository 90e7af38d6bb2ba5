import { createRoot } from 'react-dom/client';
import { AppRoot, renderOverPrerendered, whenRouterReady } from './app/app-root';
import { boot } from './app/boot';
import { findRouteMeta } from './app/route-access';
import { createAppRouter } from './app/router';
import { prefetchPageData, preloadPage, routeTable } from './app/route-table';
import { catchUncaughtErrors, startErrorReporting } from './lib/error-reporting';
import { loadUser } from './lib/session';
import { bindTelegramBackButton } from './lib/telegram';
import './theme/tokens.css';
import './theme/telegram.css';
import './theme/global.css';

async function main() {
  catchUncaughtErrors();
  // The first page's files download while the app boots, not after its first render.
  preloadPage(window.location.pathname);
  const booted = await boot();
  if (!booted) return;
  prefetchPageData(window.location.pathname, window.location.search);
  const router = createAppRouter();
  bindTelegramBackButton(router);
  // Soft pages open at once; the session is checked in the background.
  void loadUser();
  await whenRouterReady(router);
  // The app starts from the head (index.html), possibly before the body has been read.
  if (document.readyState === 'loading') {
    await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  }
  const root = document.getElementById('root')!;
  const app = <AppRoot router={router} i18n={booted.i18n} />;
  const prerendered = root.hasAttribute('data-prerendered');
  // Someone may have scrolled the prerendered page already; the router's first render resets it.
  const scrolledBeforeApp = window.scrollY;
  if (prerendered) renderOverPrerendered(app, root);
  else createRoot(root).render(app);
  // Ready once the first render's effects have run (they run after the paint; the router's
  // blockers and scroll restoration are effects): a prerendered page then hands over what the
  // visitor did before the app ran (index.html).
  afterFirstEffects(() => {
    if (prerendered && scrolledBeforeApp) window.scrollTo(0, scrolledBeforeApp);
    document.documentElement.classList.add('is-ready');
    window.dispatchEvent(new Event('app-ready'));
  });
  startErrorReporting((pathname) => findRouteMeta(routeTable, pathname)?.path ?? 'unknown');
}

function afterFirstEffects(ready: () => void) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    ready();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  // A tab in the background has no frames.
  setTimeout(once, 250);
}

void main();
