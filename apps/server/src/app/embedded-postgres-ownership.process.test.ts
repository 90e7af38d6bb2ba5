import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port.js';

/**
 * The app's embedded PostgreSQL as real processes: `npm start` in one terminal, a command in
 * another with the same DATA_DIR. A command never stops the PostgreSQL a running Mirra owns, a
 * second server refuses the folder, and the app starts its PostgreSQL again when it dies, answering
 * 503 (never 500) meanwhile.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: serverDir,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let dataDir: string;
let app: Running;
let base: string;
const postmaster = async () => {
  const lines = (await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
};
const status = (url: string) =>
  fetch(`${base}${url}`).then(
    (response) => response.status,
    () => 0,
  );

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-pg-owner-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // A port other than the default: a command started without it must still find this server.
  app = run(['src/main.api.ts'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(await freePort()),
  });
  await waitFor(
    'the app',
    async () => {
      if (app.child.exitCode !== null) throw new Error(`the app exited:\n${app.output()}`);
      return (await status('/api/config/')) === 200 ? true : undefined;
    },
    240_000,
  );
}, 300_000);
afterAll(async () => {
  if (app && app.child.exitCode === null) {
    app.child.kill('SIGINT');
    await app.exited;
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('the embedded PostgreSQL a running Mirra owns', () => {
  it('npm run admin with another EMBEDDED_PG_PORT uses it and leaves it running', async () => {
    const register = await fetch(`${base}/api/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'Sturdy-Bridge-64' }),
    });
    expect(register.status).toBe(201);
    const before = await postmaster();

    const admin = run(['scripts/admin.ts', 'grant', 'owner@example.com'], {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
    });
    expect(await admin.exited, admin.output()).toBe(0);
    expect(admin.output()).toContain('owner@example.com is now admin.');
    expect(admin.output()).not.toContain('stopping a PostgreSQL');

    expect(isAlive(before.pid)).toBe(true);
    expect(await postmaster()).toEqual(before);
    expect(await status('/api/config/')).toBe(200);
    expect(await status('/readyz')).toBe(200);
  }, 120_000);

  it('a second server on the same DATA_DIR refuses to start, saying why, and stops nothing', async () => {
    const before = await postmaster();
    const second = run(['src/main.api.ts'], {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
    });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain('Another Mirra');
    expect(second.output()).toContain(`listens on port ${before.port}`);
    expect(isAlive(before.pid)).toBe(true);
    expect(await status('/api/config/')).toBe(200);
  }, 120_000);

  it('starts its PostgreSQL again when it dies; meanwhile requests answer 503 with Retry-After, never 500', async () => {
    const before = await postmaster();
    process.kill(before.pid, 'SIGKILL');
    const seen: number[] = [];
    let retryAfter: string | null = null;
    await waitFor('the app answering again', async () => {
      const response = await fetch(`${base}/api/config/`).catch(() => null);
      if (!response) return undefined;
      seen.push(response.status);
      if (response.status === 503) retryAfter ??= response.headers.get('retry-after');
      return response.status === 200 && seen.includes(503) ? true : undefined;
    });
    expect(seen.filter((code) => code !== 200 && code !== 503)).toEqual([]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const after = await postmaster();
    expect(after.pid).not.toBe(before.pid);
    expect(after.port).toBe(before.port);
    await waitFor('readiness', async () => ((await status('/readyz')) === 200 ? true : undefined));
    expect(app.output()).toContain('the embedded PostgreSQL stopped; starting it again');
    // Data is still there: the account registered before the crash is taken.
    const again = await fetch(`${base}/api/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'Sturdy-Bridge-64' }),
    });
    expect(again.status).toBe(400);
  }, 180_000);
});
