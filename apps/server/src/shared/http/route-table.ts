import type { RouteSpec } from '@mirra/contracts';
import type { FastifyInstance } from 'fastify';

/** One route as Fastify registered it, with the contracts declaration it came from, if any. */
export interface RegisteredRoute {
  method: string;
  url: string;
  declaration: RouteSpec | undefined;
}

const tables = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route registered on `app` from now on (in every plugin scope), so a test can
 * hold Fastify's route table against the contracts' declarations.
 */
export function trackRoutes(app: FastifyInstance): void {
  const table: RegisteredRoute[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      table.push({ method, url: route.url ?? route.path, declaration: route.config?.declaration });
    }
  });
}

/** The routes `app` registered since `trackRoutes`. */
export function routeTableOf(app: FastifyInstance): readonly RegisteredRoute[] {
  const table = tables.get(app);
  if (!table) throw new Error('the app does not track its routes (see trackRoutes)');
  return table;
}
