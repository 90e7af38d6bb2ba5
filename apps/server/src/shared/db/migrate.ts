import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';
import type { Database } from './client.js';

/** The checked-in SQL migrations, found from here in the sources and from the bundle in dist/. */
export function findMigrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('The drizzle/ migrations folder was not found next to the server.');
}

// Any fixed number; all Mirra processes agree on it so only one migrates at a time.
const MIGRATION_LOCK = 7_341_001;

/**
 * Applies the app's migrations and the job queue's schema. Several processes starting at once
 * (API nodes, workers) take turns through an advisory lock.
 */
export async function migrateDatabase(database: Database): Promise<void> {
  const lockClient = await database.pool.connect();
  try {
    await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(database.db, { migrationsFolder: findMigrationsFolder() });
    await runWorkerMigrations({ pgPool: database.pool });
  } finally {
    await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    lockClient.release();
  }
}
