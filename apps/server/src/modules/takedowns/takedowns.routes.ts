import { routes } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { TakedownsDeps } from './takedowns.deps.js';
import { requestTakedown } from './takedowns.usecases.js';

/** The public takedown form's API: anyone, signed in or not, within a per-address rate. */
export function registerTakedownsRoutes(app: ZodApp, deps: TakedownsDeps): void {
  serve(app, routes.takedowns.request, (request) =>
    requestTakedown(deps, request.auth?.user ?? null, request.body, request.ip),
  );
}
