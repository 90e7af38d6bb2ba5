import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runOnce } from 'graphile-worker';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { inject } from 'vitest';
import { buildServer, type App } from '../app/build-server.js';
import { parseConfig } from '../shared/config.js';
import { createDeps, type AppDeps } from '../app/deps.js';
import { buildTaskList } from '../app/jobs.registry.js';
import { connectDatabase } from '../shared/db/client.js';
import { createNotificationHub } from '../shared/db/notifications.js';
import { createLogger } from '../shared/logger.js';
import { withDatabase } from './global-setup.js';
import { recordStorageUse, recordStorageUseOf } from './storage-use.js';

export interface TestApp {
  app: App;
  /** Where this app's database lives (another app can share it: a second API process). */
  connectionString: string;
  /** The storage variables this app runs with (S3's under TEST_STORAGE=s3; none for local disk), for a child process to share its store. */
  storageEnv: Record<string, string>;
  deps: AppDeps;
  /** Runs every job that is due now (emails, bot messages), as the worker would. */
  runJobs(): Promise<void>;
  /** The emails written to the outbox so far, oldest first, parsed. */
  readOutbox(): Promise<Array<{ to: string; subject: string; text: string; file: string }>>;
  /**
   * GETs a media URL the API handed out, wherever it points: GET /api/media on this app (local
   * disk), or the S3-compatible store itself (a presigned URL) when TEST_STORAGE=s3.
   */
  fetchMedia(
    url: string,
    headers?: Record<string, string>,
  ): Promise<{ statusCode: number; headers: Record<string, string | undefined>; rawPayload: Buffer }>;
  /** Moves the app's clock (tokens, links, rate-limit windows); `undefined` returns to real time. */
  setNow(date: Date | undefined): void;
  close(): Promise<void>;
}

export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-long-enough-0123456789';

/**
 * A real server on a fresh database copied from the migrated template, with its own data folder
 * (outbox) and configuration. Requests go through `app.inject`; nothing listens on a port.
 */
