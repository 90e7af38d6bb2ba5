import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../test/global-setup.js';
import { connectDatabase, type Database } from '../shared/db/client.js';
import { hashPassword } from '../modules/auth/index.js';
import { applyCreditChange } from '../modules/credits/index.js';
import { createUser } from '../modules/users/index.js';
import { freePort } from '../test/free-port.js';

/**
 * `npm start` behind Debian's PgBouncer in transaction mode: queries go through the pooler (two
 * server sessions shared by every client), LISTEN, migrations and the job worker through the
 * direct DATABASE_LISTEN_URL. The two URLs carry different application names, so PostgreSQL itself
 * tells which connection each session came from.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PGBOUNCER = '/usr/sbin/pgbouncer';
const LISTEN_APP = 'mirra_listen';
const POOLED_APP = 'mirra_pooled';

function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

let dir: string;
let directUrl: string;
let bouncer: ChildProcess;
let server: ChildProcess;
let serverOutput = '';
let base: string;
let direct: Database;

beforeAll(async () => {
  const adminUrl = inject('pgAdminUrl');
  const databaseName = `pooler_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  directUrl = withDatabase(adminUrl, databaseName);
  const target = new URL(directUrl);

  dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-pooler-'));
  await chmod(dir, 0o755);
  const bouncerPort = await freePort();
  const config = path.join(dir, 'pgbouncer.ini');
  await writeFile(
    config,
    [
      '[databases]',
      `${databaseName} = host=${target.hostname} port=${target.port} dbname=${databaseName} ` +
        `user=${decodeURIComponent(target.username)} password=${decodeURIComponent(target.password)}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${bouncerPort}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'default_pool_size = 2',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
  );
  await chmod(config, 0o644);
  // PgBouncer refuses to run as root: it drops to `nobody` when started as root.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  bouncer = spawn(PGBOUNCER, [...asRoot, config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let bouncerOutput = '';
  bouncer.stdout!.on('data', (chunk) => (bouncerOutput += chunk));
  bouncer.stderr!.on('data', (chunk) => (bouncerOutput += chunk));
  const pooledUrl = withApplicationName(
    `postgres://mirra@127.0.0.1:${bouncerPort}/${databaseName}`,
    POOLED_APP,
  );
  for (let attempt = 0; ; attempt++) {
    const probe = new pg.Client({ connectionString: pooledUrl });
    try {
      await probe.connect();
      await probe.query('SELECT 1');
      await probe.end();
      break;
    } catch (error) {
      await probe.end().catch(() => {});
      if (attempt > 100) throw new Error(`PgBouncer did not start: ${String(error)}\n${bouncerOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.api.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      WEB_DIST_DIR: path.join(dir, 'no-web'),
      DATABASE_URL: pooledUrl,
      DATABASE_POOLER: 'transaction',
      DATABASE_LISTEN_URL: withApplicationName(directUrl, LISTEN_APP),
      WEB_CONCURRENCY: '1',
      RUN_WORKER: '1',
      PRICE_SIMPLE: '1',
      MODERATION_IMAGES: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk) => (serverOutput += chunk));
  server.stderr!.on('data', (chunk) => (serverOutput += chunk));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${serverOutput}`);
    const up = await fetch(`${base}/api/config/`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${serverOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  direct = connectDatabase(directUrl, 2);
}, 180_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await direct?.close();
  if (bouncer && bouncer.exitCode === null) {
    const exited = new Promise((resolve) => bouncer.once('exit', resolve));
    bouncer.kill('SIGTERM');
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('behind PgBouncer in transaction mode', () => {
  it('signs in, serves the session many times at once, accepts and runs a generation', async () => {
    const password = 'Pooler-Pass-123';
    const user = await createUser(direct.db, {
      email: `pooler-${Date.now()}@example.com`,
      passwordHash: await hashPassword(password),
      isActive: true,
    });
    await direct.db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: user.id,
        delta: 5,
        kind: 'adjustment',
        idempotencyKey: `pool-${user.id}`,
      }),
    );
    const login = await fetch(`${base}/api/token/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password }),
    });
    expect(login.status, serverOutput).toBe(200);
    const { access } = (await login.json()) as { access: string };
    const auth = { authorization: `Bearer ${access}` };

    // The session lookup is a prepared statement: with names it would break on the second server
    // session PgBouncer hands out; 40 at once over two server sessions use both.
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${base}/api/users/me/`, { headers: auth })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));

    const created = await fetch(`${base}/api/generations/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'simple', prompt: 'a lighthouse at dusk' }),
    });
    expect(created.status, serverOutput).toBe(201);
    const { uuid } = (await created.json()) as { uuid: string };
    let status = 0;
    for (let i = 0; i < 600 && status !== 100; i++) {
      const got = await fetch(`${base}/api/generations/${uuid}/`, { headers: auth });
      status = ((await got.json()) as { status: number }).status;
      if (status < 0) throw new Error(`generation failed:\n${serverOutput}`);
      if (status !== 100) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status, serverOutput).toBe(100);
    const balance = await fetch(`${base}/api/users/me/`, { headers: auth });
    expect(balance.status).toBe(200);
  }, 180_000);

  it('LISTENs only on the direct connection; queries reach PostgreSQL through the pooler', async () => {
    const { rows } = await direct.pool.query<{ application_name: string; query: string }>(
      `SELECT application_name, query FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    const listening = rows.filter((row) => /^\s*LISTEN\b/i.test(row.query));
    expect(listening.length).toBeGreaterThan(0);
    expect(new Set(listening.map((row) => row.application_name))).toEqual(new Set([LISTEN_APP]));
    // PgBouncer's server sessions (at most default_pool_size) carry the pooled URL's name.
    const pooled = rows.filter((row) => row.application_name === POOLED_APP);
    expect(pooled.length).toBeGreaterThan(0);
    expect(pooled.length).toBeLessThanOrEqual(2);
  });
});
