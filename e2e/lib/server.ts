import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Every built server's output is written here when it stops; e2e/run.ts scans them for secrets. */
export const SERVER_LOGS_DIR = path.join(root, 'test-results', 'server-logs');

/** Limits a browser test would trip over (every test signs people up and in from one address). */
const RELAXED_LIMITS = {
  RATE_LIMIT_LOGIN_PER_IP: '10000',
  RATE_LIMIT_LOGIN_PER_EMAIL: '10000',
  RATE_LIMIT_REGISTER_PER_IP: '10000',
  RATE_LIMIT_EMAIL_PER_IP: '10000',
  RATE_LIMIT_EMAIL_PER_ADDRESS: '10000',
  RATE_LIMIT_UPLOADS_PER_USER: '10000',
  RATE_LIMIT_PROMPT_HELPER_PER_USER: '10000',
  RATE_LIMIT_TELEGRAM_AUTH_KEY_PER_IP: '10000',
  RATE_LIMIT_QS_PER_USER: '10000',
};

export interface BuiltServer {
  baseUrl: string;
  dataDir: string;
  /** What the server printed, for a failure report. */
  output(): string;
  /** Stops it and, unless `keepData`, removes its DATA_DIR. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, output: () => string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`the server did not answer ${url} in time:\n${output().slice(-4000)}`);
}

function stopProcess(child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * The built server (apps/server/dist) on `port` (else a free one) with its own embedded
 * PostgreSQL in a temporary DATA_DIR, relaxed rate limits, and `settings` over those. Resolves
 * once it answers.
 */
export async function startBuiltServer(options: {
  dataDirPrefix: string;
  settings: Record<string, string>;
  port?: number;
  /** `main.worker.js` for a job worker process alone (no HTTP API); `main.api.js` by default. */
  entry?: 'main.api.js' | 'main.worker.js';
  /** What answers once it is up; the API's /api/config/ by default (a worker's /metrics port). */
  readyUrl?: string;
}): Promise<BuiltServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), options.dataDirPrefix));
  const [appPort, pgPort] = [options.port ?? (await freePort()), await freePort()];
  const baseUrl = `http://127.0.0.1:${appPort}`;
  const log: string[] = [];
  const output = () => log.join('');
  const child = spawn(process.execPath, [`apps/server/dist/${options.entry ?? 'main.api.js'}`], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(appPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // One signing key for every server of the run (e2e/run.ts), so the log scan knows it.
      ...(process.env.E2E_JWT_SECRET ? { JWT_SECRET: process.env.E2E_JWT_SECRET } : {}),
      ...RELAXED_LIMITS,
      ...options.settings,
    },
  });
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => log.push(chunk.toString()));

  const stop = async ({ keepData = false } = {}) => {
    await stopProcess(child);
    await mkdir(SERVER_LOGS_DIR, { recursive: true });
    await writeFile(path.join(SERVER_LOGS_DIR, `${options.dataDirPrefix}${appPort}.log`), output());
    if (!keepData) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(options.readyUrl ?? `${baseUrl}/api/config/`, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, dataDir, output, stop };
}

export interface DedicatedServer extends BuiltServer {
  /** Points the e2e helpers (accounts, browser, url) at this server until `restore`. */
  use(): { restore(): void };
}

/**
 * A second built server with settings of its own, for a spec that needs prices the shared server
 * cannot have without changing what other specs rely on. e2e/run.ts has built the app before any
 * spec runs.
 */
export async function startDedicatedServer(settings: Record<string, string>): Promise<DedicatedServer> {
  const server = await startBuiltServer({ dataDirPrefix: 'mirra-e2e-dedicated-', settings });
  return {
    ...server,
    use() {
      const saved = { base: process.env.E2E_BASE_URL, data: process.env.E2E_DATA_DIR };
      process.env.E2E_BASE_URL = server.baseUrl;
      process.env.E2E_DATA_DIR = server.dataDir;
      return {
        restore() {
          for (const [name, value] of [
            ['E2E_BASE_URL', saved.base],
            ['E2E_DATA_DIR', saved.data],
          ] as const) {
            if (value === undefined) delete process.env[name];
            else process.env[name] = value;
          }
        },
      };
    },
  };
}