export async function createTestApp(
  options: { env?: Record<string, string>; overrides?: Partial<AppDeps>; shareDatabaseWith?: TestApp } = {},
): Promise<TestApp> {
  const adminUrl = inject('pgAdminUrl');
  const databaseName = `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const ownsDatabase = !options.shareDatabaseWith;
  if (ownsDatabase) await createDatabaseFromTemplate(adminUrl, databaseName, inject('pgTemplateDatabase'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-test-data-'));
  const s3Env = inject('s3Env');
  const config = parseConfig({
    ...(s3Env ? withStoragePrefix(s3Env, databaseName) : {}),
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://mirra.test',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    // Tests of training count its charge from the first model; the first-model offer's own tests
    // turn it on.
    FIRST_MODEL_FREE: 'false',
    ...options.env,
  });
  const connectionString =
    options.shareDatabaseWith?.connectionString ?? withDatabase(adminUrl, databaseName);
  const database = connectDatabase(connectionString, 5);
  const logger = createLogger(config.logLevel, 'test');
  const notifications = createNotificationHub(connectionString, logger);
  let fixedNow: Date | undefined;
  const deps = createDeps({
    config,
    database,
    logger,
    jwtSecret: TEST_JWT_SECRET,
    notifications,
    overrides: { now: () => fixedNow ?? new Date(), ...options.overrides },
  });
  // Which test files touch media decides which ones the S3 pass runs (storage-use-guard.ts).
  recordStorageUseOf(deps);
  await deps.storage.ready?.();
  const app = await buildServer(deps);
  await app.ready();

  const fetchMedia: TestApp['fetchMedia'] = async (url, headers) => {
    if (url.startsWith('/')) {
      const response = await app.inject({ method: 'GET', url, headers });
      const location = response.headers.location;
      // GET /api/media redirects to the store's presigned URL when the store serves files itself.
      if (response.statusCode === 302 && typeof location === 'string') return fetchMedia(location, headers);
      return {
        statusCode: response.statusCode,
        headers: Object.fromEntries(
          Object.entries(response.headers).map(([name, value]) => [name, value?.toString()]),
        ),
        rawPayload: response.rawPayload,
      };
    }
    const response = await fetch(url, { headers });
    return {
      statusCode: response.status,
      headers: Object.fromEntries(response.headers),
      rawPayload: Buffer.from(await response.arrayBuffer()),
    };
  };

  return {
    app,
    connectionString,
    // A child process given these settings uses this app's store.
    get storageEnv() {
      recordStorageUse();
      return s3Env ? withStoragePrefix(s3Env, databaseName) : {};
    },
    deps,
    async runJobs() {
      await runOnce({ pgPool: database.pool, taskList: buildTaskList(deps), logger: quietWorkerLogger });
      // graphile-worker records a job's outcome without awaiting it: wait until nothing is locked.
      for (let i = 0; i < 250; i++) {
        const { rows } = await database.pool.query(
          'SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE locked_at IS NOT NULL',
        );
        if (rows[0].n === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async readOutbox() {
      let files: string[] = [];
      try {
        files = (await readdir(config.outboxDir)).filter((f) => f.endsWith('.eml')).sort();
      } catch {
        return [];
      }
      return Promise.all(
        files.map(async (file) => {
          const parsed = await simpleParser(await readFile(path.join(config.outboxDir, file)));
          const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
          return { to: to ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '', file };
        }),
      );
    },
    fetchMedia,
    setNow(date) {
      fixedNow = date;
    },
    async close() {
      // Every test is over: a peer's keep-alive socket or a delivery still in flight (a fake's
      // webhook) must not hold the server open.
      const closing = app.close();
      app.server.closeAllConnections();
      await namedIfSlow('the HTTP server', closing);
      await namedIfSlow('the imaging threads', deps.imagingThreads?.close());
      await namedIfSlow('the notification hub', notifications.close());
      await namedIfSlow('the database pool', database.close());
      if (ownsDatabase) await namedIfSlow('dropping the database', dropDatabase(adminUrl, databaseName));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A media URL as the API hands it out, for a file with this extension: ours (`/api/media/<sealed
 * key>.<ext>?exp=…&sig=…`) or, with TEST_STORAGE=s3, the store's presigned one, whose object
 * name is hashed segment by segment. Neither names the key's owner or ids.
 */
export function mediaUrlPattern(extension: string): RegExp {
  return new RegExp(
    `^(/api/media/[\\w-]{40,}\\.${extension}\\?exp=\\d+&sig=[\\w-]+|https?://[^/?]+/[\\w/-]+\\.${extension}\\?X-Amz-[\\w%=&.-]+)$`,
  );
}

/** When a media URL stops working (unix seconds): `exp` of ours, X-Amz-Date + X-Amz-Expires of a presigned one. */
export function mediaUrlExpiry(url: string): number {
  const params = new URL(url, 'http://x').searchParams;
  const amzDate = params.get('X-Amz-Date');
  if (!amzDate) return Number(params.get('exp'));
  const signedAt = Date.parse(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  return signedAt / 1000 + Number(params.get('X-Amz-Expires'));
}

/** The run's S3 settings with this app's own prefix in the bucket. */
function withStoragePrefix(env: Record<string, string>, prefix: string): Record<string, string> {
  const url = new URL(env.STORAGE_URL!);
  return { ...env, STORAGE_URL: `s3://${url.hostname}/${prefix}${url.search}` };
}

async function createDatabaseFromTemplate(adminUrl: string, name: string, template: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(
          `CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`,
        );
        return;
      } catch (error) {
        // Another file copying the template at this very moment holds it briefly.
        if (attempt < 20 && /being accessed by other users/.test((error as Error).message)) {
          await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
          continue;
        }
        throw error;
      }
    }
  } finally {
    await client.end();
  }
}

/** Waits for one step of closing; one that takes over 20 s is named, so a hung hook says what hangs. */
async function namedIfSlow<T>(step: string, work: Promise<T> | undefined): Promise<T | undefined> {
  const warning = setTimeout(() => console.error(`test app: closing ${step} takes over 20 s`), 20_000);
  try {
    return await work;
  } finally {
    clearTimeout(warning);
  }
}

async function dropDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

import { Logger as WorkerLogger } from 'graphile-worker';
const quietWorkerLogger = new WorkerLogger(() => (level, message) => {
  if (level === 'error') console.error(message);
});
