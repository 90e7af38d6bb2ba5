import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port.js';

/**
 * `npm run fakes` as a developer runs it: its output is pasted into the shell that starts the app,
 * so it is `export NAME=value` lines, and a second run prints the same (fixed ports, kept keys): an
 * app started with the first run's variables keeps working with the restarted fakes.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAMES = [
  'FAL',
  'REPLICATE',
  'COMFYUI',
  'SENTRY',
  'OPENAI',
  'TELEGRAM',
  'YOOKASSA',
  'STRIPE',
  'CRYPTOMUS',
];

let dataDir = '';
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Runs the script until it printed its variables, then stops it (SIGTERM); its stdout. */
async function runFakes(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/fakes.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 60_000;
  while (!stdout.includes('safety checker')) {
    if (child.exitCode !== null) throw new Error(`fakes exited early:\n${stdout}\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`fakes did not start:\n${stdout}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return stdout;
}

/** What a shell would set from the printed lines (every line is an export or a comment). */
function parseExports(stdout: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of stdout.split('\n').filter(Boolean)) {
    if (line.startsWith('#')) continue;
    const match = /^export ([A-Z][A-Z0-9_]*)=('(?:[^']|'\\'')*'|[\w.,:/@%+=-]*)$/.exec(line);
    expect(match, line).not.toBeNull();
    const raw = match![2]!;
    variables[match![1]!] = raw.startsWith("'") ? raw.slice(1, -1).replaceAll("'\\''", "'") : raw;
  }
  return variables;
}

describe('npm run fakes', () => {
  it('prints paste-ready variables with the payment fakes on fixed ports, the same on every run', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-fakes-'));
    const ports = Object.fromEntries(await Promise.all(NAMES.map(async (name) => [name, await freePort()])));
    const env = {
      DATA_DIR: dataDir,
      APP_URL: 'http://127.0.0.1:3999',
      ...Object.fromEntries(NAMES.map((name) => [`${name}_FAKE_PORT`, String(ports[name])])),
    };
    const first = await runFakes(env);
    const variables = parseExports(first);
    expect(new URL(variables.YOOKASSA_API_BASE!).port).toBe(String(ports.YOOKASSA));
    expect(new URL(variables.STRIPE_API_BASE!).port).toBe(String(ports.STRIPE));
    expect(new URL(variables.CRYPTOMUS_API_BASE!).port).toBe(String(ports.CRYPTOMUS));
    expect(new URL(variables.TELEGRAM_API_BASE!).port).toBe(String(ports.TELEGRAM));
    expect(new URL(variables.OPENAI_BASE_URL!).port).toBe(String(ports.OPENAI));
    expect(variables).toMatchObject({ PUBLIC_URL: 'http://127.0.0.1:3999', DEV_TELEGRAM_MOCK: 'true' });
    for (const name of [
      'YOOKASSA_SHOP_ID',
      'STRIPE_WEBHOOK_SECRET',
      'CRYPTOMUS_API_KEY',
      'TELEGRAM_BOT_TOKEN',
    ]) {
      expect(variables[name], name).toBeTruthy();
    }
    // Where each provider is pointed: YooKassa's path beside Stripe's and Cryptomus's.
    for (const provider of ['yookassa', 'stripe', 'cryptomus']) {
      expect(first).toContain(`/api/payments/webhooks/${provider}/`);
    }

    const second = await runFakes(env);
    expect(parseExports(second)).toEqual(variables);
  }, 150_000);
});
