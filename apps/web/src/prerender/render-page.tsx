/**
 * The app's first render of a page for a visitor without a session, in one language, as HTML:
 * `scripts/prerender.mjs` bundles this file for Node and runs it in a jsdom window, at build time
 * for the landing pages that need no data (`/`, `/create/`) and in the server's page renderer for
 * those that do (the feed), given the answers of the requests the page makes first. The server
 * sends it in place of the loading mark, so the page paints before the app's code has arrived;
 * the app's first render then reuses these very elements.
 */
import i18next from 'i18next';
import { createRoot } from 'react-dom/client';
import { AppRoot, whenRouterReady } from '../app/app-root';
import { prefetchPageData } from '../app/route-table';
import { createAppRouter } from '../app/router';
import { answerFromPage } from '../lib/api-client';
import { changeLanguage, initI18n, LANGUAGES, type TLanguage } from '../lib/i18n';
import { queryClient } from '../lib/query-client';

export { LANGUAGES };

/** Where people arrive from outside and whose first screen needs no data to show. */
export const PRERENDERED_PATHS = ['/', '/create/'] as const;

/**
 * The page at the window's address. Only the first render counts: effects run in the browser.
 * With `answers` (request URL → answer) the page's own early requests are answered first, as the
 * browser will answer them from the same HTML.
 */
export async function renderPage(language: TLanguage, answers?: Record<string, unknown>): Promise<string> {
  queryClient.clear();
  // One renderer serves every language in turn: started once, then switched.
  const i18n = i18next.isInitialized ? (await changeLanguage(language), i18next) : await initI18n(language);
  if (answers) {
    answerFromPage(answers);
    await prefetchPageData(window.location.pathname, window.location.search);
  }
  const router = createAppRouter();
  await whenRouterReady(router);
  const container = document.createElement('div');
  // Preact renders synchronously: the HTML is the first render's, before any effect has run.
  const root = createRoot(container);
  root.render(<AppRoot router={router} i18n={i18n} />);
  const html = container.innerHTML;
  root.unmount();
  router.dispose();
  return html;
}
