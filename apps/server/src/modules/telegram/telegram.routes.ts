import { routes } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { TelegramDeps } from './telegram.deps.js';
import { AppError } from '../../shared/errors.js';
import { pickReferralCode } from '../users/index.js';
import { openTelegramSession } from './telegram-auth.usecases.js';
import { isWebhookSecretValid } from './telegram.models.js';
import { createAuthKey, handleTelegramUpdate, takeAuthToken } from './telegram.usecases.js';

const r = routes.telegram;

export function registerTelegramRoutes(app: ZodApp, deps: TelegramDeps): void {
  serve(app, r.signIn, async (request) => {
    const header = request.headers.authorization ?? '';
    const fromHeader = /^(tg|tma)\s+/i.test(header) ? header.replace(/^(tg|tma)\s+/i, '') : '';
    const initData = request.body.init_data || fromHeader;
    if (!initData) {
      throw new AppError({ code: 'common.validation', fields: { init_data: ['This field is required.'] } });
    }
    const session = await openTelegramSession(deps, initData, pickReferralCode(null, request.cookies));
    return { token: session.refresh, ...session };
  });

  serve(app, r.createAuthKey, async (request) =>
    createAuthKey(deps, request.auth?.user.id ?? null, request.ip, pickReferralCode(null, request.cookies)),
  );

  serve(app, r.getToken, async (request) => takeAuthToken(deps, request.query.uuid));

  serve(
    app,
    r.webhook,
    async (request) => {
      await handleTelegramUpdate(deps, request.body);
      return { ok: true };
    },
    {
      // Checked before the body is even parsed: strangers learn nothing about what we accept.
      onRequest: async (request) => {
        const secret = request.headers['x-telegram-bot-api-secret-token'];
        if (!isWebhookSecretValid(deps.config.telegram.webhookSecret, secret)) {
          throw new AppError({ code: 'telegram.webhook_forbidden', detail: 'Forbidden.' });
        }
      },
    },
  );
}
