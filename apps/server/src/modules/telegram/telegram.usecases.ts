import type { TTelegramUpdate } from '@mirra/contracts';
import type { TelegramDeps } from './telegram.deps.js';
import type { Tx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { translate, type MessageKey } from '../../shared/i18n/messages.js';
import { addJob } from '../../shared/jobs.js';
import { issueSession } from '../auth/index.js';
import { findUserByTelegramId, updateUser } from '../users/index.js';
import { telegramUnavailable, upsertTelegramUser } from './telegram-auth.usecases.js';
import { sendTelegramMessageJob } from './telegram.jobs.definitions.js';
import {
  botStartLink,
  generateAuthKey,
  hashAuthKey,
  isAccountMadeBySignIn,
  isAuthKeyPayload,
  parseStartCommand,
} from './telegram.models.js';
import { telegramRepository } from './telegram.repository.js';

/**
 * Web sign-in through the bot ("Messenger sign-in"). The browser gets a uuid to poll with
 * and a t.me link carrying a separate secret key; pressing Start in the bot binds the Telegram
 * user to the key, and the next poll returns the tokens, once. A signed-in user asking for a key
 * gets Telegram linked to their account instead.
 */
export async function createAuthKey(
  deps: TelegramDeps,
  requestedByUserId: number | null,
  ip: string,
  referralCode: string | null = null,
) {
  const { botUsername, authKeySeconds } = deps.config.telegram;
  if (!deps.telegramBot || !botUsername) throw telegramUnavailable();
  // Open to anyone and a row each: limited per address so it cannot be used to fill the table.
  const { rateLimits } = deps.config;
  await deps.rateLimiter.hit([
    {
      key: `tg_auth_key:ip:${ip}`,
      limit: rateLimits.telegramAuthKeyPerIp,
      windowSeconds: rateLimits.windowSeconds,
    },
  ]);
  const key = generateAuthKey();
  const row = await telegramRepository.insertAuthKey(deps.db, {
    keyHash: hashAuthKey(key),
    expiresAt: new Date(deps.now().getTime() + authKeySeconds * 1000),
    requestedByUserId,
    // The partner link the browser followed: an account the bot creates for this key is theirs.
    referralCode: requestedByUserId ? null : referralCode,
  });
  return { uuid: row.uuid, link: botStartLink(botUsername, key), expires_in: authKeySeconds };
}

const keyGone = () =>
  new AppError({
    code: 'telegram.auth_key_gone',
    detail: 'This sign-in link has expired or was already used.',
  });

export async function takeAuthToken(deps: TelegramDeps, uuid: string) {
  return deps.db.transaction(async (tx) => {
    const row = await telegramRepository.findAuthKeyForUpdate(tx, uuid);
    if (!row) throw new AppError({ code: 'telegram.auth_key_unknown', detail: 'Not found.' });
    if (row.status === 'consumed') throw keyGone();
    if (row.status === 'pending') {
      if (row.expiresAt <= deps.now()) throw keyGone();
      return { status: 'pending' as const, token: null, refresh: null, access: null, created: false };
    }
    // Confirmed by the bot: hand out the tokens exactly once.
    await telegramRepository.updateAuthKey(tx, row.uuid, { status: 'consumed', consumedAt: deps.now() });
    const pair = await issueSession(deps, tx, row.userId!);
    const user = await updateUser(tx, row.userId!, deps.now(), { lastLogin: deps.now() });
    const created = isAccountMadeBySignIn(user.dateJoined, row.createdAt);
    return { status: 'confirmed' as const, token: pair.refresh, ...pair, created };
  });
}

/**
 * Applies one bot update, exactly once per `update_id`. `/start <key>` confirms a web sign-in (or
 * links Telegram to the signed-in user who asked); plain `/start` greets with a button to the app.
 */
export async function handleTelegramUpdate(deps: TelegramDeps, update: TTelegramUpdate): Promise<void> {
  // Payments are deduplicated by their charge ids, so they are handed over before the update is claimed.
  if (await handleStarsUpdate(deps, update)) return;
  const changedUserId = await deps.db.transaction(async (tx): Promise<number | null> => {
    if (!(await telegramRepository.claimUpdate(tx, update.update_id))) return null;
    const message = update.message;
    const from = message?.from;
    if (!message || !from || from.is_bot || message.chat.type !== 'private') return null;
    const start = parseStartCommand(message.text);
    if (!start) return null;
    const reply = (key: MessageKey, withButton = false) =>
      addJob(tx, sendTelegramMessageJob, {
        chatId: message.chat.id,
        text: translate(from.language_code, key),
        ...(withButton
          ? { openAppUrl: miniAppUrl(deps), openAppLabel: translate(from.language_code, 'bot.open_app') }
          : {}),
      });

    if (!start.payload || !isAuthKeyPayload(start.payload)) {
      // Starting the bot allows it to write to the user.
      let user = await findUserByTelegramId(tx, from.id);
      if (!user && start.payload?.startsWith('ref_')) {
        // A partner's bot link (`/start ref_<code>`) is the first sight of this person, as the
        // Mini App's `startapp=ref_<code>` is: the account starts here, with its referer.
        user = await upsertTelegramUser(tx, deps.now(), from, {
          startParam: start.payload,
          allowsWrite: true,
          welcomeCredits: deps.config.welcomeCredits,
        });
        await reply('bot.welcome', true);
        return user.id;
      }
      await reply('bot.welcome', true);
      if (user && !user.telegramAllowsWrite) {
        await updateUser(tx, user.id, deps.now(), { telegramAllowsWrite: true });
        return user.id;
      }
      return null;
    }
    return confirmAuthKey(deps, tx, start.payload, from, reply);
  });
  // The Bearer session cache of this process must not serve the row from before the change.
  if (changedUserId !== null) deps.sessionCache.forgetUser(changedUserId);
}

/** Returns the id of the user whose Telegram link changed, if any. */
async function confirmAuthKey(
  deps: TelegramDeps,
  tx: Tx,
  key: string,
  from: NonNullable<NonNullable<TTelegramUpdate['message']>['from']>,
  reply: (key: MessageKey) => Promise<void>,
): Promise<number | null> {
  const row = await telegramRepository.findAuthKeyByHashForUpdate(tx, hashAuthKey(key));
  if (!row || row.status !== 'pending' || row.expiresAt <= deps.now()) {
    await reply('bot.link_expired');
    return null;
  }
  if (row.requestedByUserId) {
    const holder = await findUserByTelegramId(tx, from.id);
    if (holder && holder.id !== row.requestedByUserId) {
      // One person, one account: nothing is linked, and the key stays usable with another Telegram.
      await reply('bot.identity_taken');
      return null;
    }
    await updateUser(tx, row.requestedByUserId, deps.now(), {
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
    return row.requestedByUserId;
  }
  const user = await upsertTelegramUser(tx, deps.now(), from, {
    allowsWrite: true,
    referralCode: row.referralCode,
    welcomeCredits: deps.config.welcomeCredits,
  });
  await telegramRepository.updateAuthKey(tx, row.uuid, {
    status: 'confirmed',
    confirmedAt: deps.now(),
    userId: user.id,
  });
  await reply('bot.signed_in');
  return user.id;
}

/** Where the bot's "Open" button leads: the Mini App's public URL. */
function miniAppUrl(deps: TelegramDeps): string {
  return `${deps.config.publicUrl}/`;
}

/** Forgets sign-in keys that expired before `before`: they can no longer be confirmed. */
export async function deleteExpiredAuthKeys(deps: Pick<TelegramDeps, 'db'>, before: Date): Promise<void> {
  await telegramRepository.deleteExpiredAuthKeys(deps.db, before);
}

/**
 * Telegram Stars in bot updates: a `pre_checkout_query` is answered at once (Telegram waits 10
 * seconds) from the order's state; `successful_payment` and `refunded_payment` are handed to
 * payments. True when the update was one of these.
 */
async function handleStarsUpdate(deps: TelegramDeps, update: TTelegramUpdate): Promise<boolean> {
  const query = update.pre_checkout_query;
  const message = update.message;
  if (!query && !message?.successful_payment && !message?.refunded_payment) return false;
  const stars = deps.starsPayments;
  if (!stars || !deps.telegramBot) return true;
  if (query) {
    let answer: { ok: boolean; errorKey?: MessageKey };
    try {
      answer = await stars.preCheckout({
        fromTelegramId: query.from.id,
        currency: query.currency,
        totalAmount: query.total_amount,
        payload: query.invoice_payload,
      });
    } catch (error) {
      deps.logger.error({ err: error }, 'pre-checkout check failed');
      answer = { ok: false, errorKey: 'bot.payment_unavailable_now' };
    }
    try {
      await deps.telegramBot.call('answerPreCheckoutQuery', {
        pre_checkout_query_id: query.id,
        ok: answer.ok,
        ...(answer.ok
          ? {}
          : {
              error_message: translate(query.from.language_code, answer.errorKey ?? 'bot.order_unavailable'),
            }),
      });
    } catch (error) {
      // A query past its 10 seconds cannot be answered any more; a retried update would not help.
      deps.logger.warn({ err: error, query: query.id }, 'could not answer a pre-checkout query');
    }
    return true;
  }
  const fromId = message?.from?.id ?? message?.chat.id ?? 0;
  if (message?.successful_payment) await stars.successfulPayment(fromId, message.successful_payment);
  if (message?.refunded_payment) await stars.refundedPayment(fromId, message.refunded_payment);
  return true;
}
