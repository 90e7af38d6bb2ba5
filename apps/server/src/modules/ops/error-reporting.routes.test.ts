import { once } from 'node:events';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { runOnce, Logger as WorkerLogger, type WorkerEvents } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type App } from '../../app/build-server.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createErrorReporter, reportJobErrors, stripPersonalData } from './error-reporting.js';

/**
 * A Sentry-compatible ingest endpoint on this machine: it keeps every envelope it is sent (the
 * SDK's wire format: a header line, then item header and item lines).
 */
async function startSentryIngest() {
  const envelopes: string[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      envelopes.push(`${request.url}\n${body.toString('utf8')}`);
      waiters.splice(0).forEach((wake) => wake());
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    dsn: `http://publickey@127.0.0.1:${port}/42`,
    envelopes,
    /** The error events received so far, each with its raw envelope. */
    events() {
      return envelopes.flatMap((envelope) =>
        envelope
          .split('\n')
          .slice(1)
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((item) => item.exception)
          .map((event) => ({ event, raw: envelope })),
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let ingest: Awaited<ReturnType<typeof startSentryIngest>>;
let t: TestApp;
let app: App;
beforeAll(async () => {
  ingest = await startSentryIngest();
  t = await createTestApp({ env: { SENTRY_DSN: ingest.dsn, SENTRY_RELEASE: 'mirra@9.9.9-test' } });
  // The same server with one more route that breaks, as a bug in a route would.
  app = await buildServer(t.deps);
  app.get('/api/test/broken/', { config: { auth: 'required' } }, async () => {
    throw new Error('the route broke');
  });
  app.post('/api/test/broken-open/', async () => {
    throw new Error('the open route broke');
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  await ingest.close();
});

describe('error reports (SENTRY_DSN)', () => {
  it('sends a 5xx to the DSN with the user id, release and request id, and no token, cookie or body', async () => {
    const user = await createActiveUser(t);
    const { access, refresh } = await login(t, user.email!, user.password);
    const response = await app.inject({
      method: 'GET',
      url: '/api/test/broken/?token=query-secret-1',
      headers: { ...bearer(access), cookie: 'refresh=cookie-secret-2', 'x-request-id': 'broken-req-1' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'common.internal' });
    const opened = await app.inject({
      method: 'POST',
      url: '/api/test/broken-open/',
      headers: { 'x-request-id': 'broken-req-2' },
      payload: { password: 'body-secret-3', refresh },
    });
    expect(opened.statusCode).toBe(500);
    await createErrorReporter(t.deps.config.errorReporting).flush(5000);

    const events = ingest.events();
    const withUser = events.find(({ event }) => JSON.stringify(event).includes('the route broke'));
    expect(withUser).toBeDefined();
    expect(withUser!.event).toMatchObject({
      release: 'mirra@9.9.9-test',
      environment: 'test',
      user: { id: String(user.id) },
      tags: { request_id: 'broken-req-1' },
    });
    const guest = events.find(({ event }) => JSON.stringify(event).includes('the open route broke'));
    expect(guest!.event).toMatchObject({ tags: { request_id: 'broken-req-2' } });
    const everything = ingest.envelopes.join('\n');
    for (const secret of [access, refresh, 'query-secret-1', 'cookie-secret-2', 'body-secret-3']) {
      expect(everything).not.toContain(secret);
    }
  });

  it('sends nothing for answers below 500', async () => {
    const before = ingest.events().length;
    expect((await app.inject({ method: 'GET', url: '/api/test/broken/' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/users/me/' })).statusCode).toBe(401);
    await createErrorReporter(t.deps.config.errorReporting).flush(5000);
    expect(ingest.events()).toHaveLength(before);
  });

  it("sends a job's failed attempt with the job's name and the id of the request that added it", async () => {
    await t.deps.database.pool.query(
      `SELECT graphile_worker.add_job('test:explodes', '{"request_id":"job-req-7"}'::json, max_attempts => 1)`,
    );
    const events: WorkerEvents = new EventEmitter();
    const reporter = createErrorReporter(t.deps.config.errorReporting);
    reportJobErrors(events, reporter);
    await runOnce({
      pgPool: t.deps.database.pool,
      taskList: {
        'test:explodes': async () => {
          throw new Error('the job exploded');
        },
      },
      events,
      logger: new WorkerLogger(() => () => {}),
    });
    await reporter.flush(5000);
    const report = ingest.events().find(({ event }) => JSON.stringify(event).includes('the job exploded'));
    expect(report?.event).toMatchObject({ tags: { job: 'test:explodes', request_id: 'job-req-7' } });
  });
});

describe('what an error report may carry', () => {
  it("keeps a request's method and path only, and a user's id only", () => {
    const stripped = stripPersonalData({
      type: undefined,
      request: {
        method: 'POST',
        url: 'http://mirra.test/api/auth/refresh/?token=q-secret',
        data: { refresh: 'body-secret' },
        cookies: { refresh: 'cookie-secret' },
        headers: { authorization: 'Bearer header-secret' },
        query_string: 'token=q-secret',
      },
      user: { id: '42', email: 'ada@example.com', ip_address: '203.0.113.9' },
      extra: { initData: 'init-secret' },
      breadcrumbs: [{ message: 'GET /api/users/me/ with a token' }],
    });
    expect(stripped.request).toEqual({ method: 'POST', url: 'http://mirra.test/api/auth/refresh/' });
    expect(stripped.user).toEqual({ id: '42' });
    expect(JSON.stringify(stripped)).not.toMatch(/secret|ada@|203\.0/);
  });
});
