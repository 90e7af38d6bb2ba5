import { ZCreateQsBody, ZCreatedQs, ZQsQuery, ZSavedQueryString } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { QsDeps } from './qs.deps.js';
import { findQueryString, saveQueryString } from './qs.usecases.js';

const tags = ['telegram'];

/**
 * Saved query strings behind short ids: a Mini App link can only carry a 64-character start
 * parameter, so `qs_<id>` stands for a longer query the app then reloads with.
 */
export function registerQsRoutes(app: ZodApp, deps: QsDeps): void {
  app.get(
    '/api/qs/',
    {
      schema: {
        tags,
        summary: 'The query string saved as `qs_<id>`',
        querystring: ZQsQuery,
        response: { 200: ZSavedQueryString },
      },
    },
    async (request) => findQueryString(deps, request.query.id),
  );

  app.post(
    '/api/qs/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Save a query string for a `qs_<id>` start parameter',
        body: ZCreateQsBody,
        response: { 201: ZCreatedQs },
        security: [{ bearer: [] }, { telegram: [] }],
      },
    },
    async (request, reply) => {
      const { user } = requireAuth(request);
      return reply.status(201).send(await saveQueryString(deps, user, request.body.qs));
    },
  );
}
