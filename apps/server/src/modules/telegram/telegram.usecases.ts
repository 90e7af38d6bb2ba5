import { z } from 'zod';
import type { AppDeps } from '../../app/deps.js';
import type { Tx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { translate } from '../../shared/i18n/messages.js';
import { addJob } from '../../shared/jobs.js';
import { issueSession } from '../auth/sessions.usecases.js';
import { usersRepository } from '../users/users.repository.js';
import { telegramUnavailable, upsertTelegramUser } from './telegram-auth.usecases.js';
import { sendTelegramMessageJob } from './telegram.jobs.js';
import { botStartLink, generateAuthKey, hashAuthKey, parseStartCommand } from './telegram.models.js';
import { telegramRepository } from './telegram.repository.js';

/**
 * Web sign-in through the bot (spec §4 "Messenger sign-in"). The browser gets a uuid to poll with
 * and a t.me link carrying a separate secret key; pressing Start in the bot binds the Telegram
 * user to the key, and the next poll returns the tokens, once. A signed-in user asking for a key
 * gets Telegram linked to their account instead.
 */
export async function createAuthKey(deps: AppDeps, requestedByUserId: number | null) {
  const { botUsername, authKeySeconds } = deps.config.telegram;
  if (!deps.telegramBot || !botUsername) throw telegramUnavailable();
  const key = generateAuthKey();
  const row = await telegramRepository.insertAuthKey(deps.db, {
    keyHash: hashAuthKey(key),
    expiresAt: new Date(deps.now().getTime() + authKeySeconds * 1000),
    requestedByUserId,
  });
  return { uuid: row.uuid, link: botStartLink(botUsername, key), expires_in: authKeySeconds };
}

const keyGone = () =>
  new AppError({
    code: 'telegram.auth_key_gone',
    detail: 'This sign-in link has expired or was already used.',
  });

export async function takeAuthToken(deps: AppDeps, uuid: string) {
  return deps.db.transaction(async (tx) => {
    const row = await telegramRepository.findAuthKeyForUpdate(tx, uuid);
    if (!row) throw new AppError({ code: 'telegram.auth_key_unknown', detail: 'Not found.' });
    if (row.status === 'consumed') throw keyGone();
    if (row.status === 'pending') {
      if (row.expiresAt <= deps.now()) throw keyGone();
      return { status: 'pending' as const, token: null, refresh: null, access: null };
    }
    // Confirmed by the bot: hand out the tokens exactly once.
    await telegramRepository.updateAuthKey(tx, row.uuid, { status: 'consumed', consumedAt: deps.now() });
    const pair = await issueSession(deps, tx, row.userId!);
    await usersRepository.update(tx, row.userId!, { lastLogin: deps.now() });
    return { status: 'confirmed' as const, token: pair.refresh, ...pair };
  });
}

/** The parts of a Bot API `Update` the bot acts on; everything else is acknowledged and ignored. */
export const ZTelegramUpdate = z
  .object({
    update_id: z.number().int(),
    message: z
      .object({
        message_id: z.number().int(),
        chat: z.object({ id: z.number().int(), type: z.string() }),
        from: z
          .object({
            id: z.number().int(),
            is_bot: z.boolean().optional(),
            first_name: z.string().optional(),
            last_name: z.string().optional(),
            username: z.string().optional(),
            language_code: z.string().optional(),
          })
          .optional(),
        text: z.string().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type TTelegramUpdate = z.infer<typeof ZTelegramUpdate>;

/**
 * Applies one bot update, exactly once per `update_id`. `/start <key>` confirms a web sign-in (or
 * links Telegram to the signed-in user who asked); plain `/start` greets with a button to the app.
 */
export async function handleTelegramUpdate(deps: AppDeps, update: TTelegramUpdate): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await telegramRepository.claimUpdate(tx, update.update_id))) return;
    const message = update.message;
    const from = message?.from;
    if (!message || !from || from.is_bot || message.chat.type !== 'private') return;
    const start = parseStartCommand(message.text);
    if (!start) return;
    const reply = (key: Parameters<typeof translate>[1], withButton = false) =>
      addJob(tx, sendTelegramMessageJob, {
        chatId: message.chat.id,
        text: translate(from.language_code, key),
        ...(withButton
          ? { openAppUrl: miniAppUrl(deps), openAppLabel: translate(from.language_code, 'bot.open_app') }
          : {}),
      });

    if (!start.payload || start.payload.startsWith('ref_')) {
      // Starting the bot allows it to write to the user.
      const user = await usersRepository.findByTelegramId(tx, from.id);
      if (user && !user.telegramAllowsWrite) {
        await usersRepository.update(tx, user.id, { telegramAllowsWrite: true });
      }
      await reply('bot.welcome', true);
      return;
    }
    await confirmAuthKey(deps, tx, start.payload, from, reply);
  });
}

async function confirmAuthKey(
  deps: AppDeps,
  tx: Tx,
  key: string,
  from: NonNullable<NonNullable<TTelegramUpdate['message']>['from']>,
  reply: (key: Parameters<typeof translate>[1]) => Promise<void>,
): Promise<void> {
  const row = await telegramRepository.findAuthKeyByHashForUpdate(tx, hashAuthKey(key));
  if (!row || row.status !== 'pending' || row.expiresAt <= deps.now()) {
    await reply('bot.link_expired');
    return;
  }
  const profile = { ...from, allows_write_to_pm: true };
  if (row.requestedByUserId) {
    const holder = await usersRepository.findByTelegramId(tx, from.id);
    if (holder && holder.id !== row.requestedByUserId) {
      await reply('bot.identity_taken');
      return;
    }
    await usersRepository.update(tx, row.requestedByUserId, {
      telegramId: from.id,
      telegramUsername: from.username ?? null,
      telegramAllowsWrite: true,
    });
    await telegramRepository.updateAuthKey(tx, row.uuid, {
      status: 'confirmed',
      confirmedAt: deps.now(),
      userId: row.requestedByUserId,
    });
    await reply('bot.linked');
    return;
  }
  const user = await upsertTelegramUser(tx, profile, { allowsWrite: true });
  await telegramRepository.updateAuthKey(tx, row.uuid, {
    status: 'confirmed',
    confirmedAt: deps.now(),
    userId: user.id,
  });
  await reply('bot.signed_in');
}

/** Where the bot's "Open" button leads: the Mini App's public URL. */
function miniAppUrl(deps: AppDeps): string {
  return `${deps.config.publicUrl}/`;
}
