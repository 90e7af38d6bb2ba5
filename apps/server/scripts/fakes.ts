// Local fakes of the providers Mirra talks to, for a manual demo without keys or network:
//   npm run fakes
// Every fake listens on a fixed port (FAKES_HOST, <NAME>_FAKE_PORT; defaults below) and keeps the
// keys it made in DATA_DIR/fakes.json, so restarting the fakes never asks for a restarted app.
// Printed on stdout: `export NAME=value` lines to paste into the shell that starts the app (or to
// save as an env file); the notes are `#` comments. Providers deliver their notifications and
// webhooks to APP_URL (default http://localhost:3000), the app's PUBLIC_URL.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { routes } from '@mirra/contracts';
import { startComfyUiFake } from '../src/fakes/comfyui.fake.js';
import { startCryptomusFake } from '../src/fakes/cryptomus.fake.js';
import { startFalFake } from '../src/fakes/fal.fake.js';
import { startOpenAiFake } from '../src/fakes/openai.fake.js';
import { startReplicateFake } from '../src/fakes/replicate.fake.js';
import { startSentryFake } from '../src/fakes/sentry.fake.js';
import { startStripeFake } from '../src/fakes/stripe.fake.js';
import { startTelegramBotApiFake } from '../src/fakes/telegram-bot-api.fake.js';
import { startYooKassaFake } from '../src/fakes/yookassa.fake.js';

/** Default ports, one per fake; `<NAME>_FAKE_PORT` moves one. */
const PORTS = {
  FAL: 4610,
  REPLICATE: 4611,
  COMFYUI: 4612,
  SENTRY: 4613,
  OPENAI: 4614,
  TELEGRAM: 4615,
  YOOKASSA: 4616,
  STRIPE: 4617,
  CRYPTOMUS: 4618,
} as const;
const portOf = (name: keyof typeof PORTS) => Number(process.env[`${name}_FAKE_PORT`] ?? PORTS[name]);

/** The keys the fakes accept, made once and kept: the app keeps working across restarts of the fakes. */
interface FakeKeys {
  openaiKey: string;
  replicateWebhookSecret: string;
  telegramToken: string;
  telegramWebhookSecret: string;
  yookassaShopId: string;
  yookassaSecretKey: string;
  stripeSecretKey: string;
  stripeWebhookSecret: string;
  cryptomusMerchantId: string;
  cryptomusApiKey: string;
}

function loadKeys(file: string): FakeKeys {
  const made: FakeKeys = {
    openaiKey: `sk-fake-${randomBytes(12).toString('hex')}`,
    replicateWebhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
    telegramToken: `${7_000_000_000 + randomInt(999_999_999)}:AA${randomBytes(27).toString('base64url').slice(0, 33)}`,
    telegramWebhookSecret: randomBytes(24).toString('hex'),
    yookassaShopId: String(100000 + randomInt(800000)),
    yookassaSecretKey: `test_${randomBytes(24).toString('base64url')}`,
    stripeSecretKey: `sk_test_${randomBytes(24).toString('hex')}`,
    stripeWebhookSecret: `whsec_${randomBytes(24).toString('base64url')}`,
    cryptomusMerchantId: randomUUID(),
    cryptomusApiKey: randomBytes(48).toString('base64url'),
  };
  let kept: Partial<FakeKeys> = {};
  try {
    kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<FakeKeys>;
  } catch {
    // First run (or an unreadable file): the keys made above are kept from now on.
  }
  const keys = { ...made, ...kept };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}

