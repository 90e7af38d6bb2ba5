import { z } from 'zod';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { DevDeps } from './dev.deps.js';
import { signDevInitData } from './dev.usecases.js';

const ZDevInitDataQuery = z.object({
  user_id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 52)
    .default(100000001),
  first_name: z.string().trim().min(1).max(64).default('Dev'),
  last_name: z.string().trim().max(64).optional(),
  username: z.string().trim().max(32).optional(),
  language: z.string().trim().max(8).optional(),
  start_param: z
    .string()
    .regex(/^[\w-]{1,512}$/)
    .optional(),
  version: z
    .string()
    .regex(/^\d+(\.\d+)*$/)
    .default('8.0'),
  platform: z.enum(['tdesktop', 'macos', 'web', 'weba', 'ios', 'android']).default('tdesktop'),
});

const ZDevInitData = z.object({
  init_data: z.string(),
  version: z.string(),
  platform: z.string(),
  start_param: z.string().nullable(),
});

/**
 * Development only (NODE_ENV ≠ production and DEV_TELEGRAM_MOCK=true): signed Mini App init data
 * for a test user, so the web app can be tried "inside Telegram" on a plain browser.
 */
export function registerDevRoutes(app: ZodApp, deps: DevDeps): void {
  app.get(
    '/api/dev/telegram-init-data/',
    {
      schema: {
        tags: ['dev'],
        summary: 'Signed Telegram init data for the dev Mini App mode (development only)',
        querystring: ZDevInitDataQuery,
        response: { 200: ZDevInitData },
        hide: true,
      },
    },
    async (request) => {
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
    },
  );
}
