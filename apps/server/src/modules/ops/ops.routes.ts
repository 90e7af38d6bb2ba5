import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OpsDeps } from './ops.deps.js';
import { notAuthenticated, notFound } from '../../shared/errors.js';
import { runWithRequestContext } from '../../shared/request-context.js';
import { createErrorReporter } from './error-reporting.js';
import { createAppMetrics, type AppMetrics } from '../../shared/metrics.js';
import { decideMetricsAccess, statusClass, UNMATCHED_ROUTE } from './ops.models.js';
import { createHealthReader, readJobQueue, type HealthReader } from './health.js';

/**
 * What an operator needs around every request (the request id in the response and in the logs of
 * what it starts, latency metrics, error reports) and the probes beside the API: /healthz,
 * /readyz and /metrics. They live outside /api/ for load balancers and scrapers, need no user,
 * and are real routes, so the web app's fallback never answers for them.
 */
export function registerOpsRoutes(
  app: FastifyInstance,
  deps: OpsDeps,
): { reportServerError: ServerErrorReport; readHealth: HealthReader['health'] } {
  registerRequestContext(app);
  const metrics = createMetricsOf(deps);
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      {
        method: request.method,
        // The route's pattern (`/api/generations/:uuid/`), never the path: no ids in labels.
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_class: statusClass(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  const reporter = createErrorReporter(deps.config.errorReporting);
  app.addHook('onClose', async () => {
    await reporter.flush();
  });

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  const health = createHealthReader(deps);
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ready = await health.readiness();
    // Remote engines' providers are reported, not required: a mode falls back to its next engine.
    return reply
      .status(ready.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(ready);
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const access = decideMetricsAccess({
      token: deps.config.metricsToken,
      authorization: request.headers.authorization,
      // The socket's own peer: a proxy's X-Forwarded-For must not make a caller look local.
      peerAddress: request.raw.socket.remoteAddress,
    });
    if (access === 'bad_token') throw notAuthenticated();
    if (access === 'not_loopback') throw notFound();
    const { contentType, body } = await metrics.render();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });

  return {
    reportServerError: (error, request) =>
      reporter.report(error, { userId: request.auth?.user.id, requestId: request.id }),
    readHealth: health.health,
  };
}

/** Called by the error handler for each failure it answers with a 5xx. */
export type ServerErrorReport = (error: unknown, request: FastifyRequest) => void;

/** The metrics of a process using this database: its pool, the shared job queue. */
export function createMetricsOf(deps: Pick<OpsDeps, 'database' | 'db'>): AppMetrics {
  return createAppMetrics({
    pool: deps.database.pool,
    countQueuedJobs: async () => (await readJobQueue(deps)).depth,
  });
}

/**
 * Every request runs in a context holding its id (the caller's X-Request-Id when acceptable, see
 * requestIdFor), which the response echoes and jobs added during it carry.
 */
function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    runWithRequestContext({ requestId: request.id, kind: 'request' }, done);
  });
}
