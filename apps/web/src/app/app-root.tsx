import { render, type ComponentChild } from 'preact';
import { StrictMode, type ReactElement } from 'react';
import { RouterProvider } from 'react-router';
import type { i18n as I18n } from 'i18next';
import { Providers } from './providers';
import type { createAppRouter } from './router';

type AppRouter = ReturnType<typeof createAppRouter>;

/** The whole app, as the browser renders it and as the build prerenders its landing pages. */
export function AppRoot({ router, i18n }: { router: AppRouter; i18n: I18n }) {
  return (
    <StrictMode>
      <Providers i18n={i18n}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>
  );
}

/**
 * Resolves once the router has loaded the first page's code. Rendering only then makes the first
 * render the page itself, not the loading mark: on a prerendered page the renderer then keeps the
 * elements already on screen instead of replacing them (nothing is painted twice).
 */
export function whenRouterReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

/**
 * Renders the app over a prerendered page, keeping its elements: Preact's own render reuses the
 * DOM nodes it finds (same tags, attributes and texts patched), where React's createRoot (and
 * compat's) empties the container first and paints everything again.
 */
export function renderOverPrerendered(app: ReactElement, container: HTMLElement): void {
  render(app as unknown as ComponentChild, container);
}
