/**
 * Build-time entry (scripts/prerender.mjs bundles it for Node and runs it in a jsdom window): the
 * app's first render of a landing page for a visitor without a session, in one language, as HTML.
 * The server sends it in place of the loading mark, so the page paints before the app's code has
 * arrived; the app's first render then reuses these very elements.
 */
import { createRoot } from 'react-dom/client';
import { AppRoot, whenRouterReady } from '../app/app-root';
import { createAppRouter } from '../app/router';
import { initI18n, LANGUAGES, type TLanguage } from '../lib/i18n';

export { LANGUAGES };

/** Where people arrive from outside and whose first screen needs no data to show. */
export const PRERENDERED_PATHS = ['/', '/create/'] as const;

/** The page at the window's address. Only the first render counts: effects run in the browser. */
export async function renderLandingPage(language: TLanguage): Promise<string> {
  const i18n = await initI18n(language);
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
