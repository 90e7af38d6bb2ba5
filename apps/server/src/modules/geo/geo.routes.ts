import { routes } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { GeoDeps } from './geo.deps.js';

export function registerGeoRoutes(app: ZodApp, deps: GeoDeps): void {
  // Open to guests too: the sign-in popup picks the offer and privacy links by country.
  serve(app, routes.geo.country, async (request) => ({
    country_iso: deps.geo.countryOf(request.ip, request.headers),
  }));
}
