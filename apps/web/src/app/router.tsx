import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { AppShell } from './layout/app-shell';
import { PageLoadError } from './layout/page-load-error';
import { routeTable, type RouteDef } from './route-table';

function toRouteObject(def: RouteDef): RouteObject {
  const target = def.redirect;
  if (target) return { path: def.path, loader: () => redirect(target) };
  const load = def.page!;
  return {
    path: def.path,
    handle: def,
    lazy: async () => {
      const { Page } = await load();
      return { Component: Page };
    },
  };
}

export function createAppRouter() {
  return createBrowserRouter([
    {
      path: '/',
      element: <AppShell />,
      errorElement: <PageLoadError />,
      // The same mark as index.html's, so the first paint does not jump.
      hydrateFallbackElement: (
        <div className="boot" aria-hidden="true">
          <div className="boot__mark" />
        </div>
      ),
      children: [
        {
          errorElement: <PageLoadError />,
          children: routeTable.map(toRouteObject),
        },
      ],
    },
  ]);
}
