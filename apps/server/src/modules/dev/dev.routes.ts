import { routes } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { DevDeps } from './dev.deps.js';
import { signDevInitData } from './dev.usecases.js';

/**
 * Development only (NODE_ENV ≠ production and DEV_TELEGRAM_MOCK=true): signed Mini App init data
 * for a test user, so the web app can be tried "inside Telegram" on a plain browser.
 */
export function registerDevRoutes(app: ZodApp, deps: DevDeps): void {
  serve(app, routes.dev.telegramInitData, async (request) => {
    const q = request.query;
    const initData = signDevInitData(deps, {
      userId: q.user_id,
      firstName: q.first_name,
      lastName: q.last_name,
      username: q.username,
      language: q.language,
      startParam: q.start_param,
    });
    return {
      init_data: initData,
      version: q.version,
      platform: q.platform,
      start_param: q.start_param ?? null,
    };
  });
}
