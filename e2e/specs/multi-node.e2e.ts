import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Fake, type S3Fake } from '../../apps/server/src/fakes/s3.fake.js';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../apps/server/src/shared/db/embedded-postgres.js';
import { createLogger } from '../../apps/server/src/shared/logger.js';
import { callApi, createActiveUser, PASSWORD, uniqueEmail, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot } from '../lib/browser.js';
import { progressSeen, recordProgress } from '../lib/generations.js';
import { freePort, startBuiltServer, type BuiltServer } from '../lib/server.js';

/**
 * Mirra past one machine: one PostgreSQL, one S3-compatible store, two API processes that run no
 * jobs (RUN_WORKER=false) on their own ports and data folders, and one job worker process apart.
 * Nothing is shared but the database and the bucket, as behind a load balancer.
 */
const LOGIN_LIMIT = 3;
let pg: EmbeddedPostgresHandle;
let pgDir: string;
let s3: S3Fake;
let nodeA: BuiltServer;
let nodeB: BuiltServer;
let worker: BuiltServer | undefined;
let settings: Record<string, string>;
const saved = { base: process.env.E2E_BASE_URL, data: process.env.E2E_DATA_DIR };

async function startWorker(): Promise<BuiltServer> {
  const metricsPort = await freePort();
  const started = await startBuiltServer({
    dataDirPrefix: 'mirra-e2e-worker-',
    entry: 'main.worker.js',
    settings: { ...settings, METRICS_WORKER_PORT: String(metricsPort) },
    readyUrl: `http://127.0.0.1:${metricsPort}/metrics`,
  });
  // The e2e helpers read emails (activation links) where the worker writes them.
  process.env.E2E_DATA_DIR = started.dataDir;
  return started;
}

