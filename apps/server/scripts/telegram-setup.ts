// `npm run telegram:setup -w @mirra/server`: checks TELEGRAM_BOT_TOKEN with getMe and registers this
// server's webhook (PUBLIC_URL + /api/tg/webhook/, secret TELEGRAM_WEBHOOK_SECRET) with Telegram,
// or with whatever TELEGRAM_API_BASE points at (a local fake: scripts/fake-telegram.ts).
import { parseConfig } from '../src/shared/config.js';
import { TelegramApiError } from '../src/modules/telegram/bot-api.client.js';
import { setupTelegramBot, TelegramSetupError } from '../src/modules/telegram/telegram-setup.usecases.js';

try {
  const config = parseConfig();
  console.log(`Bot API: ${config.telegram.apiBase}`);
  const report = await setupTelegramBot({ config });
  console.log(`Bot: @${report.botUsername}`);
  console.log(`Webhook: ${report.webhookUrl}`);
  console.log(`Allowed updates: ${report.allowedUpdates.join(', ')}`);
  console.log(`Pending updates: ${report.webhookInfo.pending_update_count}`);
  for (const warning of report.warnings) console.warn(`Warning: ${warning}`);
} catch (error) {
  if (error instanceof TelegramSetupError || error instanceof TelegramApiError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
}
