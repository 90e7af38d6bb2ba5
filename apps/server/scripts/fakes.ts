// Local fakes of the providers Mirra talks to, for a manual demo without keys or network:
//   npm run fakes   (fal 4610, Replicate 4611, ComfyUI 4612; *_FAKE_PORT, FAKES_HOST;
//                   YooKassa, Stripe, Cryptomus and Telegram on free ports)
// fal's and Replicate's fakes deliver their signed webhooks to the app's webhook route when the app is reachable
// at the PUBLIC_URL the app was started with. Printed: the variables to start the app with.
import { startComfyUiFake } from '../src/fakes/comfyui.fake.js';
import { startFalFake } from '../src/fakes/fal.fake.js';
import { startOpenAiFake } from '../src/fakes/openai.fake.js';
import { startReplicateFake } from '../src/fakes/replicate.fake.js';
import { startSentryFake } from '../src/fakes/sentry.fake.js';
import { startCryptomusFake } from '../src/fakes/cryptomus.fake.js';
import { startStripeFake } from '../src/fakes/stripe.fake.js';
import { startTelegramBotApiFake } from '../src/fakes/telegram-bot-api.fake.js';
import { startYooKassaFake } from '../src/fakes/yookassa.fake.js';

const host = process.env.FAKES_HOST ?? '127.0.0.1';
const fal = await startFalFake({
  host,
  port: Number(process.env.FAL_FAKE_PORT ?? 4610),
  queueSteps: 2,
  progressSteps: 3,
  deliverWebhooks: true,
});
const replicate = await startReplicateFake({
  host,
  port: Number(process.env.REPLICATE_FAKE_PORT ?? 4611),
  processingSteps: 3,
  deliverWebhooks: true,
});
const comfyui = await startComfyUiFake({
  host,
  port: Number(process.env.COMFYUI_FAKE_PORT ?? 4612),
  steps: 8,
  stepMs: 400,
});
const openai = await startOpenAiFake();
const telegram = await startTelegramBotApiFake({ host, port: 0 });
// Payment providers post their notifications to the app (APP_URL, default http://localhost:3000);
// Cryptomus is told where by each invoice, YooKassa and Stripe by their "cabinet" (here).
const appUrl = (process.env.APP_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const yookassa = await startYooKassaFake({ host, webhookUrl: `${appUrl}/api/payments/webhooks/yookassa/` });
const stripe = await startStripeFake({ host, webhookUrl: `${appUrl}/api/payments/webhooks/stripe/` });
const cryptomus = await startCryptomusFake({ host });
const sentry = await startSentryFake({ host, port: Number(process.env.SENTRY_FAKE_PORT ?? 4613) });

console.log('Fakes running. Start the app with:');
console.log(`  FAL_KEY=${fal.key}`);
console.log(`  FAL_BASE_URL=${fal.url}`);
console.log(`  FAL_JWKS_URL=${fal.jwksUrl}`);
console.log(`  FAL_USER_ID=${fal.userId}`);
console.log(`  REPLICATE_API_TOKEN=${replicate.token}`);
console.log(`  REPLICATE_BASE_URL=${replicate.url}`);
console.log(
  '  REPLICATE_TRAINING_OWNER=mirra-demo (with ENGINE_TRAINING=replicate,local: LoRAs trained at Replicate)',
);
console.log('  ENGINE_SIMPLE=fal,replicate,local ENGINE_EDITING=fal,local ENGINE_STYLING=fal,local');
console.log('  ENGINE_FACE_SWAP=replicate,local ENGINE_VIDEO=fal,local ENGINE_TRAINING=fal,local');
console.log(`  COMFYUI_URLS=${comfyui.url}`);
console.log(`  OPENAI_BASE_URL=${openai.url} OPENAI_API_KEY=${openai.apiKey}`);
console.log(`  PROMPT_HELPER_BASE_URL=${openai.chatBaseUrl} PROMPT_HELPER_API_KEY=${openai.apiKey}`);
console.log(`  TELEGRAM_API_BASE=${telegram.env.TELEGRAM_API_BASE}`);
console.log(`  TELEGRAM_BOT_TOKEN=${telegram.env.TELEGRAM_BOT_TOKEN}`);
console.log(`  TELEGRAM_BOT_USERNAME=${telegram.env.TELEGRAM_BOT_USERNAME}`);
for (const [name, value] of Object.entries({ ...yookassa.env, ...stripe.env, ...cryptomus.env })) {
  console.log(`  ${name}=${value}`);
}
console.log(`  SENTRY_DSN=${sentry.dsn} SENTRY_DSN_WEB=${sentry.dsn}`);
console.log(`  PUBLIC_URL=${appUrl}`);
console.log(`A prompt with "forbidden-by-fal" is refused by fal's fake safety checker,`);
console.log(`one with "forbidden-by-replicate" by Replicate's.`);
console.log(`Payment fakes post notifications to ${appUrl} (set APP_URL to change).`);

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
  ]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
