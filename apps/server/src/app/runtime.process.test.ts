import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../test/global-setup.js';
import { freePort } from '../test/free-port.js';

/**
 * The server as `npm start` runs it: a separate process with the embedded PostgreSQL, checked from
 * outside over real HTTP. Covers first start, recovery after `kill -9`, and a clean Ctrl-C.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(env: Record<string, string>, entry = 'src/main.api.ts'): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (entry.includes('worker') && output.includes('Mirra worker is running')) break;
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/config/`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, port, output: () => output, exited };
}

/** Node processes started by `pid` (Linux /proc), with their command lines. */
async function nodeChildrenOf(pid: number): Promise<Array<{ pid: number; command: string }>> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: fields start after the last ')'.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== pid) continue;
      const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      if (command.includes('main.')) found.push({ pid: Number(entry), command });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-process-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start with the embedded defaults', () => {
  it('starts on a fresh data folder, recovers after kill -9, and stops cleanly on Ctrl-C', async () => {
    const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) };
    const first = await startServer(env);
    const secrets = JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8'));
    expect(secrets.jwtSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    // Register through real HTTP: the email reaches the outbox through the in-process worker.
    const register = await fetch(`http://127.0.0.1:${first.port}/api/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'process@example.com', password: 'Sturdy-Bridge-64' }),
    });
    expect(register.status).toBe(201);
    const outbox = path.join(dataDir, 'outbox');
    const emails = () =>
      readdir(outbox).then(
        (files) => files.filter((f) => f.endsWith('.eml')),
        () => [],
      );
    for (let i = 0; i < 60 && (await emails()).length === 0; i++)
      await new Promise((r) => setTimeout(r, 250));
    expect(await emails()).toHaveLength(1);

    // A crash: the node process dies at once and leaves PostgreSQL running behind it.
    const pgPid = Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isAlive(pgPid)).toBe(true);

    const second = await startServer(env);
    expect(second.output()).toContain('stopping a PostgreSQL left running by a previous crash');
    expect(isAlive(pgPid)).toBe(false);
    // Data survived: the same email is taken.
    const again = await fetch(`http://127.0.0.1:${second.port}/api/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'process@example.com', password: 'Sturdy-Bridge-64' }),
    });
    expect(again.status).toBe(400);
    // And the secret was kept, not regenerated.
    expect(JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')).jwtSecret).toBe(
      secrets.jwtSecret,
    );

    const newPgPid = Number(
      (await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(isAlive(newPgPid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 180_000);

  it('runs the job worker in a process of its own and WEB_CONCURRENCY API processes, restarting any that dies', async () => {
    const otherDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-process-cluster-'));
    try {
      const started = await startServer({
        DATA_DIR: otherDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        WEB_CONCURRENCY: '2',
      });
      const pid = started.child.pid!;
      const children = await waitFor('two API processes and a worker', async () => {
        const found = await nodeChildrenOf(pid);
        return found.length === 3 ? found : undefined;
      });
      expect(children.filter((c) => c.command.includes('main.api')).length).toBe(2);
      const worker = children.find((c) => c.command.includes('main.worker'))!;
      expect(worker).toBeDefined();
      // The worker yields the CPU to the API.
      const niceness = Number(
        (await readFile(`/proc/${worker.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[16],
      );
      expect(niceness).toBe(10);

      // Both API processes answer on the one port.
      for (let i = 0; i < 10; i++) {
        expect((await fetch(`http://127.0.0.1:${started.port}/api/config/`)).status).toBe(200);
      }

      // The worker dies: the supervisor starts another, and jobs run again.
      process.kill(worker.pid, 'SIGKILL');
      const replacement = await waitFor('a new worker process', async () =>
        (await nodeChildrenOf(pid)).find((c) => c.command.includes('main.worker') && c.pid !== worker.pid),
      );
      expect(replacement.pid).not.toBe(worker.pid);
      const register = await fetch(`http://127.0.0.1:${started.port}/api/users/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'cluster@example.com', password: 'Sturdy-Bridge-64' }),
      });
      expect(register.status).toBe(201);
      const outbox = path.join(otherDir, 'outbox');
      await waitFor('the activation email', async () => {
        const files = await readdir(outbox).catch(() => [] as string[]);
        return files.some((f) => f.endsWith('.eml')) ? true : undefined;
      });

      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      for (const child of [...children, replacement]) expect(isAlive(child.pid)).toBe(false);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('uses DATABASE_URL instead of the embedded PostgreSQL when it is set', async () => {
    const adminUrl = inject('pgAdminUrl');
    const name = `process_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const otherDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-process-url-'));
    try {
      const started = await startServer({
        DATA_DIR: otherDir,
        DATABASE_URL: withDatabase(adminUrl, name),
        RUN_WORKER: 'false',
      });
      expect(existsSync(path.join(otherDir, 'pg'))).toBe(false);
      const tables = await admin.query(`SELECT 1`);
      expect(tables.rowCount).toBe(1);
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await rm(otherDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('runs jobs with `npm run worker` alone (no HTTP), from the shared database', async () => {
    const adminUrl = inject('pgAdminUrl');
    const name = `worker_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplateDatabase')}`);
    const otherDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-worker-'));
    const db = new pg.Client({ connectionString: withDatabase(adminUrl, name) });
    await db.connect();
    try {
      const { rows } = await db.query(
        `INSERT INTO users (email, password_hash, referral_code, first_name) VALUES ('w@example.com', 'x', 'wrkr2345', 'Wanda') RETURNING id`,
      );
      await db.query(
        `SELECT graphile_worker.add_job('users:send_activation_email', json_build_object('userId', $1::int))`,
        [rows[0].id],
      );
      const worker = await startServer(
        { DATA_DIR: otherDir, DATABASE_URL: withDatabase(adminUrl, name) },
        'src/main.worker.ts',
      );
      const outbox = path.join(otherDir, 'outbox');
      const emails = () =>
        readdir(outbox).then(
          (files) => files.filter((f) => f.endsWith('.eml')),
          () => [],
        );
      for (let i = 0; i < 80 && (await emails()).length === 0; i++)
        await new Promise((r) => setTimeout(r, 250));
      expect(await emails()).toHaveLength(1);
      expect(await readFile(path.join(outbox, (await emails())[0]!), 'utf8')).toContain('w@example.com');
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    } finally {
      await db.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await rm(otherDir, { recursive: true, force: true });
    }
  }, 120_000);
});
