import { EventEmitter } from 'node:events';
import path from 'node:path';
import { Logger as WorkerLogger, run, type Runner, type WorkerEvents } from 'graphile-worker';
import { connectDatabase, type Database } from '../shared/db/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../shared/db/embedded-postgres.js';
import { migrateDatabase } from '../shared/db/migrate.js';
import { createNotificationHub } from '../shared/db/notifications.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { registerWorkerPool } from '../shared/job-worker-pools.js';
import {
  createErrorReporter,
  createMetricsOf,
  reportJobErrors,
  startWorkerMetricsServer,
} from '../modules/ops/index.js';
import { secretsForStart } from '../shared/secrets.js';
import { buildServer, type App } from './build-server.js';
import { localUrl, parseConfig, type Config } from '../shared/config.js';
import { createDeps, type AppDeps } from './deps.js';
import { buildTaskList, crontab } from './jobs.registry.js';
import { recoverWorkOfDeadWorkers } from './worker-recovery.js';

export interface Runtime {
  config: Config;
  deps: AppDeps;
  /** The database this process uses (the embedded one's address when it started it). */
  connectionString: string;
  app?: App;
  worker?: WorkerHandle;
  stop(): Promise<void>;
}

export interface WorkerHandle {
  runner: Runner;
  /** Stops taking jobs, lets running ones finish, then deregisters the pool. */
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  api: boolean;
  worker: boolean;
  /**
   * Replaces parts of the dependencies after they are built. Only for tests that run a real
   * process with test doubles (an engine that never answers); configuration cannot reach it.
   */
  adjustDeps?: (deps: AppDeps) => Partial<AppDeps>;
  /**
   * Runs once the database is migrated and before the HTTP server listens: `npm start`'s
   * supervisor starts the job worker process here, so the API is never up without it.
   */
  beforeApi?: (runtime: Runtime) => Promise<void>;
}

/**
 * Brings up what a process needs, in order: config, secrets, PostgreSQL (embedded unless
 * DATABASE_URL), migrations, then the HTTP server and/or the job worker. `stop()` undoes it in
 * reverse, so Ctrl-C leaves nothing running.
 */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const config = parseConfig();
  const logger = createLogger(config.logLevel);
  const secrets = await secretsForStart(config);
  let embedded: EmbeddedPostgresHandle | undefined;
  let connectionString = config.databaseUrl;
  if (!connectionString) {
    embedded = await startEmbeddedPostgres({
      dir: path.join(config.dataDir, 'pg'),
      port: config.embeddedPgPort,
      password: secrets.embeddedPgPassword!,
      database: 'mirra',
      logger,
    });
    connectionString = embedded.connectionString('mirra');
  }
  // LISTEN, the migration lock and the job worker need one session throughout: behind a pooler in
  // transaction mode they use the direct DATABASE_LISTEN_URL, queries go through the pooler.
  const sessionConnectionString = config.databaseListenUrl ?? connectionString;
  const behindPooler = config.databasePooler === 'transaction';
  const database = connectDatabase(connectionString, config.databasePoolSize, {
    namedStatements: !behindPooler,
  });
  const cleanups: Array<() => Promise<unknown>> = [];
  cleanups.push(() => database.close());
  if (embedded) cleanups.push(() => embedded.stop());
  try {
    await migrateThrough(
      sessionConnectionString === connectionString ? database : null,
      sessionConnectionString,
    );
    const notifications = options.api ? createNotificationHub(sessionConnectionString, logger) : null;
    if (notifications) cleanups.unshift(() => notifications.close());
    const builtDeps = createDeps({
      config,
      database,
      logger,
      notifications,
      jwtSecret: secrets.jwtSecret,
    });
    const deps = options.adjustDeps ? { ...builtDeps, ...options.adjustDeps(builtDeps) } : builtDeps;
    // Pool threads keep a process alive: they stop after everything that could still use them.
    if (deps.imagingThreads) {
      const threads = deps.imagingThreads;
      cleanups.unshift(() => threads.close());
    }
    // A bucket that cannot be reached stops the start here, with the store's own error.
    await deps.storage.ready?.();
    const runtime: Runtime = { config, deps, connectionString, stop: async () => {} };
    if (options.worker) {
      const workerDatabase = behindPooler
        ? connectDatabase(sessionConnectionString, config.databasePoolSize)
        : database;
      if (workerDatabase !== database) cleanups.unshift(() => workerDatabase.close());
      runtime.worker = await startWorker(deps, workerDatabase, sessionConnectionString, logger);
      cleanups.unshift(() => runtime.worker!.stop());
    }
    if (options.worker && !options.api && config.metricsWorkerPort !== undefined) {
      const metricsServer = await startWorkerMetricsServer({
        port: config.metricsWorkerPort,
        host: config.host,
        token: config.metricsToken,
        metrics: createMetricsOf(deps),
      });
      cleanups.unshift(() => metricsServer.close());
    }
    runtime.stop = () => runCleanups(cleanups, logger);
    await options.beforeApi?.(runtime);
    if (options.api) {
      runtime.app = await buildServer(deps);
      await runtime.app.listen({ port: config.port, host: config.host });
      // PORT=0 asks the system for a free port: links follow the one it gave.
      const address = runtime.app.server.address();
      if (!config.isPublicUrlSet && config.port === 0 && address && typeof address === 'object') {
        config.publicUrl = localUrl(config.host, address.port);
      }
      cleanups.unshift(() => runtime.app!.close());
    }
    runtime.stop = () => runCleanups(cleanups, logger);
    return runtime;
  } catch (error) {
    await runCleanups(cleanups, logger);
    throw error;
  }
}

