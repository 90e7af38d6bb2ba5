/**
 * Browser tests: `npm run test:e2e` (extra arguments go to vitest, e.g. a spec name filter).
 *
 * Builds the app if the sources are newer than the build, starts the fake Telegram Bot API and the
 * built server (embedded PostgreSQL in a temporary DATA_DIR, emails to its outbox) on free ports,
 * runs e2e/specs in Debian's Chromium in a desktop and a phone viewport, and stops everything.
 * Screenshots land in test-results/screens/ (git-ignored).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startCryptomusFake } from '../apps/server/src/fakes/cryptomus.fake.js';
import { startStripeFake } from '../apps/server/src/fakes/stripe.fake.js';
import { startTelegramBotApiFake } from '../apps/server/src/fakes/telegram-bot-api.fake.js';
import { startYooKassaFake } from '../apps/server/src/fakes/yookassa.fake.js';
import { CHROMIUM } from './lib/browser.js';
import { PASSWORD } from './lib/accounts.js';
import { scanLog } from './lib/log-scan.js';
import { freePort, SERVER_LOGS_DIR, startBuiltServer, type BuiltServer } from './lib/server.js';

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

async function main(): Promise<number> {
  if (!existsSync(CHROMIUM)) {
    console.error(`e2e: Chromium not found at ${CHROMIUM}; install it with \`apt-get install -y chromium\`.`);
    return 1;
  }
  await buildIfNeeded();
  await mkdir(path.join(resultsDir, 'screens'), { recursive: true });
  await rm(SERVER_LOGS_DIR, { recursive: true, force: true });
  // Every server of the run signs with this key (e2e/lib/server.ts), so the log scan looks for it.
  process.env.E2E_JWT_SECRET = randomBytes(32).toString('hex');
  const webhookSecret = randomBytes(16).toString('hex');
  const botToken = `7${randomBytes(4).readUInt32BE(0)}:${randomBytes(16).toString('hex')}`;
  const botUsername = 'mirra_e2e_bot';
  // The fake Bot API calls the server's webhook, so the server's address is chosen first.
  const port = await freePort();
  const fake = await startTelegramBotApiFake({
    token: botToken,
    botUsername,
    webhook: { url: `http://127.0.0.1:${port}/api/tg/webhook/`, secretToken: webhookSecret },
  });

  // The server's clock: seconds ahead of real time, written by specs that let a hold pass.
  const clockFile = path.join(os.tmpdir(), `mirra-e2e-clock-${process.pid}`);

  // The payment providers' fakes post their notifications to the server, as the real ones would.
  const appUrl = `http://127.0.0.1:${port}`;
  const yookassa = await startYooKassaFake({ webhookUrl: `${appUrl}/api/payments/webhooks/yookassa/` });
  const stripe = await startStripeFake({ webhookUrl: `${appUrl}/api/payments/webhooks/stripe/` });
  const cryptomus = await startCryptomusFake();

  let code = 1;
  let server: BuiltServer | undefined;
  try {
    console.log('e2e: starting the server…');
    server = await startBuiltServer({
      dataDirPrefix: 'mirra-e2e-data-',
      port,
      settings: {
        TELEGRAM_API_BASE: fake.url,
        TELEGRAM_BOT_TOKEN: botToken,
        TELEGRAM_BOT_USERNAME: botUsername,
        TELEGRAM_WEBHOOK_SECRET: webhookSecret,
        DEV_TELEGRAM_MOCK: 'true',
        ...yookassa.env,
        ...stripe.env,
        ...cryptomus.env,
        // Generations (e2e/specs/generations.e2e.ts): a new account can make 4 credits' worth;
        // styling costs 3, so one styling leaves too little for another (the credit balance
        // dialog); the fourth generation of a day waits FREE_DELAY_SECONDS (the limit dialog).
        WELCOME_CREDITS: '4',
        PRICE_SIMPLE: '1',
        PRICE_EDITING: '1',
        PRICE_STYLING: '3',
        // Digital models (e2e/specs/models.e2e.ts): training and the two face pictures after it
        // spend exactly a new account's 4 credits.
        PRICE_MODEL_TRAINING: '2',
        PRICE_FACE_SWAP: '1',
        // Video (e2e/specs/video.e2e.ts): a picture and its 3-second animation spend all 4.
        PRICE_VIDEO_PER_SECOND: '1',
        FREE_DAILY_PHOTOS: '3',
        FREE_DELAY_SECONDS: '8',
        // Small, so the 'File too big' test sends little.
        UPLOAD_MAX_MB: '2',
        // Partners (e2e/specs/partners.e2e.ts): one 199 ₽ pack earns its referer 19.90 ₽, enough
        // to pay out; that test moves the clock past the hold. Its purchases go through the test
        // provider, which by default earns nothing (no money moves): here they earn as real ones.
        PAYOUT_MIN_RUB: '10',
        PARTNER_TEST_PAYMENTS_EARN: 'true',
        DEV_CLOCK_FILE: clockFile,
      },
    });
    console.log(`e2e: the server is at ${server.baseUrl} (data in ${server.dataDir})`);
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
          E2E_BASE_URL: server.baseUrl,
          E2E_DATA_DIR: server.dataDir,
          E2E_FAKE_TELEGRAM_URL: fake.url,
          E2E_BOT_TOKEN: botToken,
          E2E_BOT_USERNAME: botUsername,
          E2E_RESULTS_DIR: resultsDir,
          E2E_CLOCK_FILE: clockFile,
        },
      },
    );
    code = await new Promise<number>((resolve) => vitest.once('exit', (status) => resolve(status ?? 1)));
  } catch (error) {
    console.error('e2e:', error);
  } finally {
    if (server && code !== 0) console.error(`e2e: server output:\n${server.output().slice(-8000)}`);
    await server?.stop({ keepData });
    await Promise.all([fake.close(), yookassa.close(), stripe.close(), cryptomus.close()]);
    await rm(clockFile, { force: true });
  }
  // No secret, token, init data, password or face data in any server's log of the run.
  const known = [
    process.env.E2E_JWT_SECRET,
    webhookSecret,
    botToken,
    PASSWORD,
    ...[yookassa.env, stripe.env, cryptomus.env].flatMap((env) =>
      Object.entries(env)
        .filter(([name]) => /SECRET|KEY|TOKEN/.test(name))
        .map(([, value]) => value),
    ),
  ].filter((value): value is string => Boolean(value));
  const logs = existsSync(SERVER_LOGS_DIR) ? await readdir(SERVER_LOGS_DIR) : [];
  for (const name of logs) {
    const text = await readFile(path.join(SERVER_LOGS_DIR, name), 'utf8');
    const findings = scanLog(name, text, known);
    for (const finding of findings.slice(0, 5)) {
      console.error(`e2e: ${finding.what} in ${finding.file}:${finding.line}: ${finding.text}`);
    }
    if (findings.length) code = 1;
  }
  console.log(
    `e2e: ${logs.length} server log(s) scanned for secrets, in ${path.relative(root, SERVER_LOGS_DIR)}/`,
  );
  console.log(`e2e: screenshots in ${path.relative(root, path.join(resultsDir, 'screens'))}/`);
  return code;
}

process.exitCode = await main();
