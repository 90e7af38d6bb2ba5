// A local fake of the Telegram Bot API for development and browser tests:
//   npx tsx apps/server/scripts/fake-telegram.ts [--port 8081] [--host 127.0.0.1] [--token <t>]
//     [--username mirra_test_bot] [--webhook-url <url> --webhook-secret <s>]
// Point the app at it with the printed TELEGRAM_API_BASE / TELEGRAM_BOT_TOKEN, run
// `npm run telegram:setup` (or pass --webhook-url), then "press Start" in the bot over HTTP.
import { parseArgs } from 'node:util';
import { startTelegramBotApiFake } from '../src/fakes/telegram-bot-api.fake.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.FAKE_TELEGRAM_PORT ?? '0' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string', default: process.env.TELEGRAM_BOT_TOKEN },
    username: { type: 'string', default: process.env.TELEGRAM_BOT_USERNAME ?? 'mirra_test_bot' },
    'webhook-url': { type: 'string' },
    'webhook-secret': { type: 'string', default: process.env.TELEGRAM_WEBHOOK_SECRET },
    quiet: { type: 'boolean', default: false },
  },
});

const fake = await startTelegramBotApiFake({
  host: values.host,
  port: Number(values.port),
  token: values.token,
  botUsername: values.username,
  webhook: values['webhook-url']
    ? { url: values['webhook-url'], secretToken: values['webhook-secret'] }
    : undefined,
  onCall: values.quiet
    ? undefined
    : (call) => {
        const detail =
          call.method.toLowerCase() === 'sendmessage'
            ? ` chat ${String(call.params.chat_id)}: ${JSON.stringify(call.params.text)}`
            : '';
        console.log(`${call.status} ${call.method}${detail}`);
      },
});

console.log(`Fake Telegram Bot API at ${fake.url} (bot @${fake.bot.username})`);
console.log(`  TELEGRAM_API_BASE=${fake.env.TELEGRAM_API_BASE}`);
console.log(`  TELEGRAM_BOT_TOKEN=${fake.env.TELEGRAM_BOT_TOKEN}`);
console.log(`  TELEGRAM_BOT_USERNAME=${fake.env.TELEGRAM_BOT_USERNAME}`);
console.log('Press Start (the key is what follows ?start= in the sign-in link):');
console.log(
  `  curl -X POST ${fake.url}/__fake__/press-start -H 'content-type: application/json' -d '{"payload":"<key>","user":{"id":42,"first_name":"Ada","language_code":"en"}}'`,
);
console.log(`What the bot sent: curl ${fake.url}/__fake__/calls?method=sendMessage`);

const stop = () => {
  void fake.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