const host = process.env.FAKES_HOST ?? '127.0.0.1';
const appUrl = (process.env.APP_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const keys = loadKeys(resolve(process.env.DATA_DIR ?? './data', 'fakes.json'));

const fal = await startFalFake({
  host,
  port: portOf('FAL'),
  queueSteps: 2,
  progressSteps: 3,
  deliverWebhooks: true,
});
const replicate = await startReplicateFake({
  host,
  port: portOf('REPLICATE'),
  webhookSecret: keys.replicateWebhookSecret,
  processingSteps: 3,
  deliverWebhooks: true,
});
const comfyui = await startComfyUiFake({ host, port: portOf('COMFYUI'), steps: 8, stepMs: 400 });
const openai = await startOpenAiFake({ host, port: portOf('OPENAI'), apiKey: keys.openaiKey });
// The bot's webhook is set from the start, as `npm run telegram:setup` would: "press Start" and
// paying a Stars invoice reach the app.
const telegram = await startTelegramBotApiFake({
  host,
  port: portOf('TELEGRAM'),
  token: keys.telegramToken,
  webhook: { url: `${appUrl}${routes.telegram.webhook.path}`, secretToken: keys.telegramWebhookSecret },
});
// YooKassa and Stripe are told where to notify by their "cabinet" (here); Cryptomus by each invoice.
const yookassa = await startYooKassaFake({
  host,
  port: portOf('YOOKASSA'),
  webhookUrl: `${appUrl}${routes.payments.yookassaWebhook.path}`,
  shopId: keys.yookassaShopId,
  secretKey: keys.yookassaSecretKey,
});
const stripe = await startStripeFake({
  host,
  port: portOf('STRIPE'),
  webhookUrl: `${appUrl}${routes.payments.stripeWebhook.path}`,
  secretKey: keys.stripeSecretKey,
  webhookSecret: keys.stripeWebhookSecret,
});
const cryptomus = await startCryptomusFake({
  host,
  port: portOf('CRYPTOMUS'),
  merchantId: keys.cryptomusMerchantId,
  apiKey: keys.cryptomusApiKey,
});
const sentry = await startSentryFake({ host, port: portOf('SENTRY') });

const variables: Record<string, string> = {
  PUBLIC_URL: appUrl,
  FAL_KEY: fal.key,
  FAL_BASE_URL: fal.url,
  FAL_JWKS_URL: fal.jwksUrl,
  FAL_USER_ID: fal.userId,
  REPLICATE_API_TOKEN: replicate.token,
  REPLICATE_BASE_URL: replicate.url,
  REPLICATE_WEBHOOK_SECRET: keys.replicateWebhookSecret,
  REPLICATE_TRAINING_OWNER: 'mirra-demo',
  ENGINE_SIMPLE: 'fal,replicate,local',
  ENGINE_EDITING: 'fal,local',
  ENGINE_STYLING: 'fal,local',
  ENGINE_FACE_SWAP: 'replicate,local',
  ENGINE_VIDEO: 'fal,local',
  ENGINE_TRAINING: 'fal,local',
  COMFYUI_URLS: comfyui.url,
  OPENAI_BASE_URL: openai.url,
  OPENAI_API_KEY: openai.apiKey ?? '',
  PROMPT_HELPER_BASE_URL: openai.chatBaseUrl,
  PROMPT_HELPER_API_KEY: openai.apiKey ?? '',
  ...telegram.env,
  TELEGRAM_WEBHOOK_SECRET: keys.telegramWebhookSecret,
  DEV_TELEGRAM_MOCK: 'true',
  ...yookassa.env,
  ...stripe.env,
  ...cryptomus.env,
  SENTRY_DSN: sentry.dsn,
  SENTRY_DSN_WEB: sentry.dsn,
};

/** A value as the shell reads it back unchanged. */
const shellValue = (value: string) =>
  /^[\w.,:/@%+=-]*$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;

console.log('# Mirra fakes are running. Paste these lines into the shell that starts the app');
console.log('# (or save them as an env file); they stay the same on every run:');
for (const [name, value] of Object.entries(variables)) console.log(`export ${name}=${shellValue(value)}`);
console.log(`# Payment notifications and webhooks go to ${appUrl} (APP_URL changes it):`);
for (const route of [
  routes.payments.yookassaWebhook,
  routes.payments.stripeWebhook,
  routes.payments.cryptomusWebhook,
  routes.engines.falWebhook,
  routes.engines.replicateWebhook,
  routes.telegram.webhook,
]) {
  console.log(`#   ${route.path}`);
}
console.log('# Mini App dev mode: open the app with ?tg_dev=1. Pay a Stars invoice it opened with');
console.log(`#   curl -X POST ${telegram.url}/__fake__/pay-invoice -H 'content-type: application/json' \\`);
console.log(`#     -d '{"link":"https://t.me/$<slug>","user":{"id":100000001}}'`);
console.log('# A prompt with "forbidden-by-fal", "forbidden-by-replicate" or "forbidden-by-openai" is');
console.log("# refused by that fake's safety checker.");

const stop = () => {
  void Promise.all([
    fal.close(),
    replicate.close(),
    comfyui.close(),
    openai.close(),
    telegram.close(),
    yookassa.close(),
    stripe.close(),
    cryptomus.close(),
    sentry.close(),
  ]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
