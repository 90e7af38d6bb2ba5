import { z } from 'zod';
import {
  ZSignInToken,
  ZTelegramAuthKey,
  ZTelegramBaseBody,
  ZTelegramTokenQuery,
  ZTelegramTokenResponse,
} from '@mirra/contracts';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { TelegramDeps } from './telegram.deps.js';
import { AppError } from '../../shared/errors.js';
import { issueSession } from '../auth/index.js';
import { pickReferralCode, updateUser } from '../users/index.js';
import { authenticateTelegramInitData } from './telegram-auth.usecases.js';
import { isWebhookSecretValid, TELEGRAM_WEBHOOK_PATH } from './telegram.models.js';
import { createAuthKey, handleTelegramUpdate, takeAuthToken, ZTelegramUpdate } from './telegram.usecases.js';

const tags = ['telegram'];

export function registerTelegramRoutes(app: ZodApp, deps: TelegramDeps): void {
  app.post(
    '/api/auth/base/',
    {
      schema: {
        tags,
        summary: 'Exchange Mini App init data (header `TG <initData>` or body `init_data`) for tokens',
        body: ZTelegramBaseBody,
        response: { 200: ZSignInToken },
      },
    },
    async (request) => {
      const header = request.headers.authorization ?? '';
      const fromHeader = /^(tg|tma)\s+/i.test(header) ? header.replace(/^(tg|tma)\s+/i, '') : '';
      const initData = request.body.init_data || fromHeader;
      if (!initData) {
        throw new AppError({ code: 'common.validation', fields: { init_data: ['This field is required.'] } });
      }
      const user = await authenticateTelegramInitData(
        deps,
        initData,
        pickReferralCode(null, request.cookies),
      );
      const pair = await deps.db.transaction(async (tx) => {
        await updateUser(tx, user.id, deps.now(), { lastLogin: deps.now() });
        return issueSession(deps, tx, user.id);
      });
      return { token: pair.refresh, ...pair };
    },
  );

  app.post(
    '/api/tg/create_auth_key/',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Start a sign-in through the bot; signed in, it links Telegram to your account',
        body: z.unknown().optional(),
        response: { 200: ZTelegramAuthKey },
      },
    },
    async (request) =>
      createAuthKey(deps, request.auth?.user.id ?? null, request.ip, pickReferralCode(null, request.cookies)),
  );

  app.get(
    '/api/tg/get_token/',
    {
      schema: {
        tags,
        summary: 'Poll for the sign-in token (null until the user presses Start; given once)',
        querystring: ZTelegramTokenQuery,
        response: { 200: ZTelegramTokenResponse },
      },
    },
    async (request) => takeAuthToken(deps, request.query.uuid),
  );

  app.post(
    TELEGRAM_WEBHOOK_PATH,
    {
      // Checked before the body is even parsed: strangers learn nothing about what we accept.
      onRequest: async (request) => {
        const secret = request.headers['x-telegram-bot-api-secret-token'];
        if (!isWebhookSecretValid(deps.config.telegram.webhookSecret, secret)) {
          throw new AppError({ code: 'telegram.webhook_forbidden', detail: 'Forbidden.' });
        }
      },
      schema: {
        tags,
        summary: 'Bot updates from Telegram (checked by the secret-token header)',
        body: ZTelegramUpdate,
        response: { 200: z.object({ ok: z.boolean() }) },
        hide: true,
      },
    },
    async (request) => {
      await handleTelegramUpdate(deps, request.body);
      return { ok: true };
    },
  );
}
