import { z } from 'zod';

/** Development only: who the signed Telegram Mini App init data of the dev mode is for. */
export const ZDevInitDataQuery = z.object({
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

export const ZDevInitData = z.object({
  init_data: z.string(),
  version: z.string(),
  platform: z.string(),
  start_param: z.string().nullable(),
});
export type TDevInitData = z.infer<typeof ZDevInitData>;
