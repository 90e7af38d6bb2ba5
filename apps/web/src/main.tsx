import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { boot } from './app/boot';
import { Providers } from './app/providers';
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
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers i18n={booted.i18n}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
  document.documentElement.classList.add('is-ready');
  startErrorReporting((pathname) => findRouteMeta(routeTable, pathname)?.path ?? 'unknown');
}

void main();
