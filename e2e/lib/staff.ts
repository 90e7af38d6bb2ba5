import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { TestUser } from './accounts.js';
import { e2eEnv } from './env.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/**
 * Makes a person staff the way an operator does: `npm run admin -- grant`, run against the e2e
 * server's own embedded PostgreSQL (its DATA_DIR and the port in its postmaster.pid).
 */
export async function grantStaff(user: Pick<TestUser, 'email'>, role: 'moderator' | 'admin') {
  const pid = await readFile(path.join(e2eEnv.dataDir, 'pg', 'postmaster.pid'), 'utf8');
  const port = pid.split('\n')[3]!.trim();
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'apps/server/scripts/admin.ts', 'grant', user.email, '--role', role],
    { cwd: root, env: { ...process.env, DATA_DIR: e2eEnv.dataDir, EMBEDDED_PG_PORT: port } },
  );
  expect(stdout).toContain(`is now ${role}`);
}
