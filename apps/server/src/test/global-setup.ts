import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../shared/db/client.js';
import { ensureDatabase, startEmbeddedPostgres } from '../shared/db/embedded-postgres.js';
import { migrateDatabase } from '../shared/db/migrate.js';
import { createLogger } from '../shared/logger.js';
import { startS3Fake } from '../fakes/s3.fake.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of a database on the test server for administration (CREATE DATABASE). */
    pgAdminUrl: string;
    /** A migrated database every test file's database is copied from. */
    pgTemplateDatabase: string;
    /**
     * With TEST_STORAGE=s3: the variables that point an app at the run's S3-compatible server
     * (each test app adds its own prefix); null when media live on local disk as by default.
     */
    s3Env: Record<string, string> | null;
  }
}

export const TEMPLATE_DATABASE = 'mirra_test_template';

/**
 * One PostgreSQL for the whole run: the embedded one from npm in a temporary folder, or the server
 * TEST_DATABASE_URL names. Migrations run once, into a template; each test file copies it.
 * TEST_STORAGE=s3 also starts one S3-compatible server for the run, and every test app keeps its
 * media there (under a prefix of its own) instead of on local disk.
 */
export default async function setup(project: TestProject) {
  const logger = createLogger('warn', 'test-pg');
  let stop = async () => {};
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-test-pg-'));
    const pg = await startEmbeddedPostgres({
      dir,
      port: await findFreePort(),
      password: 'test',
      database: 'postgres',
      logger,
    });
    adminUrl = pg.connectionString('postgres');
    stop = async () => {
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  await ensureDatabase(adminUrl, TEMPLATE_DATABASE);
  const template = connectDatabase(withDatabase(adminUrl, TEMPLATE_DATABASE), 2);
  await migrateDatabase(template);
  await template.close();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplateDatabase', TEMPLATE_DATABASE);
  let s3Env: Record<string, string> | null = null;
  if (process.env.TEST_STORAGE === 's3') {
    const s3 = await startS3Fake();
    s3Env = s3.env();
    const stopPg = stop;
    stop = async () => {
      await s3.close();
      await stopPg();
    };
  }
  project.provide('s3Env', s3Env);
  return stop;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
