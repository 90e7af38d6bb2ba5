import { createRoot } from 'react-dom/client';
import { AppRoot, renderOverPrerendered, whenRouterReady } from './app/app-root';
import { boot } from './app/boot';
import { findRouteMeta } from './app/route-access';
import { createAppRouter } from './app/router';
import { prefetchPageData, preloadPage, routeTable } from './app/route-table';
import { fetchPublicConfig } from './features/auth';
import { answerFromPage } from './lib/api-client';
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
  // A server-rendered page (the feed) carries the answers of its first requests.
  const answers = document.documentElement.hasAttribute('data-prerendered') ? pageAnswers() : null;
  if (answers) answerFromPage(answers);
  const prefetched = prefetchPageData(window.location.pathname, window.location.search);
  const router = createAppRouter();
  bindTelegramBackButton(router);
  // Soft pages open at once; the session is checked in the background.
  void loadUser();
  await whenRouterReady(router);
  // Its first render then shows what its HTML shows, and keeps those elements.
  if (answers) await prefetched;
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
  // Ready once the first render's effects have run (the router's blockers and scroll restoration
  // are effects): a prerendered page then hands over what the visitor did before the app ran
  // (index.html).
  afterFirstEffects(() => {
    if (prerendered && scrolledBeforeApp) window.scrollTo(0, scrolledBeforeApp);
    document.documentElement.classList.add('is-ready');
    window.dispatchEvent(new Event('app-ready'));
  });
  startErrorReporting(
    (pathname) => findRouteMeta(routeTable, pathname)?.path ?? 'unknown',
    // The pages read the same configuration: one request serves both.
    fetchPublicConfig,
  );
}

/** The answers a server-rendered page embeds (`<script type="application/json" id="page-answers">`). */
function pageAnswers(): Record<string, unknown> | null {
  const element = document.getElementById('page-answers');
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * Calls `ready` once the first render's effects, and the renders they cause, have run. Preact runs
 * a render's effects in a timer after the next frame; the router's blockers register in a second
 * render caused by the first effects, whose effects run a frame later still. A timer queued after
 * each of those two frames comes after them (a tab in the background has no frames: it waits).
 */
function afterFirstEffects(ready: () => void) {
  const afterFrame = (then: () => void) => requestAnimationFrame(() => setTimeout(then, 0));
  afterFrame(() => afterFrame(ready));
}

void main();