beforeAll(async () => {
  pgDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-e2e-multi-pg-'));
  pg = await startEmbeddedPostgres({
    dir: pgDir,
    port: await freePort(),
    password: randomBytes(12).toString('hex'),
    database: 'mirra',
    logger: createLogger('warn', 'e2e-pg'),
  });
  s3 = await startS3Fake();
  settings = {
    DATABASE_URL: pg.connectionString('mirra'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...s3.env('multi-node'),
    RUN_WORKER: 'false',
    WELCOME_CREDITS: '4',
    PRICE_SIMPLE: '1',
    FREE_DAILY_PHOTOS: '10',
    RATE_LIMIT_LOGIN_PER_EMAIL: String(LOGIN_LIMIT),
  };
  // A migrates the database; B and the worker find it ready.
  nodeA = await startBuiltServer({ dataDirPrefix: 'mirra-e2e-node-a-', settings });
  [nodeB, worker] = await Promise.all([
    startBuiltServer({ dataDirPrefix: 'mirra-e2e-node-b-', settings }),
    startWorker(),
  ]);
  process.env.E2E_BASE_URL = nodeA.baseUrl;
}, 240_000);

afterAll(async () => {
  for (const [name, value] of [
    ['E2E_BASE_URL', saved.base],
    ['E2E_DATA_DIR', saved.data],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await Promise.all([nodeA?.stop(), nodeB?.stop(), worker?.stop()]);
  await s3?.close();
  await pg?.stop();
  await rm(pgDir, { recursive: true, force: true });
}, 120_000);

const bearer = (user: Pick<TestUser, 'access'>) => `Bearer ${user.access}`;
const on = (node: BuiltServer, pathname: string) => new URL(pathname, node.baseUrl).toString();

describe('several API nodes and a worker apart', () => {
  it('a generation submitted on node A runs in the worker; node B streams its progress live and shows the result from the bucket', async () => {
    const user = await createActiveUser({ firstName: 'Grace', lastName: 'Hopper' });
    // No worker for now: the generation waits in the queue while B's page subscribes.
    await worker!.stop();
    worker = undefined;

    const s = await openBrowser('desktop', { alsoAllow: [nodeB.baseUrl, s3.endpoint] });
    try {
      const pageA = s.page;
      await pageA.goto(on(nodeA, '/welcome/'));
      await pageA.evaluate(
        ({ refresh, access }) => {
          localStorage.setItem('refresh', refresh);
          localStorage.setItem('access', access);
        },
        { refresh: user.refresh, access: user.access },
      );
      await pageA.goto(on(nodeA, '/generate/simple/'));
      await pageA.getByTestId('prompt').fill('A lighthouse on a cliff at dawn');
      if ((await pageA.getByTestId('seed').count()) === 0) await pageA.getByTestId('advanced-toggle').click();
      await pageA.getByTestId('seed').fill('2');
      await pageA.getByTestId('generate-submit').click();
      await pageA.waitForURL((u) => /^\/generation\/[0-9a-f-]{36}\/$/.test(u.pathname));
      const resultPath = new URL(pageA.url()).pathname;
      const uuid = resultPath.split('/')[2]!;

      // The same person on node B (another origin: its own stored session).
      const pageB = await s.context.newPage();
      const eventsFromB: number[] = [];
      const imagesFrom = new Set<string>();
      pageB.on('response', (response) => {
        const url = new URL(response.url());
        if (url.host === new URL(nodeB.baseUrl).host && url.pathname === `/api/generations/${uuid}/events/`) {
          eventsFromB.push(response.status());
        }
        if (response.request().resourceType() === 'image') imagesFrom.add(url.origin);
      });
      await recordProgress(pageB);
      await pageB.goto(on(nodeB, '/welcome/'));
      await pageB.evaluate(
        ({ refresh, access }) => {
          localStorage.setItem('refresh', refresh);
          localStorage.setItem('access', access);
        },
        { refresh: user.refresh, access: user.access },
      );
      await pageB.goto(on(nodeB, resultPath));
      await expect.poll(() => eventsFromB).toContain(200);
      const queued = await callApi<{ status: number }>(`/api/generations/${uuid}/`, {
        authorization: bearer(user),
      });
      expect(queued.body.status).not.toBe(100);

      // Now a worker comes up on its own machine and takes the job.
      worker = await startWorker();
      await pageB.getByTestId('result-image').waitFor({ timeout: 60_000 });
      const seen = await progressSeen(pageB);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));

      // The picture comes straight from the bucket through a presigned URL, not through node B.
      const image = pageB.getByTestId('result-image');
      expect((await image.getAttribute('src'))?.startsWith(`${s3.endpoint}/`)).toBe(true);
      await expect
        .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      expect([...imagesFrom]).toContain(s3.endpoint);
      expect([...imagesFrom]).not.toContain(nodeB.baseUrl);
      await saveScreenshot(pageB, 'multi-node-result-on-b');

      // Node A's page, which never saw the worker either, shows the same result.
      await pageA.getByTestId('result-image').waitFor({ timeout: 30_000 });

      // The result becomes the photo of a new edit with the bucket allowing no cross-origin reads
      // (no CORS): the server copies it into my uploads, the browser only shows the copy.
      await pageA.getByTestId('result-edit').click();
      await pageA.waitForURL(on(nodeA, `/generate/editing/generation/${uuid}/`));
      const source = pageA.getByTestId('photo-preview').locator('img');
      await source.waitFor({ timeout: 30_000 });
      expect((await source.getAttribute('src'))?.startsWith(`${s3.endpoint}/`)).toBe(true);
      await expect
        .poll(() => source.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });

  it('a session signed out on node A is refused on node B within a second', async () => {
    const user = await createActiveUser();
    const meOnB = () =>
      fetch(on(nodeB, '/api/users/me/'), { headers: { authorization: bearer(user) } }).then((r) => r.status);
    // B knows the session (and may have cached it).
    expect(await meOnB()).toBe(200);
    expect(await meOnB()).toBe(200);

    const loggedOut = await fetch(on(nodeA, '/api/token/logout/'), {
      method: 'POST',
      headers: { authorization: bearer(user), 'content-type': 'application/json' },
      body: JSON.stringify({ refresh: user.refresh }),
    });
    expect(loggedOut.status).toBe(204);
    const revokedAt = Date.now();
    let status = await meOnB();
    while (status === 200 && Date.now() - revokedAt < 3000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = await meOnB();
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('failed sign-ins counted on node A are refused on node B once over the limit', async () => {
    const email = uniqueEmail('limited');
    const tryLogin = (node: BuiltServer) =>
      fetch(on(node, '/api/token/login/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `${PASSWORD}-wrong` }),
      }).then((r) => r.status);
    for (let i = 0; i < LOGIN_LIMIT; i++) expect(await tryLogin(nodeA)).not.toBe(429);
    expect(await tryLogin(nodeB)).toBe(429);
    expect(await tryLogin(nodeA)).toBe(429);
  });
});
