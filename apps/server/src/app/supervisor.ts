import { fork, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../shared/logger.js';
import { parseConfig } from '../shared/config.js';
import { planProcesses } from './process-plan.models.js';
import { startRuntime, stopOnSignals } from './runtime.js';

/** How long a child may take to stop after SIGTERM before it is killed. */
const STOP_GRACE_MS = 30_000;
/** A child that dies is started again after this, doubling while it keeps dying, up to a minute. */
const RESTART_DELAY_MS = 1_000;
const RESTART_DELAY_MAX_MS = 60_000;
/** A child that stayed up this long is healthy again: its next restart waits the shortest delay. */
const HEALTHY_AFTER_MS = 60_000;
/** The job worker's niceness: the API is served first when both want the CPU. */
const WORKER_NICENESS = 10;

interface Supervised {
  stop(): Promise<void>;
  /** Resolves when the first start has reported ready (or given up). */
  ready: Promise<void>;
}

/**
 * `npm start`: starts PostgreSQL (embedded unless DATABASE_URL) and migrates once, then runs the
 * plan of process-plan.models.ts — the API here or in cluster processes, the job worker in a
 * process of its own — and restarts any child that dies. Ctrl-C stops the children first, then
 * the database.
 */
export async function runSupervisor(): Promise<void> {
  const plan = planProcesses(parseConfig(), os.availableParallelism());
  const servesApiHere = plan.apiProcesses === 1;
  const children: Supervised[] = [];
  let childEnv: NodeJS.ProcessEnv = {};
  const runtime = await startRuntime({
    api: servesApiHere,
    worker: plan.worker === 'inline',
    // The worker process is up before the API answers: what a request enqueues (an activation
    // email) is picked up at once, and a broken worker shows before traffic arrives.
    async beforeApi(started) {
      // Children reach the same database; the embedded one stays owned by this process.
      childEnv = { ...process.env, DATABASE_URL: started.connectionString };
      if (plan.worker === 'process') {
        const worker = superviseChild('job worker', started.deps.logger, () => startWorkerProcess(childEnv));
        children.push(worker);
        await worker.ready;
      }
    },
  });
  const logger = runtime.deps.logger;
  if (!servesApiHere) {
    cluster.setupPrimary({ exec: entryBeside('main.api') });
    for (let i = 0; i < plan.apiProcesses; i++) {
      children.push(superviseChild(`API process ${i + 1}`, logger, () => cluster.fork(childEnv).process));
    }
  }
  stopOnSignals({
    deps: runtime.deps,
    async stop() {
      await Promise.all(children.map((child) => child.stop()));
      await runtime.stop();
    },
  });
  await Promise.all(children.map((child) => child.ready));
  logger.info(
    { apiProcesses: plan.apiProcesses, worker: plan.worker },
    `Mirra is running at ${runtime.config.publicUrl} (API docs: ${runtime.config.publicUrl}/api/docs/)`,
  );
}

/** A cluster process of `npm start`: the API only, on the supervisor's database. */
export async function runApiProcess(): Promise<void> {
  const runtime = await startRuntime({ api: true, worker: false });
  stopOnSignals(runtime);
  process.send?.({ mirra: 'ready' });
}

function startWorkerProcess(env: NodeJS.ProcessEnv): ChildProcess {
  const child = fork(entryBeside('main.worker'), { env, stdio: 'inherit' });
  if (child.pid) {
    try {
      os.setPriority(child.pid, WORKER_NICENESS);
    } catch {
      // Not allowed here (some containers): it still runs apart from the API's event loop.
    }
  }
  return child;
}

/** The other entry point built beside this one (dist/*.js, or src/*.ts under tsx). */
function entryBeside(name: 'main.api' | 'main.worker'): string {
  const self = fileURLToPath(import.meta.url);
  const dir = path.dirname(self);
  const extension = path.extname(self);
  // In the sources this file is src/app/supervisor.ts; in the bundle it is a chunk in dist/.
  const base = path.basename(dir) === 'app' ? path.dirname(dir) : dir;
  return path.join(base, `${name}${extension}`);
}

function superviseChild(name: string, logger: Logger, start: () => ChildProcess): Supervised {
  let current: ChildProcess | undefined;
  let stopping = false;
  let delay = RESTART_DELAY_MS;
  let restartTimer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const launch = () => {
    const startedAt = Date.now();
    const child = start();
    current = child;
    child.on('message', (message: unknown) => {
      if ((message as { mirra?: string } | null)?.mirra === 'ready') markReady();
    });
    child.once('exit', (code, signal) => {
      current = undefined;
      if (stopping) return;
      markReady();
      if (Date.now() - startedAt > HEALTHY_AFTER_MS) delay = RESTART_DELAY_MS;
      logger.error({ code, signal, restartInMs: delay }, `${name} stopped; starting it again`);
      restartTimer = setTimeout(launch, delay);
      delay = Math.min(delay * 2, RESTART_DELAY_MAX_MS);
    });
  };
  launch();

  return {
    ready,
    stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const child = current;
      if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}
