import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ZCreateQsBody, ZCreatedQs, ZQsQuery, ZSavedQueryString } from '@mirra/contracts';
import { requireAuth } from '../../app/authenticate.js';
import type { ZodApp } from '../../app/build-server.js';
import type { AppDeps } from '../../app/deps.js';
import { savedQueryStrings } from '../../shared/db/schema.js';
import { AppError } from '../../shared/errors.js';

const tags = ['telegram'];

/**
 * Saved query strings behind short ids: a Mini App link can only carry a 64-character start
 * parameter, so `qs_<id>` stands for a longer query the app then reloads with (spec §7).
 */
export function registerQsRoutes(app: ZodApp, deps: AppDeps): void {
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
    async (request) => {
      const [row] = await deps.db
        .select()
        .from(savedQueryStrings)
        .where(eq(savedQueryStrings.id, request.query.id));
      if (!row) throw new AppError({ code: 'qs.not_found', detail: 'Not found.' });
      return { qs: row.qs };
    },
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
      const qs = request.body.qs.replace(/^\?/, '');
      // 12 base64url characters: 72 bits, unguessable, and short enough for the start parameter.
      const id = randomBytes(9).toString('base64url');
      await deps.db.insert(savedQueryStrings).values({ id, qs, userId: user.id });
      return reply.status(201).send({ id, qs, start_param: `qs_${id}` });
    },
  );
}
