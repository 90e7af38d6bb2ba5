import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../shared/db/client.js';
import { ensureDatabase, startEmbeddedPostgres } from '../shared/db/embedded-postgres.js';
import { migrateDatabase } from '../shared/db/migrate.js';
import { createLogger } from '../shared/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of a database on the test server for administration (CREATE DATABASE). */
    pgAdminUrl: string;
    /** A migrated database every test file's database is copied from. */
    pgTemplateDatabase: string;
  }
}

export const TEMPLATE_DATABASE = 'mirra_test_template';

/**
 * One PostgreSQL for the whole run: the embedded one from npm in a temporary folder, or the server
 * TEST_DATABASE_URL names. Migrations run once, into a template; each test file copies it.
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
