/**
 * Browser tests: `npm run test:e2e` (extra arguments go to vitest, e.g. a spec name filter).
 *
 * Builds the app if the sources are newer than the build, starts the fake Telegram Bot API and the
 * built server (embedded PostgreSQL in a temporary DATA_DIR, emails to its outbox) on free ports,
 * runs e2e/specs in Debian's Chromium in a desktop and a phone viewport, and stops everything.
 * Screenshots land in test-results/screens/ (git-ignored).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startTelegramBotApiFake } from '../apps/server/src/fakes/telegram-bot-api.fake.js';
import { CHROMIUM } from './lib/browser.js';

const root = path.resolve(import.meta.dirname, '..');
const resultsDir = path.join(root, 'test-results');
const keepData = process.env.E2E_KEEP_DATA === '1';

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestMtime(full) : (await stat(full)).mtimeMs);
  }
  return newest;
}

async function buildIfNeeded(): Promise<void> {
  const outputs = ['apps/web/dist/index.html', 'apps/server/dist/main.api.js'].map((p) => path.join(root, p));
  const built = outputs.every((p) => existsSync(p))
    ? Math.min(...outputs.map((p) => statSync(p).mtimeMs))
    : 0;
  const sources = Math.max(
    ...(await Promise.all(
      ['apps/web/src', 'apps/web/index.html', 'apps/server/src', 'packages/contracts/src'].map((p) => {
        const full = path.join(root, p);
        return statSync(full).isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
      }),
    )),
  );
  if (built >= sources && process.env.E2E_BUILD !== '1') return;
  console.log('e2e: building the app…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build failed');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`the server did not answer ${url} in time`);
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

async function main(): Promise<number> {
  if (!existsSync(CHROMIUM)) {
    console.error(`e2e: Chromium not found at ${CHROMIUM}; install it with \`apt-get install -y chromium\`.`);
    return 1;
  }
  await buildIfNeeded();
  await mkdir(path.join(resultsDir, 'screens'), { recursive: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-e2e-data-'));
  const [appPort, pgPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${appPort}`;
  const webhookSecret = randomBytes(16).toString('hex');
  const botToken = `7${randomBytes(4).readUInt32BE(0)}:${randomBytes(16).toString('hex')}`;
  const botUsername = 'mirra_e2e_bot';

  const fake = await startTelegramBotApiFake({
    token: botToken,
    botUsername,
    webhook: { url: `${baseUrl}/api/tg/webhook/`, secretToken: webhookSecret },
  });
  const server = spawn(process.execPath, ['apps/server/dist/main.api.js'], {
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
      TELEGRAM_API_BASE: fake.url,
      TELEGRAM_BOT_TOKEN: botToken,
      TELEGRAM_BOT_USERNAME: botUsername,
      TELEGRAM_WEBHOOK_SECRET: webhookSecret,
      DEV_TELEGRAM_MOCK: 'true',
      RATE_LIMIT_LOGIN_PER_IP: '10000',
      RATE_LIMIT_LOGIN_PER_EMAIL: '10000',
      RATE_LIMIT_REGISTER_PER_IP: '10000',
      RATE_LIMIT_EMAIL_PER_IP: '10000',
      RATE_LIMIT_EMAIL_PER_ADDRESS: '10000',
      RATE_LIMIT_UPLOADS_PER_USER: '10000',
      RATE_LIMIT_PROMPT_HELPER_PER_USER: '10000',
      // Generations (e2e/specs/generations.e2e.ts): a new account can make 4 credits' worth; styling
      // costs 3, so one styling leaves too little for another (the credit balance dialog); the
      // fourth generation of a day waits FREE_DELAY_SECONDS (the limit dialog).
      WELCOME_CREDITS: '4',
      PRICE_SIMPLE: '1',
      PRICE_EDITING: '1',
      PRICE_STYLING: '3',
      // Digital models (e2e/specs/models.e2e.ts): training and the two face pictures after it
      // spend exactly a new account's 4 credits.
      PRICE_MODEL_TRAINING: '2',
      PRICE_FACE_SWAP: '1',
      FREE_DAILY_PHOTOS: '3',
      FREE_DELAY_SECONDS: '8',
      // Small, so the 'File too big' test sends little.
      UPLOAD_MAX_MB: '2',
    },
  });
  const serverLog: string[] = [];
  for (const stream of [server.stdout, server.stderr]) {
    stream?.on('data', (chunk: Buffer) => serverLog.push(chunk.toString()));
  }

  let code = 1;
  try {
    console.log(`e2e: starting the server at ${baseUrl} (data in ${dataDir})…`);
    await waitForServer(`${baseUrl}/api/config/`, server);
    const vitest = spawn(
      process.execPath,
      [
        path.join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'e2e/vitest.config.ts',
        ...process.argv.slice(2),
      ],
      {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...process.env,
          E2E_BASE_URL: baseUrl,
          E2E_DATA_DIR: dataDir,
          E2E_FAKE_TELEGRAM_URL: fake.url,
          E2E_BOT_TOKEN: botToken,
          E2E_BOT_USERNAME: botUsername,
          E2E_RESULTS_DIR: resultsDir,
        },
      },
    );
    code = await new Promise<number>((resolve) => vitest.once('exit', (status) => resolve(status ?? 1)));
  } catch (error) {
    console.error('e2e:', error);
  } finally {
    await stopProcess(server);
    await fake.close();
    if (code !== 0) console.error(`e2e: server output:\n${serverLog.join('').slice(-8000)}`);
    if (!keepData) await rm(dataDir, { recursive: true, force: true });
  }
  console.log(`e2e: screenshots in ${path.relative(root, path.join(resultsDir, 'screens'))}/`);
  return code;
}

process.exitCode = await main();
