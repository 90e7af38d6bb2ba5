import { ZGeo } from '@mirra/contracts';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { GeoDeps } from './geo.deps.js';

export function registerGeoRoutes(app: ZodApp, deps: GeoDeps): void {
  // Open to guests too: the sign-in popup picks the offer and privacy links by country.
  app.get(
    '/api/users/geo/',
    {
      schema: { tags: ['users'], summary: 'The caller’s country', response: { 200: ZGeo } },
    },
    async (request) => ({ country_iso: deps.geo.countryOf(request.ip, request.headers) }),
  );
}
