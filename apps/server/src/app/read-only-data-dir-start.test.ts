import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Fake, type S3Fake } from '../fakes/s3.fake.js';
import { secretsForStart } from '../shared/secrets.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { startRuntime } from './runtime.js';

/**
 * A node of a larger deployment (JWT_SECRET, DATABASE_URL and STORAGE_URL set) starts with a data
 * folder it cannot write: here DATA_DIR lies under a plain file, so nothing can be created in it,
 * not even by root (for whom permission bits mean nothing), and the folder above is read-only too.
 */
let s3: S3Fake;
let t: TestApp;
let dir: string;
let dataDir: string;

beforeAll(async () => {
  [s3, t] = await Promise.all([startS3Fake(), createTestApp()]);
  dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-read-only-'));
  await writeFile(path.join(dir, 'plain-file'), 'not a folder');
  dataDir = path.join(dir, 'plain-file', 'data');
  await chmod(dir, 0o555);
});
afterAll(async () => {
  await chmod(dir, 0o755);
  await rm(dir, { recursive: true, force: true });
  await Promise.all([t?.close(), s3?.close()]);
});

const JWT_SECRET = 'a-node-secret-that-is-long-enough-0123456789abcdef';

describe('starting with a read-only DATA_DIR', () => {
  it('needs no secrets file when JWT_SECRET and DATABASE_URL are set', async () => {
    const secrets = await secretsForStart({
      dataDir,
      jwtSecret: JWT_SECRET,
      databaseUrl: t.connectionString,
    });
    expect(secrets.jwtSecret).toBe(JWT_SECRET);
    // Without both, the file is still needed (and here cannot be made).
    await expect(secretsForStart({ dataDir, jwtSecret: JWT_SECRET })).rejects.toThrow();
  });

  it('an API node starts, answers /readyz and stops', async () => {
    const env: Record<string, string> = {
      ...s3.env('read-only-start'),
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET,
      DATABASE_URL: t.connectionString,
      WEB_DIST_DIR: path.join(dir, 'no-web'),
    };
    const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    Object.assign(process.env, env);
    try {
      const runtime = await startRuntime({ api: true, worker: false });
      try {
        const address = runtime.app!.server.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({ checks: { database: 'ok', storage: 'ok' } });
      } finally {
        await runtime.stop();
      }
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
