import { routes } from '@mirra/contracts';
import type { FastifyRequest } from 'fastify';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import { streamStatusEvents } from '../../shared/http/status-event-stream.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { GenerationsDeps } from './generations.deps.js';
import { parseTimezoneOffset } from './generations.models.js';
import {
  createGeneration,
  getGeneration,
  listGenerations,
  listGenerationSet,
  quoteGeneration,
  repeatGeneration,
  type RequestContext,
  useGenerationResult,
} from './generations.usecases.js';
import { archiveOfSet, createArchiveLink } from './generation-archive.usecases.js';

const r = routes.generations;

const contextOf = (request: FastifyRequest): RequestContext => {
  const key = request.headers['idempotency-key'];
  return {
    timezoneOffsetMinutes: parseTimezoneOffset(request.cookies.timezone),
    // Repeated headers arrive joined by ", ", which no valid key contains.
    idempotencyKey: key === undefined ? null : String(key),
  };
};

export function registerGenerationsRoutes(app: ZodApp, deps: GenerationsDeps & { linkSecret: string }): void {
  serve(app, routes.generationSets.archiveLink, async (request) =>
    createArchiveLink(deps, requireAuth(request).user, request.params.uuid),
  );
  serve(app, routes.generationSets.archive, async (request, reply) => {
    const { fileName, stream } = await archiveOfSet(deps, request.query.key);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
  serve(app, r.price, async (request) =>
    quoteGeneration(deps, request.auth?.user ?? null, request.query, contextOf(request)),
  );
  serve(app, r.create, async (request) =>
    createGeneration(deps, requireAuth(request).user, request.body, contextOf(request)),
  );
  serve(app, r.list, async (request) =>
    request.query.set
      ? listGenerationSet(deps, requireAuth(request).user, request.query.set)
      : listGenerations(deps, requireAuth(request).user, request.query.cursor, request.query.limit ?? 20),
  );
  serve(app, r.get, async (request) => getGeneration(deps, requireAuth(request).user, request.params.uuid));
  serve(app, r.useResult, async (request) =>
    useGenerationResult(deps, requireAuth(request).user, request.params.uuid),
  );
  serve(app, r.repeat, async (request) =>
    repeatGeneration(deps, requireAuth(request).user, request.params.uuid, contextOf(request)),
  );
  serve(app, r.events, async (request, reply) => {
    const user = requireAuth(request).user;
    const current = await getGeneration(deps, user, request.params.uuid);
    streamStatusEvents(request, reply, {
      current,
      watch: (onEvent, onReset) => deps.generationEvents.watch(current.uuid, onEvent, onReset),
      reread: () => getGeneration(deps, user, current.uuid),
    });
  });
}