/** Migrates over `database`, or over a short-lived connection to `connectionString` when null. */
async function migrateThrough(database: Database | null, connectionString: string): Promise<void> {
  if (database) return migrateDatabase(database);
  const session = connectDatabase(connectionString, 2);
  try {
    await migrateDatabase(session);
  } finally {
    await session.close();
  }
}

async function runCleanups(cleanups: Array<() => Promise<unknown>>, logger: Logger): Promise<void> {
  for (const cleanup of cleanups.splice(0)) {
    await cleanup().catch((error: unknown) => logger.error({ err: error }, 'error while stopping'));
  }
}

/**
 * Starts the job worker pool, registers it as alive (see job-worker-pools.ts), then releases the
 * work of pools that died, so a restart after a crash resumes their jobs at once.
 */
export async function startWorker(
  deps: AppDeps,
  database: Database,
  connectionString: string,
  logger: Logger,
): Promise<WorkerHandle> {
  const events: WorkerEvents = new EventEmitter();
  let poolId: string | undefined;
  events.on('pool:create', ({ workerPool }) => {
    poolId = workerPool.id;
  });
  reportJobErrors(events, createErrorReporter(deps.config.errorReporting));
  const runner = await run({
    pgPool: database.pool,
    taskList: buildTaskList(deps),
    crontab,
    concurrency: deps.config.workerConcurrency,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: toWorkerLogger(logger),
    events,
  });
  if (!poolId) {
    await runner.stop();
    throw new Error('graphile-worker started without announcing its pool');
  }
  const registration = await registerWorkerPool(connectionString, poolId, (error) => {
    // Without its lock this pool looks dead, and another worker may run its jobs again at the same
    // time: stop at once, as a crash would, and let the restart recover the work.
    logger.fatal({ err: error }, 'the job worker lost its liveness session; exiting');
    process.exit(1);
  }).catch(async (error: unknown) => {
    await runner.stop();
    throw error;
  });
  await recoverWorkOfDeadWorkers(deps).catch((error: unknown) =>
    logger.error({ err: error }, 'could not recover the work of dead job workers; the cron retries'),
  );
  return {
    runner,
    async stop() {
      await runner.stop();
      await registration.release();
    },
  };
}

function toWorkerLogger(logger: Logger): WorkerLogger {
  const child = logger.child({ component: 'worker' });
  return new WorkerLogger(() => (level, message, meta) => {
    const method =
      level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    child[method](meta ?? {}, message);
  });
}

/**
 * Stops cleanly on Ctrl-C / SIGTERM; a second signal exits at once. A process started by
 * `npm start`'s supervisor also stops when the supervisor is gone (its IPC channel closes), so a
 * `kill -9` of the supervisor leaves no API or worker process behind.
 */
export function stopOnSignals(runtime: Pick<Runtime, 'deps' | 'stop'>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // embedded-postgres hooks these signals to stop PostgreSQL at once, which would cut the
    // worker's and the server's connections mid-request; our stop() ends them first, then it.
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      runtime.deps.logger.info({ signal }, 'stopping');
      void runtime.stop().then(() => process.exit(0));
    });
  }
  if (process.send) {
    process.once('disconnect', () => {
      if (stopping) return;
      stopping = true;
      runtime.deps.logger.warn('the supervising process is gone; stopping');
      void runtime.stop().then(() => process.exit(0));
    });
  }
}
